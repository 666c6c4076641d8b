// Tensors as text and as raw bytes, for the differential test's reports and its exchange with
// ONNX Runtime (tests/difftest/ort_batch.js), and the comparison of two tensors.
#ifndef GRAPHGC_TESTS_DIFFTEST_TENSOR_TEXT_H_
#define GRAPHGC_TESTS_DIFFTEST_TENSOR_TEXT_H_

#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "graphgc/graphgc.h"

namespace difftest {

// "float[2,3] {1, 2.5, ...}" (at most 16 values).
std::string TensorText(const graphgc::Tensor& tensor);

// Raw little-endian bytes (bools one byte each, 16-bit floats as bits).
std::string RawBytes(const graphgc::Tensor& tensor);
// The tensor of ONNX type name `type` ("float", "int64", ...) and `dims` from raw bytes.
std::optional<graphgc::Tensor> FromRawBytes(const std::string& type,
                                            const std::vector<int64_t>& dims,
                                            const std::string& bytes);

// "" when `got` (graphgc) matches `ort` (the oracle's, named `oracle` in the difference), else
// the first difference. Floating point within a relative tolerance of the type's precision (and
// an absolute one of at least `min_atol`), NaN only equal to NaN; others exactly.
std::string CompareTensors(const graphgc::Tensor& got, const graphgc::Tensor& ort,
                           double min_atol = 0, absl::string_view oracle = "ONNX Runtime");

}  // namespace difftest

#endif  // GRAPHGC_TESTS_DIFFTEST_TENSOR_TEXT_H_
