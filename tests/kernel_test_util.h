// Helpers the value tests share (kernels_*_test.cc, ops_propagation_test.cc): constants of any
// element type, 16-bit floats as doubles, and assertions on what an op gave.
#ifndef GRAPHGC_TESTS_KERNEL_TEST_UTIL_H_
#define GRAPHGC_TESTS_KERNEL_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "graphgc/graphgc.h"

namespace graphgc::kernel_test {

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

// The op succeeded and is typed, but computed no value.
inline ::testing::AssertionResult HasNoValue(const Var& var) {
  if (!var.ok()) return ::testing::AssertionFailure() << "the var failed: " << var.status();
  if (var.value().has_value()) return ::testing::AssertionFailure() << "the var has a value";
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
