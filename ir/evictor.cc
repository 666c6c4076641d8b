#include "graphgc/ir/evictor.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace graphgc::internal {

void Evictor::add_vars(size_t count) {
  states_.grow(count);
  if (weighs_cost()) cost_ns_.grow(count);
}

void Evictor::set_cost(VarId var, int64_t ns) {
  if (weighs_cost()) cost_ns_[var.value()] = static_cast<float>(ns);
}

void Evictor::order_by_cost(std::vector<Candidate>& candidates) const {
  const size_t window = std::min(candidates.size(), static_cast<size_t>(kEvictionWindow));
  const auto per_byte = [this](const Candidate& candidate) {
    return static_cast<double>(cost_ns_[candidate.var.value()]) /
           static_cast<double>(candidate.freeable);
  };
  std::stable_sort(
      candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(window),
      [&](const Candidate& a, const Candidate& b) { return per_byte(a) < per_byte(b); });
}

void Evictor::set_evicted(VarId var, bool evicted) {
  uint8_t& state = states_[var.value()];
  state = evicted ? state | kEvicted : state & ~kEvicted;
  if (!evicted && !failures_.empty()) failures_.erase(var.value());
}

absl::Status Evictor::failure(VarId var) const {
  auto it = failures_.find(var.value());
  return it == failures_.end() ? absl::OkStatus() : it->second;
}

void Evictor::note_failure(VarId var, absl::Status status) {
  failures_[var.value()] = std::move(status);
}

absl::StatusOr<Evictor::Choice> Evictor::choose(const ValueStore& store, int64_t used,
                                                int64_t constants, int64_t bytes,
                                                int64_t cap) const {
  const int64_t needed = used + bytes - cap;
  Choice choice;
  if (needed <= 0) return choice;
  // The least recently used values that together give back enough (and, to weigh their costs, at
  // least a window of them).
  std::vector<Candidate> candidates;
  int64_t offered = 0;
  if (bytes <= cap) {
    const size_t window = weighs_cost() ? static_cast<size_t>(kEvictionWindow) : 0;
    store.visit_evictable([&](ValueRef ref, uint32_t owner) {
      const size_t freeable = store.freeable_bytes(ref);
      if (freeable == 0) return true;  // a view, or a Tensor someone holds: evicting frees nothing
      candidates.push_back({VarId(owner), ref, static_cast<int64_t>(freeable)});
      offered += static_cast<int64_t>(freeable);
      return offered < needed || candidates.size() < window;
    });
  }
  if (weighs_cost()) order_by_cost(candidates);
  int64_t freed = 0;
  for (const Candidate& candidate : candidates) {
    if (freed >= needed) break;
    choice.emplace_back(candidate.var, candidate.ref);
    freed += candidate.freeable;
  }
  if (freed >= needed) return choice;
  if (bytes > cap) {
    return absl::ResourceExhaustedError(absl::StrCat(
        bytes, " bytes are more than GraphOptions::", "max_live_value_bytes (", cap, ") allows"));
  }
  return absl::ResourceExhaustedError(absl::StrCat(
      bytes, " more bytes do not fit under GraphOptions::max_live_value_bytes (", cap, "): ", used,
      " bytes are held (", constants, " of them constants), and evicting every value that can be ",
      "computed again gives back only ", freed,
      " (constants, values that cannot be computed again, pinned values and values in use stay)"));
}

void Evictor::fill(GraphStats& stats) const {
  stats.values_evicted = stats_.values_evicted;
  stats.evicted_bytes = stats_.evicted_bytes;
  stats.values_recomputed = stats_.values_recomputed;
  stats.recomputed_bytes = stats_.recomputed_bytes;
  stats.recompute_ns = stats_.recompute_ns;
}

int64_t Evictor::table_bytes() const {
  return static_cast<int64_t>(states_.capacity_bytes() + cost_ns_.capacity_bytes() +
                              failures_.capacity() *
                                  (sizeof(std::pair<uint32_t, absl::Status>) + 1));
}

}  // namespace graphgc::internal
