// Helpers of the value tests of the signal, normalization and detection families: a node at a
// given opset, and an assertion on a var's element type, shape and values (within a tolerance).
#ifndef GRAPHGC_TESTS_KERNELS_NN_TEST_UTIL_H_
#define GRAPHGC_TESTS_KERNELS_NN_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "graphgc/graphgc.h"
#include "kernel_test_util.h"

namespace graphgc::kernel_test {

// One node of `op_type` at opset `version`, with `num_outputs` outputs (-1: the required ones).
inline std::vector<Var> NodeAt(absl::string_view op_type, const std::vector<Var>& inputs,
                               const std::vector<Attribute>& attributes, int version,
                               int num_outputs = -1) {
  return make_node(op_type, inputs, attributes, {.version = version, .num_outputs = num_outputs});
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

// The var has element type T, shape `shape` and values within `tolerance` (relative, and as much
// absolute) of `expected`; NaN matches NaN.
template <class T>
::testing::AssertionResult HasValues(const Var& var, const std::vector<double>& expected,
                                     const std::vector<int64_t>& shape, double tolerance = 1e-6) {
  if (!var.ok()) return ::testing::AssertionFailure() << "the var failed: " << var.status();
  if (var.dtype() != DataTypeOf<T>::value) {
    return ::testing::AssertionFailure() << "element type " << DataTypeName(var.dtype());
  }
  const std::optional<Tensor> value = var.value();
  if (!value.has_value()) return ::testing::AssertionFailure() << "the var has no value";
  const std::vector<int64_t> value_shape(value->shape().begin(), value->shape().end());
  if (value_shape != shape) {
    return ::testing::AssertionFailure() << "shape [" << absl::StrJoin(value_shape, ",") << "]";
  }
  const auto actual = value->data<T>();
  if (actual.size() != expected.size()) {
    return ::testing::AssertionFailure() << actual.size() << " elements";
  }
  for (size_t i = 0; i < expected.size(); ++i) {
    const double got = ToDouble(actual[i]);
    const double want = expected[i];
    const bool same = (std::isnan(got) && std::isnan(want)) || got == want ||
                      std::abs(got - want) <= tolerance * (1 + std::abs(want));
    if (!same) {
      return ::testing::AssertionFailure() << "element " << i << " is " << got << ", not " << want;
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace graphgc::kernel_test

#endif  // GRAPHGC_TESTS_KERNELS_NN_TEST_UTIL_H_
