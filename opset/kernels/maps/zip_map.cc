// ZipMap (ai.onnx.ml 1): each row of scores [N, C] (or one row [C]) becomes a map from the class
// labels to the row's scores; the output is the sequence of the N maps. A label given twice keeps
// the later score, as ONNX Runtime's map assignment does.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/maps/map_entries.h"
#include "graphgc/opset/kernels/maps/maps_kernels.h"

namespace graphgc::kernels {
namespace {

template <class K>
ValueKernelResult Zip(const KernelContext& ctx, const std::vector<K>& labels) {
  const Tensor& scores = ctx.input(0);
  if (scores.dtype() != DataType::kFloat || scores.rank() < 1 || scores.rank() > 2) {
    return ctx.input_error(0, "must be float scores of rank 1 or 2");
  }
  const int64_t classes = scores.shape()[static_cast<size_t>(scores.rank() - 1)];
  if (classes != static_cast<int64_t>(labels.size())) {
    return ctx.input_error(
        0, absl::StrCat("has ", classes, " classes but ", labels.size(), " labels are given"));
  }
  const int64_t rows = scores.rank() == 2 ? scores.shape()[0] : 1;
  if (!ctx.within_budget(DataType::kFloat, rows * classes * 2)) {
    return absl::ResourceExhaustedError("ZipMap's maps are past the value budget");
  }
  const absl::Span<const float> data = scores.data<float>();
  std::vector<Value> maps;
  for (int64_t r = 0; r < rows; ++r) {
    std::map<K, float> entries;
    for (int64_t c = 0; c < classes; ++c) {
      entries[labels[static_cast<size_t>(c)]] = data[static_cast<size_t>(r * classes + c)];
    }
    absl::StatusOr<Value> map = MakeMap(entries);
    if (!map.ok()) return map.status();
    maps.push_back(*std::move(map));
  }
  return ValueOutputs{Value::Sequence(std::move(maps))};
}

ValueKernelResult ZipMap(const KernelContext& ctx) {
  if (std::optional<std::vector<std::string>> labels =
          ctx.strings_attribute("classlabels_strings")) {
    return Zip(ctx, *labels);
  }
  if (std::optional<std::vector<int64_t>> labels = ctx.ints_attribute("classlabels_int64s")) {
    return Zip(ctx, *labels);
  }
  return Decline("ZipMap without class labels");
}

}  // namespace

void RegisterZipMapKernels(KernelTable& table) {
  // A float tensor in, a sequence of maps out: no tensor of a type parameter.
  table.add_value_kernel("ai.onnx.ml", "ZipMap", 1, KernelTable::kLatest,
                         KernelTypes::Unconstrained(), ZipMap);
}

}  // namespace graphgc::kernels
