// CastMap (ai.onnx.ml 1): a map from int64 keys to floats or strings becomes a [1, N] tensor.
// DENSE: the values in ascending key order (N is the map's size). SPARSE: N is max_map and each
// value goes to the position of its key (keys must be in [0, max_map)); other positions are 0.
// TO_FLOAT and TO_INT64 (truncating) are computed; strings must be one clean number each (as
// Cast reads them); TO_STRING, whose number format ONNX does not define, gives no value.
#include <cmath>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/maps/map_entries.h"
#include "graphgc/opset/kernels/maps/maps_kernels.h"
#include "graphgc/opset/kernels/math/cast_string.h"

namespace graphgc::kernels {
namespace {

// The map's values as doubles; nullopt if one is a string that is not a number.
std::optional<std::vector<double>> NumericValues(const Tensor& values) {
  std::vector<double> numbers;
  if (values.dtype() == DataType::kFloat) {
    for (float v : values.data<float>()) numbers.push_back(v);
    return numbers;
  }
  if (values.dtype() != DataType::kString) return std::nullopt;
  for (const std::string& text : values.data<std::string>()) {
    std::optional<double> number = ParseReal(text);
    if (!number.has_value()) return std::nullopt;
    numbers.push_back(*number);
  }
  return numbers;
}

template <class T>
absl::StatusOr<Tensor> Fill(const KernelContext& ctx, const std::vector<int64_t>& positions,
                            const std::vector<double>& numbers, int64_t width) {
  absl::StatusOr<MutableTensor> out = ZeroRow(ctx, DataTypeOf<T>::value, width);
  if (!out.ok()) return out.status();
  const absl::Span<T> data = out->mutable_data<T>();
  for (size_t i = 0; i < numbers.size(); ++i) {
    if constexpr (std::is_same_v<T, int64_t>) {
      // Outside int64 the conversion is undefined: no value.
      if (!(std::fabs(numbers[i]) < 9.2e18)) return Decline("a value outside int64");
    }
    data[static_cast<size_t>(positions[i])] = static_cast<T>(numbers[i]);
  }
  return std::move(*out).freeze();
}

ValueKernelResult CastMap(const KernelContext& ctx) {
  absl::StatusOr<const Value*> map = MapInput(ctx, 0);
  if (!map.ok()) return map.status();
  if ((*map)->keys().dtype() != DataType::kInt64) return Decline("CastMap of non-int64 keys");
  std::optional<std::vector<double>> numbers = NumericValues((*map)->map_values());
  if (!numbers.has_value()) return Decline("values that are not numbers");
  const absl::Span<const int64_t> keys = (*map)->keys().data<int64_t>();
  const bool sparse = ctx.string_attribute("map_form", "DENSE") == "SPARSE";
  const int64_t width =
      sparse ? ctx.int_attribute("max_map", 1) : static_cast<int64_t>(keys.size());
  std::vector<int64_t> positions;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (sparse && (keys[i] < 0 || keys[i] >= width)) {
      return ctx.input_error(
          0, absl::StrCat("key ", keys[i], " is outside [0, max_map = ", width, ")"));
    }
    positions.push_back(sparse ? keys[i] : static_cast<int64_t>(i));
  }
  const std::string to = ctx.string_attribute("cast_to", "TO_FLOAT");
  absl::StatusOr<Tensor> out = to == "TO_FLOAT"   ? Fill<float>(ctx, positions, *numbers, width)
                               : to == "TO_INT64" ? Fill<int64_t>(ctx, positions, *numbers, width)
                                                  : Decline("CastMap to strings");
  if (!out.ok()) return out.status();
  return ValueOutputs{*std::move(out)};
}

}  // namespace

void RegisterCastMapKernels(KernelTable& table) {
  // The output (T2) of TO_FLOAT and TO_INT64; TO_STRING declines.
  table.add_value_kernel("ai.onnx.ml", "CastMap", 1, KernelTable::kLatest,
                         {{"T2", {DataType::kFloat, DataType::kInt64}}}, CastMap);
}

}  // namespace graphgc::kernels
