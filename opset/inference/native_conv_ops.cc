// Native inference of Conv (11, 22), MaxPool (12, 22) and AveragePool (19, 22): ONNX 1.19's
// convPoolShapeInference — a convolution's kernel from W's dims, a pool's from kernel_shape with
// ceil_mode — after graphgc's guards (X of rank 3 or more, W of X's rank) and widening (long
// spatial dims under auto_pad read as unknown) have applied.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "graphgc/opset/inference/native_inference.h"
#include "graphgc/opset/inference/native_rule_support.h"

namespace graphgc::internal {
namespace {

const std::string* StringAttribute(absl::Span<const Attribute> attributes, absl::string_view name) {
  return AttributeOf<std::string>(attributes, name);
}

// Wrapping arithmetic: ONNX 1.19 computes these in plain int64 (what it does past the range is
// what two's complement gives).
int64_t Add(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
int64_t Sub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
int64_t Mul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

// A per-spatial-axis list attribute, or `fallback` of n entries when absent.
absl::StatusOr<std::vector<int64_t>> SpatialList(absl::Span<const Attribute> attributes,
                                                 absl::string_view name, size_t n,
                                                 int64_t fallback) {
  const std::vector<int64_t>* given = IntsAttribute(attributes, name);
  if (given == nullptr) return std::vector<int64_t>(n, fallback);
  if (given->size() != n) return ShapeInferenceError("Attribute ", name, " has incorrect size");
  if (std::any_of(given->begin(), given->end(), [](int64_t v) { return v <= 0; })) {
    return ShapeInferenceError("Attribute ", name, " must only contain positive values");
  }
  return *given;
}

// The pads, explicit or from auto_pad (SAME_UPPER, SAME_LOWER), for input dims `x`.
absl::StatusOr<std::vector<int64_t>> Pads(absl::Span<const Attribute> attributes, const Shape& x,
                                          const std::vector<int64_t>& strides,
                                          const std::vector<int64_t>& effective_kernel) {
  const size_t n = strides.size();
  if (const std::vector<int64_t>* pads = IntsAttribute(attributes, "pads")) {
    // ONNX 1.19 takes negative pads here (later versions refuse them).
    if (pads->size() != 2 * n) return ShapeInferenceError("Attribute pads has incorrect size");
    return *pads;
  }
  std::vector<int64_t> pads(2 * n, 0);
  const std::string* auto_pad = StringAttribute(attributes, "auto_pad");
  if (auto_pad == nullptr || *auto_pad == "VALID") return pads;
  for (size_t i = 0; i < n; ++i) {
    int64_t residual = 0;
    const int64_t stride = strides[i];
    if (stride > 1) {
      if (x[2 + i] == kUnknownDim) continue;
      residual = x[2 + i] % stride;
    }
    int64_t total =
        residual == 0 ? Sub(effective_kernel[i], stride) : Sub(effective_kernel[i], residual);
    total = std::max<int64_t>(total, 0);
    const int64_t small = total >> 1;
    const int64_t big = total - small;
    if (*auto_pad == "SAME_UPPER") {
      pads[i] = small;
      pads[i + n] = big;
    } else if (*auto_pad == "SAME_LOWER") {
      pads[i] = big;
      pads[i + n] = small;
    }
  }
  return pads;
}

// Which of ONNX 1.19's two convPoolShapeInference functions: the one of the schemas up to opset 19
// (old.cc's, ceil_mode through a float division) or the current one.
enum class PoolForm { kOpset19, kCurrent };

// How many strides the window moves past its first position, as the opset-19 function counts:
// ceil_mode 1 rounds the float quotient up.
int64_t Positions19(int64_t numerator, int64_t stride, int64_t ceil_mode) {
  if (ceil_mode != 1) return numerator / stride;
  const float positions = std::ceil(static_cast<float>(numerator) / static_cast<float>(stride));
  // Out of int64's range the conversion gives what x86's does (ONNX's is undefined there).
  constexpr float kLimit = 9.2233720368547758e18f;  // 2^63
  if (!(positions >= -kLimit && positions < kLimit)) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(positions);
}

// The same, as the current function counts: any nonzero ceil_mode rounds up, and with ceil_mode
// 1 a last window that would start in the end padding is dropped (PyTorch's rule).
int64_t Positions(int64_t numerator, int64_t stride, int64_t ceil_mode, int64_t padded_start) {
  if (ceil_mode != 0) numerator = Add(numerator, Sub(stride, 1));
  int64_t positions = numerator / stride;
  if (ceil_mode == 1 && Mul(positions, stride) >= padded_start) positions = Sub(positions, 1);
  return positions;
}

// The output shape; `pool`: the kernel is kernel_shape (required), the channels X's, and
// ceil_mode applies; otherwise the kernel is W's (input 1) spatial dims and the channels W's dim 0.
absl::StatusOr<std::optional<Shape>> ConvPoolShape(absl::Span<const OperandInfo> inputs,
                                                   absl::Span<const Attribute> attributes,
                                                   bool pool, PoolForm form) {
  if (!inputs[0].shape.has_value()) return std::nullopt;
  if (!pool && !inputs[1].shape.has_value()) return std::nullopt;
  const Shape& x = *inputs[0].shape;
  const Shape no_weights;
  const Shape& w = pool ? no_weights : *inputs[1].shape;
  if (x.size() < 3) return ShapeInferenceError("Input tensor must have at least 3 dimensions");
  const size_t n = x.size() - 2;
  absl::StatusOr<std::vector<int64_t>> dilations = SpatialList(attributes, "dilations", n, 1);
  if (!dilations.ok()) return dilations.status();
  absl::StatusOr<std::vector<int64_t>> strides = SpatialList(attributes, "strides", n, 1);
  if (!strides.ok()) return strides.status();
  std::vector<int64_t> kernel;
  if (const std::vector<int64_t>* given = IntsAttribute(attributes, "kernel_shape")) {
    if (given->size() != n) return ShapeInferenceError("Attribute kernel_shape has incorrect size");
    kernel = *given;
  } else if (pool) {
    return ShapeInferenceError("Attribute kernel_shape must be specified");
  } else {
    for (size_t i = 2; i < w.size(); ++i) {
      if (w[i] == kUnknownDim) return std::nullopt;
      kernel.push_back(w[i]);
    }
    if (kernel.size() != n) {
      return ShapeInferenceError("Number of spatial dimensions in the weight tensor (",
                                 kernel.size(),
                                 ") does not match the number of spatial dimensions in the input "
                                 "tensor (",
                                 n, ").");
    }
  }
  if (std::any_of(kernel.begin(), kernel.end(), [](int64_t k) { return k <= 0; })) {
    return ShapeInferenceError("Attribute kernel_shape must only contain positive values");
  }
  std::vector<int64_t> effective(n);
  for (size_t i = 0; i < n; ++i) effective[i] = Add(Mul(Sub(kernel[i], 1), (*dilations)[i]), 1);
  absl::StatusOr<std::vector<int64_t>> pads = Pads(attributes, x, *strides, effective);
  if (!pads.ok()) return pads.status();
  if (!pool && w.empty()) return ShapeInferenceError("Second input tensor has wrong dimension");
  Shape out = {x[0], pool ? x[1] : w[0]};
  const int64_t ceil_mode = pool ? IntAttribute(attributes, "ceil_mode").value_or(0) : 0;
  for (size_t i = 0; i < n; ++i) {
    if (x[2 + i] == kUnknownDim) {
      out.push_back(kUnknownDim);
      continue;
    }
    const int64_t stride = (*strides)[i];
    const int64_t numerator = Sub(Add(Add(x[2 + i], (*pads)[i]), (*pads)[i + n]), effective[i]);
    const int64_t size = Add(form == PoolForm::kOpset19 ? Positions19(numerator, stride, ceil_mode)
                                                        : Positions(numerator, stride, ceil_mode,
                                                                    Add(x[2 + i], (*pads)[i])),
                             1);
    out.push_back(size < 0 ? kUnknownDim : size);  // a negative dim reads as unknown
  }
  return std::optional<Shape>(std::move(out));
}

// A pool's outputs: Y, and MaxPool's Indices (int64, Y's shape) when asked for.
absl::StatusOr<OutputTypes> PoolOutputs(absl::Span<const OperandInfo> inputs,
                                        absl::Span<const Attribute> attributes, int num_outputs,
                                        PoolForm form) {
  absl::StatusOr<std::optional<Shape>> shape =
      ConvPoolShape(inputs, attributes, /*pool=*/true, form);
  if (!shape.ok()) return shape.status();
  OutputTypes types = OneOutput(inputs[0].dtype, *shape, std::nullopt);
  if (num_outputs > 1) {  // MaxPool's Indices: int64, Y's shape
    types.resize(static_cast<size_t>(num_outputs));
    types[1].dtype = DataType::kInt64;
    types[1].shape = *std::move(shape);
  }
  return types;
}

}  // namespace

absl::StatusOr<OutputTypes> InferConv11(absl::Span<const OperandInfo> inputs,
                                        absl::Span<const Attribute> attributes, int num_outputs) {
  absl::StatusOr<std::optional<Shape>> shape =
      ConvPoolShape(inputs, attributes, /*pool=*/false, PoolForm::kCurrent);
  if (!shape.ok()) return shape.status();
  return OneOutput(inputs[0].dtype, *std::move(shape), std::nullopt);
}

absl::StatusOr<OutputTypes> InferPool19(absl::Span<const OperandInfo> inputs,
                                        absl::Span<const Attribute> attributes, int num_outputs) {
  return PoolOutputs(inputs, attributes, num_outputs, PoolForm::kOpset19);
}

absl::StatusOr<OutputTypes> InferPool22(absl::Span<const OperandInfo> inputs,
                                        absl::Span<const Attribute> attributes, int num_outputs) {
  return PoolOutputs(inputs, attributes, num_outputs, PoolForm::kCurrent);
}

}  // namespace graphgc::internal
