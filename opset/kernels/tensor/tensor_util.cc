#include "graphgc/opset/kernels/tensor/tensor_util.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graphgc/valuestore/check.h"

namespace graphgc::kernels {

int64_t Product(absl::Span<const int64_t> dims) {
  int64_t product = 1;
  for (int64_t d : dims) product *= d;
  return product;
}

Shape ContiguousStrides(absl::Span<const int64_t> dims) {
  Shape strides(dims.size(), 1);
  int64_t stride = 1;
  for (size_t i = dims.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= dims[i];
  }
  return strides;
}

void CopyElements(const Tensor& from, int64_t from_index, MutableTensor& to, int64_t to_index,
                  int64_t count) {
  if (count <= 0) return;
  DispatchByElementSize(from.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::copy_n(ElementsOf<T>(from) + from_index, count, MutableElementsOf<T>(to) + to_index);
  });
}

absl::StatusOr<int64_t> NormalizeAxis(const KernelContext& ctx, absl::string_view attribute,
                                      int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank) {
    return absl::InvalidArgumentError(absl::StrCat("attribute '", attribute, "' is ", axis,
                                                   ", outside [", -rank, ", ", rank, ")"));
  }
  return axis < 0 ? axis + rank : axis;
}

absl::StatusOr<size_t> ChooseAttribute(const KernelContext& ctx, absl::string_view name,
                                       absl::string_view fallback,
                                       absl::Span<const absl::string_view> choices) {
  const std::string value = ctx.string_attribute(name, fallback);
  for (size_t i = 0; i < choices.size(); ++i) {
    if (choices[i] == value) return i;
  }
  return absl::InvalidArgumentError(absl::StrCat("attribute '", name, "' is \"", value,
                                                 "\", not one of ", absl::StrJoin(choices, ", ")));
}

std::optional<size_t> RepeatedAxis(absl::Span<const int64_t> axes, int64_t rank) {
  std::vector<bool> seen(static_cast<size_t>(rank), false);
  for (size_t i = 0; i < axes.size(); ++i) {
    if (seen[static_cast<size_t>(axes[i])]) return i;
    seen[static_cast<size_t>(axes[i])] = true;
  }
  return std::nullopt;
}

std::vector<int64_t> ReadInt64s(const Tensor& tensor) {
  if (tensor.dtype() == DataType::kInt64) {
    auto data = tensor.data<int64_t>();
    return std::vector<int64_t>(data.begin(), data.end());
  }
  auto data = tensor.data<int32_t>();
  return std::vector<int64_t>(data.begin(), data.end());
}

absl::StatusOr<int64_t> CheckIndex(const KernelContext& ctx, int input, int64_t index,
                                   int64_t extent) {
  if (index < -extent || index >= extent) {
    return ctx.input_error(
        input, absl::StrCat("index ", index, " is out of range for a dimension of ", extent));
  }
  return index < 0 ? index + extent : index;
}

absl::StatusOr<std::vector<int64_t>> ReadIndices(const KernelContext& ctx, int input,
                                                 const Tensor& indices, int64_t extent) {
  std::vector<int64_t> values = ReadInt64s(indices);
  for (int64_t& index : values) {
    if (index < -extent || index >= extent) return CheckIndex(ctx, input, index, extent).status();
    if (index < 0) index += extent;
  }
  return values;
}

absl::StatusOr<Shape> ReadDims(const KernelContext& ctx, int input) {
  const std::vector<int64_t> values = ReadInt64s(ctx.input(input));
  for (int64_t value : values) {
    if (value < 0) {
      return ctx.input_error(input, absl::StrCat("holds the negative dimension ", value));
    }
  }
  return Shape(values.begin(), values.end());
}

// Every caller checks the element count first, and the op's type constraints, checked by inference
// before any kernel runs, make the element numeric or bool.
double ScalarAsDouble(const Tensor& tensor) {
  GRAPHGC_CHECK(tensor.size() == 1, "ScalarAsDouble of a tensor without exactly one element");
  double value = 0;
  const bool numeric = internal::DispatchNumericOrBool(tensor.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    value = static_cast<double>(internal::Load<T>(tensor.data<T>()[0]));
  });
  GRAPHGC_CHECK(numeric, "ScalarAsDouble of a non-numeric tensor");
  return value;
}

}  // namespace graphgc::kernels
