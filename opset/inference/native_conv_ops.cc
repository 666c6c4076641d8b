// Native inference of Conv (11, 22): ONNX 1.19's convPoolShapeInference for a convolution
// (dilations, weights' kernel, no ceil_mode), after graphgc's guards (X of rank 3 or more, W of
// X's rank) and widening (long spatial dims under auto_pad read as unknown) have applied.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "graphgc/opset/inference/native_inference.h"
#include "graphgc/opset/inference/native_rule_support.h"

namespace graphgc::internal {
namespace {

const std::vector<int64_t>* IntsAttribute(absl::Span<const Attribute> attributes,
                                          absl::string_view name) {
  for (const Attribute& attribute : attributes) {
    if (attribute.name == name) return std::get_if<std::vector<int64_t>>(&attribute.value);
  }
  return nullptr;
}

const std::string* StringAttribute(absl::Span<const Attribute> attributes, absl::string_view name) {
  for (const Attribute& attribute : attributes) {
    if (attribute.name == name) return std::get_if<std::string>(&attribute.value);
  }
  return nullptr;
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
    if (pads->size() != 2 * n) return ShapeInferenceError("Attribute pads has incorrect size");
    if (std::any_of(pads->begin(), pads->end(), [](int64_t p) { return p < 0; })) {
      return ShapeInferenceError("Attribute pads must not contain negative values");
    }
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

absl::StatusOr<std::optional<Shape>> ConvShape(absl::Span<const OperandInfo> inputs,
                                               absl::Span<const Attribute> attributes) {
  if (!inputs[0].shape.has_value() || !inputs[1].shape.has_value()) return std::nullopt;
  const Shape& x = *inputs[0].shape;
  const Shape& w = *inputs[1].shape;
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
  if (w.empty()) return ShapeInferenceError("Second input tensor has wrong dimension");
  Shape out = {x[0], w[0]};
  for (size_t i = 0; i < n; ++i) {
    if (x[2 + i] == kUnknownDim) {
      out.push_back(kUnknownDim);
      continue;
    }
    const int64_t padded = Add(Add(x[2 + i], (*pads)[i]), (*pads)[i + n]);
    const int64_t size = Add(Sub(padded, effective[i]) / (*strides)[i], 1);
    out.push_back(size < 0 ? kUnknownDim : size);  // a negative dim reads as unknown
  }
  return std::optional<Shape>(std::move(out));
}

}  // namespace

absl::StatusOr<OutputTypes> InferConv11(absl::Span<const OperandInfo> inputs,
                                        absl::Span<const Attribute> attributes) {
  absl::StatusOr<std::optional<Shape>> shape = ConvShape(inputs, attributes);
  if (!shape.ok()) return shape.status();
  return OneOutput(inputs[0].dtype, *std::move(shape), std::nullopt);
}

}  // namespace graphgc::internal
