// A check the export tests share: ONNX's own shape inference, run on an exported model, agrees
// with the types graphgc inferred for the outputs at construction. Stricter than the conformance
// runs' onnx_conformance::CheckOnnxInference, on which it is built: ONNX must infer a type for
// every output, and the outputs keep their names.
#ifndef GRAPHGC_TESTS_ONNX_INFERENCE_CHECK_H_
#define GRAPHGC_TESTS_ONNX_INFERENCE_CHECK_H_

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "graphgc/graphgc.h"
#include "onnx/onnx_pb.h"
#include "onnx_conformance_util.h"

namespace graphgc::testing_support {

// Whether ONNX inferred a type at all (an element type, for a tensor).
inline bool OnnxInfersAType(const onnx::TypeProto& type) {
  if (type.value_case() == onnx::TypeProto::VALUE_NOT_SET) return false;
  return !type.has_tensor_type() || type.tensor_type().elem_type() != 0;
}

// ONNX's strict shape inference on the model as exported (graphgc's declared types must not
// contradict ONNX's), and with every output and intermediate type removed: ONNX infers a type for
// each output, and it agrees with the var exported under that name.
inline void ExpectOnnxInferenceAgrees(const onnx::ModelProto& model,
                                      const graphgc::NamedVars& outputs) {
  onnx::ModelProto inferred;
  const std::vector<std::string> errors =
      onnx_conformance::CheckOnnxInference(model, outputs, {}, &inferred);
  ASSERT_TRUE(errors.empty()) << absl::StrJoin(errors, "\n");
  for (size_t i = 0; i < outputs.size(); ++i) {
    const onnx::ValueInfoProto& output = inferred.graph().output(static_cast<int>(i));
    SCOPED_TRACE(output.name());
    EXPECT_EQ(output.name(), outputs[i].first);
    EXPECT_TRUE(OnnxInfersAType(output.type())) << "ONNX infers no type";
  }
}

}  // namespace graphgc::testing_support

#endif  // GRAPHGC_TESTS_ONNX_INFERENCE_CHECK_H_
