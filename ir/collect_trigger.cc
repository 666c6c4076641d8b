#include "graphgc/ir/collect_trigger.h"

#include <algorithm>
#include <cstdint>

namespace graphgc::internal {

CollectTrigger::CollectTrigger(const GraphOptions& options)
    : policy_(options.collect_policy),
      growth_factor_(options.growth_factor),
      min_trigger_bytes_(options.min_trigger_bytes),
      threshold_bytes_(options.threshold_bytes),
      max_pending_(options.max_pending) {
  rearm(0);
}

void CollectTrigger::rearm(int64_t live_bytes) {
  switch (policy_) {
    case CollectPolicy::kAdaptive: {
      const double grown = static_cast<double>(live_bytes) * growth_factor_;
      next_trigger_bytes_ = std::max(min_trigger_bytes_, static_cast<int64_t>(grown));
      break;
    }
    case CollectPolicy::kFixedThreshold:
      next_trigger_bytes_ = threshold_bytes_;
      break;
    case CollectPolicy::kManual:
      next_trigger_bytes_ = INT64_MAX;
      break;
  }
}

bool CollectTrigger::due(int64_t live_bytes, int64_t pending) const {
  return live_bytes >= next_trigger_bytes_ || (automatic() && pending > max_pending_);
}

}  // namespace graphgc::internal
