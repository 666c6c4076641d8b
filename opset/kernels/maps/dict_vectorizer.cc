// DictVectorizer (ai.onnx.ml 1): a map becomes a [1, V] tensor of its values at the positions of
// their keys in the vocabulary; keys outside it are ignored, positions without a key are zero
// ("" for strings).
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/maps/map_entries.h"
#include "graphgc/opset/kernels/maps/maps_kernels.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"

namespace graphgc::kernels {
namespace {

template <class K>
ValueKernelResult Vectorize(const KernelContext& ctx, const Value& map,
                            const std::vector<K>& vocabulary) {
  if (map.keys().dtype() != DataTypeOf<K>::value) return Decline("keys of another type");
  absl::flat_hash_map<K, int64_t> position;
  for (size_t i = 0; i < vocabulary.size(); ++i) position.emplace(vocabulary[i], i);
  const Tensor& values = map.map_values();
  const int64_t width = static_cast<int64_t>(vocabulary.size());
  absl::StatusOr<MutableTensor> out = ZeroRow(ctx, values.dtype(), width);
  if (!out.ok()) return out.status();
  const absl::Span<const K> keys = map.keys().data<K>();
  for (size_t i = 0; i < keys.size(); ++i) {
    auto it = position.find(keys[i]);
    if (it != position.end()) CopyElements(values, static_cast<int64_t>(i), *out, it->second, 1);
  }
  return ValueOutputs{std::move(*out).freeze()};
}

ValueKernelResult DictVectorizer(const KernelContext& ctx) {
  absl::StatusOr<const Value*> map = MapInput(ctx, 0);
  if (!map.ok()) return map.status();
  if (std::optional<std::vector<std::string>> words = ctx.strings_attribute("string_vocabulary")) {
    return Vectorize(ctx, **map, *words);
  }
  if (std::optional<std::vector<int64_t>> ids = ctx.ints_attribute("int64_vocabulary")) {
    return Vectorize(ctx, **map, *ids);
  }
  return Decline("DictVectorizer without a vocabulary");
}

}  // namespace

void RegisterDictVectorizerKernels(KernelTable& table) {
  // The map's values are copied whatever their type.
  table.add_value_kernel("ai.onnx.ml", "DictVectorizer", 1, KernelTable::kLatest,
                         KernelTypes::Unconstrained(), DictVectorizer);
}

}  // namespace graphgc::kernels
