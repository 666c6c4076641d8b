// OneHotEncoder: each element becomes a row of float zeros with a one at its category's position
// in cats_strings (string input) or cats_int64s (numbers, truncated to int64 as ONNX Runtime
// does). The output shape is X's shape followed by the category count: the length of whichever
// list was given, as ONNX's inference and ONNX Runtime count it even when that list is of the other
// type than X (numbers against cats_strings: no element is a category). An element outside the
// categories gives a row of zeros, or fails the op when zeros = 0.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/ml/ml_common.h"
#include "graphgc/opset/kernels/ml/ml_kernels.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

template <class K>
absl::flat_hash_map<K, int64_t> CategoryIndex(const std::vector<K>& categories) {
  absl::flat_hash_map<K, int64_t> index;
  for (size_t i = 0; i < categories.size(); ++i) index[categories[i]] = static_cast<int64_t>(i);
  return index;
}

// Fills the one-hot rows of `keys` (one key per element; nullopt: a key with no int64 value).
template <class K, class KeyOf>
KernelResult Encode(const KernelContext& ctx, const std::vector<K>& categories, KeyOf key_of) {
  const Tensor& x = ctx.input(0);
  const absl::flat_hash_map<K, int64_t> index = CategoryIndex(categories);
  const int64_t count = static_cast<int64_t>(std::max(
      ml::IntsOrEmpty(ctx, "cats_int64s").size(), ml::StringsOrEmpty(ctx, "cats_strings").size()));
  const bool zeros = ctx.int_attribute("zeros", 1) != 0;
  Shape shape(x.shape().begin(), x.shape().end());
  shape.push_back(count);
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(DataType::kFloat, shape));
  auto y = out.mutable_data<float>();
  std::fill(y.begin(), y.end(), 0.0f);
  for (int64_t i = 0; i < x.size(); ++i) {
    const std::optional<K> key = key_of(i);
    if (!key.has_value()) return Decline("a number with no int64 value (NaN or out of range)");
    const auto found = index.find(*key);
    if (found != index.end()) {
      y[static_cast<size_t>(i * count + found->second)] = 1.0f;
    } else if (!zeros) {
      return ctx.input_error(0, absl::StrCat("element ", i, " is not a category and zeros = 0"));
    }
  }
  return KernelOutputs{std::move(out).freeze()};
}

KernelResult OneHotEncoderKernel(const KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.dtype() == DataType::kString) {
    const auto data = x.data<std::string>();
    return Encode<std::string>(ctx, ml::StringsOrEmpty(ctx, "cats_strings"),
                               [&](int64_t i) { return std::optional<std::string>(data[i]); });
  }
  std::optional<KernelResult> result;
  ml::MlNumbers::Dispatch(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const auto data = x.data<T>();
    result = Encode<int64_t>(ctx, ml::IntsOrEmpty(ctx, "cats_int64s"),
                             [&](int64_t i) -> std::optional<int64_t> {
                               const T v = data[static_cast<size_t>(i)];
                               if constexpr (std::is_floating_point_v<T>) {
                                 // The truncation is defined only inside int64's range.
                                 if (!(std::abs(v) < 9.2e18)) return std::nullopt;
                               }
                               return static_cast<int64_t>(v);
                             });
  });
  if (!result.has_value()) return Decline("OneHotEncoder of this element type");
  return *std::move(result);
}

}  // namespace

void RegisterOneHotEncoderKernels(KernelTable& table) {
  table.add(kMlDomain, "OneHotEncoder", 1, KernelTable::kLatest,
            {{"T", ml::MlNumbers::kSet | DataTypeSet{DataType::kString}}}, OneHotEncoderKernel);
}

}  // namespace graphgc::kernels
