#include "graphgc/ir/collector.h"

namespace graphgc::internal {

Collector::Collector(const GraphOptions& options)
    : keep_all_values_(options.keep_all_values),
      max_pending_(static_cast<size_t>(options.max_pending)),
      trigger_(options) {}

void Collector::maybe_collect(ValueSlots& values, ValueStore& store) {
  if (keep_all_values_) return;  // nothing could be freed
  if (trigger_.due(store.live_bytes(), remembered_.pending())) {
    collect(CollectMode::kChangedSinceLast, values, store);
  }
}

CollectStats Collector::collect(CollectMode mode, ValueSlots& values, ValueStore& store) {
  CollectStats stats;
  stats.scanned =
      for_each_candidate(mode, values.size(), [&](VarId var) { sweep(var, values, store, stats); });
  finish(store, stats);
  return stats;
}

template <class Visit>
int64_t Collector::for_each_candidate(CollectMode mode, size_t num_vars, Visit&& visit) const {
  if (mode == CollectMode::kEveryVar) {
    for (size_t i = 0; i < num_vars; ++i) visit(VarId(static_cast<uint32_t>(i)));
    return static_cast<int64_t>(num_vars);
  }
  for (VarId var : remembered_.young()) visit(var);
  for (VarId var : remembered_.dropped()) visit(var);
  return remembered_.pending();
}

void Collector::sweep(VarId var, ValueSlots& values, ValueStore& store, CollectStats& stats) const {
  ValueRef& ref = values[var.value()];
  if (ref.is_null() || is_marked(var)) return;
  stats.freed_bytes += static_cast<int64_t>(store.release(ref));
  ++stats.freed_values;
  ref = ValueRef{};
}

void Collector::finish(const ValueStore& store, CollectStats& stats) {
  remembered_.clear(4 * max_pending_);
  stats.live_values = store.live_values();
  stats.live_bytes = store.live_bytes();
  ++collections_;
  trigger_.rearm(store.live_bytes());
}

}  // namespace graphgc::internal
