// Reading and making map values: entries as (key, value) pairs of C++ types.
#ifndef GRAPHGC_OPSET_KERNELS_MAPS_MAP_ENTRIES_H_
#define GRAPHGC_OPSET_KERNELS_MAPS_MAP_ENTRIES_H_

#include <map>
#include <vector>

#include "absl/status/statusor.h"
#include "graphgc/opset/kernels/kernel.h"
#include "graphgc/valuestore/value.h"

namespace graphgc::kernels {

// The map input `index` (declines if it is not a known map).
absl::StatusOr<const Value*> MapInput(const KernelContext& ctx, int index);

// A [1, width] tensor of `dtype`, all zeros ("" for strings), within the value budget.
absl::StatusOr<MutableTensor> ZeroRow(const KernelContext& ctx, DataType dtype, int64_t width);

// A map value of `entries` (ascending keys); K is int64_t or std::string, V any element type.
template <class K, class V>
absl::StatusOr<Value> MakeMap(const std::map<K, V>& entries) {
  std::vector<K> keys;
  std::vector<V> values;
  for (const auto& [key, value] : entries) {
    keys.push_back(key);
    values.push_back(value);
  }
  return Value::Map(Tensor::from_vector<K>(std::move(keys)),
                    Tensor::from_vector<V>(std::move(values)));
}

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_MAPS_MAP_ENTRIES_H_
