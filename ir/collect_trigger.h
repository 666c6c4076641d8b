// CollectTrigger: when an automatic collection runs, per GraphOptions::collect_policy.
//
//   kAdaptive        when live value bytes reach growth_factor times what the last collection left
//                    (never below min_trigger_bytes), like Go's GOGC;
//   kFixedThreshold  when live value bytes reach threshold_bytes;
//   kManual          never.
// Under every policy but kManual a collection is also due once max_pending remembered-set entries
// wait, so the collector's own bookkeeping stays bounded when values are tiny or absent.
// Ownership: owned by the Collector. Threading: as its graph (one thread at a time).
#ifndef GRAPHGC_IR_COLLECT_TRIGGER_H_
#define GRAPHGC_IR_COLLECT_TRIGGER_H_

#include <cstdint>

#include "graphgc/ir/graph_options.h"

namespace graphgc::internal {

class CollectTrigger {
 public:
  explicit CollectTrigger(const GraphOptions& options);

  // Re-arms after a collection that left `live_bytes` held.
  void rearm(int64_t live_bytes);
  // Whether an automatic collection is due with `live_bytes` held and `pending` remembered-set
  // entries waiting.
  bool due(int64_t live_bytes, int64_t pending) const;
  // Whether the library may collect on its own (to make room under max_live_value_bytes):
  // every policy but kManual, which leaves freeing to the user.
  bool automatic() const { return policy_ != CollectPolicy::kManual; }

 private:
  CollectPolicy policy_;
  double growth_factor_;
  int64_t min_trigger_bytes_;
  int64_t threshold_bytes_;
  int64_t max_pending_;
  int64_t next_trigger_bytes_ = 0;
};

}  // namespace graphgc::internal

#endif  // GRAPHGC_IR_COLLECT_TRIGGER_H_
