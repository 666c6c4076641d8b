// A check the export tests share: ONNX's own shape inference, run on an exported model, agrees
// with the types graphgc inferred for the outputs at construction.
#ifndef GRAPHGC_TESTS_ONNX_INFERENCE_CHECK_H_
#define GRAPHGC_TESTS_ONNX_INFERENCE_CHECK_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <exception>
#include <optional>
#include <vector>

#include "graphgc/graphgc.h"
#include "graphgc/tensor_proto.h"
#include "onnx/onnx_pb.h"
#include "onnx/shape_inference/implementation.h"

namespace graphgc::testing_support {

// What ONNX's own inference says of an output agrees with the var: the same element type, and,
// where both know them, the same rank and dims.
inline ::testing::AssertionResult InferredTypeAgrees(const onnx::TypeProto& inferred,
                                                     const graphgc::Var& var) {
  if (!inferred.has_tensor_type() || !var.type().is_tensor()) {  // sequences, optionals, maps
    absl::StatusOr<graphgc::VarType> type = graphgc::internal::FromTypeProto(inferred, "output");
    if (!type.ok()) return ::testing::AssertionFailure() << type.status();
    if (type->ToString() == var.type().ToString()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "ONNX infers " << type->ToString() << ", the var is "
                                         << var.type().ToString();
  }
  const onnx::TypeProto::Tensor& tensor = inferred.tensor_type();
  if (tensor.elem_type() != static_cast<int32_t>(var.dtype())) {
    return ::testing::AssertionFailure() << "ONNX infers elem_type " << tensor.elem_type()
                                         << ", the var has " << static_cast<int32_t>(var.dtype());
  }
  const std::optional<std::vector<int64_t>> shape = var.shape();
  if (!shape.has_value() || !tensor.has_shape()) return ::testing::AssertionSuccess();
  if (tensor.shape().dim_size() != static_cast<int>(shape->size())) {
    return ::testing::AssertionFailure()
           << "ONNX infers rank " << tensor.shape().dim_size() << ", the var has " << shape->size();
  }
  for (size_t i = 0; i < shape->size(); ++i) {
    const onnx::TensorShapeProto::Dimension& dim = tensor.shape().dim(static_cast<int>(i));
    if ((*shape)[i] >= 0 && dim.has_dim_value() && dim.dim_value() != (*shape)[i]) {
      return ::testing::AssertionFailure() << "ONNX infers " << dim.dim_value() << " for dimension "
                                           << i << ", the var has " << (*shape)[i];
    }
  }
  return ::testing::AssertionSuccess();
}

// Runs ONNX's strict shape inference twice: on the model as exported (graphgc's declared types must
// not contradict ONNX's), and with every output and intermediate type removed, comparing what ONNX
// infers for each output with the var exported under that name.
inline void ExpectOnnxInferenceAgrees(const onnx::ModelProto& model,
                                      const graphgc::NamedVars& outputs) {
  onnx::ShapeInferenceOptions strict;
  strict.check_type = true;
  strict.error_mode = 1;
  {
    onnx::ModelProto as_exported = model;
    try {
      onnx::shape_inference::InferShapes(as_exported, onnx::OpSchemaRegistry::Instance(), strict);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "ONNX shape inference rejects the exported types: " << e.what();
    }
  }
  onnx::ModelProto bare = model;
  bare.mutable_graph()->clear_value_info();
  for (onnx::ValueInfoProto& output : *bare.mutable_graph()->mutable_output()) {
    output.clear_type();
  }
  try {
    onnx::shape_inference::InferShapes(bare, onnx::OpSchemaRegistry::Instance(), strict);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "ONNX shape inference fails: " << e.what();
    return;
  }
  ASSERT_EQ(bare.graph().output_size(), static_cast<int>(outputs.size()));
  for (size_t i = 0; i < outputs.size(); ++i) {
    const onnx::ValueInfoProto& output = bare.graph().output(static_cast<int>(i));
    SCOPED_TRACE(output.name());
    EXPECT_EQ(output.name(), outputs[i].first);
    EXPECT_TRUE(InferredTypeAgrees(output.type(), outputs[i].second));
  }
}

}  // namespace graphgc::testing_support

#endif  // GRAPHGC_TESTS_ONNX_INFERENCE_CHECK_H_
