// Random tensors, element types and attributes for the fuzz targets, decoded from a FuzzInput.
//
// Kept small on purpose (ranks up to 4, dims up to 4, a few extreme values): the fuzzers look for
// crashes, leaks and wrong bookkeeping, which small inputs reach as well as large ones, and fast.
#ifndef GRAPHGC_TESTS_FUZZ_FUZZ_VALUES_H_
#define GRAPHGC_TESTS_FUZZ_FUZZ_VALUES_H_

#include <string>
#include <vector>

#include "fuzz_input.h"
#include "graphgc/graphgc.h"
#include "onnx/defs/schema.h"

namespace graphgc::fuzz {

// Any element type the library supports.
DataType AnyDataType(FuzzInput& in);
// A shape of rank 0..4 with dims 0..4 (`unknown` allows -1).
std::vector<int64_t> SmallShape(FuzzInput& in, bool unknown);
// A tensor of `dtype` and a small shape; elements from the input (NaN, Inf and extremes included).
Tensor AnyTensor(FuzzInput& in, DataType dtype);
// The ai.onnx and ai.onnx.ml operators, newest version of each, deprecated ones left out; sorted
// by (domain, name) so that a byte always means the same op.
const std::vector<const onnx::OpSchema*>& Schemas();
// Attributes for `schema`: each of its attributes maybe given, mostly of the right type, sometimes
// of a wrong one or with an unknown name. Graph attributes get a body that passes its arguments
// through (or a random op of them).
std::vector<Attribute> AnyAttributes(FuzzInput& in, const onnx::OpSchema& schema);

// The export refusals that are the documented limits of a valid model, not bugs: a graph input or
// output of unknown rank (ONNX 1.12's checker wants a shape there), and ops pinned to opsets at
// which one op is defined differently (one model has one opset per domain).
bool IsKnownExportLimit(const absl::Status& status);

}  // namespace graphgc::fuzz

#endif  // GRAPHGC_TESTS_FUZZ_FUZZ_VALUES_H_
