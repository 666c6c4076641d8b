// Helpers the value tests share (kernels_*_test.cc, ops_propagation_test.cc): constants of any
// element type, values of any element type from doubles and back, nodes at a given opset, and
// assertions on what an op gave.
#ifndef GRAPHGC_TESTS_KERNEL_TEST_UTIL_H_
#define GRAPHGC_TESTS_KERNEL_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "graphgc/graphgc.h"
#include "graphgc/opset/generated/opset17.h"

namespace graphgc::kernel_test {

// The names every value test uses, brought in by its `using namespace graphgc::kernel_test;`.
namespace gg = ::graphgc;
// `op` is opset 17, the newest opset whose every op version has its kernel here (later versions
// are tested by name where they have kernels; opset/kernels/kernel_table.h, kLastKnownOpset),
// with the hand-written ops of graphgc/opset/build/ops.h and their own signatures.
inline constexpr int kKernelOpset = 17;   // op's, and make_node's in the value tests
inline constexpr int kKernelMlOpset = 3;  // ai.onnx.ml's newest with every kernel
namespace op {
using namespace ::graphgc::opset17;  // NOLINT(build/namespaces)
using ::graphgc::op::Add;
using ::graphgc::op::Cast;
using ::graphgc::op::Constant;
using ::graphgc::op::Div;
using ::graphgc::op::Identity;
using ::graphgc::op::MatMul;
using ::graphgc::op::Mul;
using ::graphgc::op::Neg;
using ::graphgc::op::Relu;
using ::graphgc::op::Reshape;
using ::graphgc::op::Sub;
}  // namespace op
using ::graphgc::Attribute;
using ::graphgc::BFloat16;
using ::graphgc::DataType;
using ::graphgc::Float16;
using ::graphgc::Graph;
using ::graphgc::Tensor;
using ::graphgc::Var;
using Dims = std::vector<int64_t>;

template <class T>
inline constexpr bool kIsHalf = std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>;

template <class T>
double ToDouble(T v) {
  if constexpr (kIsHalf<T>) {
    return v.ToFloat();
  } else {
    return static_cast<double>(v);
  }
}

// A value of T from a double (16-bit floats rounded to nearest).
template <class T>
T FromDouble(double v) {
  if constexpr (kIsHalf<T>) {
    return T::FromDouble(v);
  } else {
    return static_cast<T>(v);
  }
}

template <class T>
std::vector<T> ValuesOf(const std::vector<double>& values) {
  std::vector<T> out;
  for (double v : values) out.push_back(FromDouble<T>(v));
  return out;
}

inline constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
inline constexpr float kInf = std::numeric_limits<float>::infinity();

// The floating-point element types (each test skips those its op's schema does not allow).
using FloatElementTypes = ::testing::Types<float, double, Float16, BFloat16>;

template <class T>
Var Const(Graph& g, std::vector<T> values, const std::vector<int64_t>& shape) {
  return g.constant(Tensor::from_vector<T>(std::move(values), shape));
}

template <class T>
Var Scalar(Graph& g, T value) {
  return g.constant(Tensor::scalar<T>(std::move(value)));
}

// A 1-D int64 constant (axes, shapes, repeats).
inline Var Int64s(Graph& g, const std::vector<int64_t>& values) {
  return Const<int64_t>(g, values, {static_cast<int64_t>(values.size())});
}

// The op was refused, with a status naming `type` (an element type its schema does not take).
inline ::testing::AssertionResult IsRefusedFor(const Var& var, absl::string_view type) {
  if (var.ok()) return ::testing::AssertionFailure() << "the op was made";
  if (!absl::StrContains(var.status().message(), type)) {
    return ::testing::AssertionFailure()
           << "the status does not name " << type << ": " << var.status();
  }
  return ::testing::AssertionSuccess();
}

// The op succeeded and is typed, but computed no value.
inline ::testing::AssertionResult HasNoValue(const Var& var) {
  if (!var.ok()) return ::testing::AssertionFailure() << "the var failed: " << var.status();
  if (var.value().has_value()) return ::testing::AssertionFailure() << "the var has a value";
  return ::testing::AssertionSuccess();
}

// One node of `op_type` at opset `version`, with `num_outputs` outputs (-1: the required ones).
inline std::vector<Var> NodeAt(absl::string_view op_type, const std::vector<Var>& inputs,
                               const std::vector<Attribute>& attributes, int version,
                               int num_outputs = -1) {
  return make_node(op_type, inputs, attributes, {.version = version, .num_outputs = num_outputs});
}

// The var has a value of element type T and shape `shape`; what its elements are is left to
// the caller.
template <class T>
::testing::AssertionResult HasValueOfShape(const Var& var, const std::vector<int64_t>& shape) {
  if (!var.ok()) return ::testing::AssertionFailure() << "the var failed: " << var.status();
  const std::optional<Tensor> value = var.value();
  if (!value.has_value()) return ::testing::AssertionFailure() << "the var has no value";
  if (value->dtype() != DataTypeOf<T>::value) {
    return ::testing::AssertionFailure() << "element type " << DataTypeName(value->dtype());
  }
  const std::vector<int64_t> value_shape(value->shape().begin(), value->shape().end());
  if (value_shape != shape) {
    return ::testing::AssertionFailure() << "shape [" << absl::StrJoin(value_shape, ",")
                                         << "], expected [" << absl::StrJoin(shape, ",") << "]";
  }
  return ::testing::AssertionSuccess();
}

// The var has element type T, shape `shape` and values within `tolerance` (relative, and as much
// absolute) of `expected`; NaN matches NaN, an infinity only the same infinity.
template <class T>
::testing::AssertionResult HasValues(const Var& var, const std::vector<double>& expected,
                                     const std::vector<int64_t>& shape, double tolerance = 1e-6) {
  if (::testing::AssertionResult typed = HasValueOfShape<T>(var, shape); !typed) return typed;
  const std::optional<Tensor> value = var.value();
  const auto actual = value->template data<T>();
  if (actual.size() != expected.size()) {
    return ::testing::AssertionFailure() << actual.size() << " elements";
  }
  for (size_t i = 0; i < expected.size(); ++i) {
    const double got = ToDouble(actual[i]);
    const double want = expected[i];
    const bool same =
        (std::isnan(got) && std::isnan(want)) || got == want ||
        (std::isfinite(want) && std::abs(got - want) <= tolerance * (1 + std::abs(want)));
    if (!same) {
      return ::testing::AssertionFailure()
             << "element " << i << " is " << got << ", expected " << want;
    }
  }
  return ::testing::AssertionSuccess();
}

// The op failed with a status whose message holds each of `parts`.
inline ::testing::AssertionResult FailsWith(const Var& var,
                                            std::initializer_list<std::string> parts) {
  if (var.ok()) return ::testing::AssertionFailure() << "the op succeeded";
  for (const std::string& part : parts) {
    if (std::string(var.status().message()).find(part) == std::string::npos) {
      return ::testing::AssertionFailure() << "'" << part << "' is not in: " << var.status();
    }
  }
  return ::testing::AssertionSuccess();
}

// The first output of a multi-output constructor.
inline Var One(const std::vector<Var>& outputs) { return outputs.at(0); }

}  // namespace graphgc::kernel_test

#endif  // GRAPHGC_TESTS_KERNEL_TEST_UTIL_H_
