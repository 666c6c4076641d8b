// Sparse tensors in models: Constant's sparse_value and a graph's sparse_initializer are the dense
// tensors they stand for (values at the indices, zero elsewhere); a malformed one is a status
// naming it, never a crash or a huge allocation.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "graphgc/graphgc.h"

namespace graphgc {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

onnx::TensorProto Int64s(const std::string& name, std::vector<int64_t> dims,
                         std::vector<int64_t> values) {
  onnx::TensorProto proto;
  proto.set_name(name);
  proto.set_data_type(onnx::TensorProto::INT64);
  for (int64_t d : dims) proto.add_dims(d);
  for (int64_t v : values) proto.add_int64_data(v);
  return proto;
}

onnx::SparseTensorProto Sparse(std::vector<int64_t> dims, std::vector<float> values,
                               onnx::TensorProto indices) {
  onnx::SparseTensorProto sparse;
  for (int64_t d : dims) sparse.add_dims(d);
  onnx::TensorProto* v = sparse.mutable_values();
  v->set_name("w");
  v->set_data_type(onnx::TensorProto::FLOAT);
  v->add_dims(static_cast<int64_t>(values.size()));
  for (float x : values) v->add_float_data(x);
  *sparse.mutable_indices() = std::move(indices);
  return sparse;
}

// y = Relu(Constant(sparse_value)), z = w (a sparse initializer) + 0.
onnx::ModelProto ModelWith(const onnx::SparseTensorProto& constant,
                           const onnx::SparseTensorProto& initializer) {
  onnx::ModelProto model;
  model.set_ir_version(8);
  model.add_opset_import()->set_version(17);
  onnx::GraphProto* graph = model.mutable_graph();
  graph->set_name("sparse");
  onnx::NodeProto* c = graph->add_node();
  c->set_op_type("Constant");
  c->add_output("c");
  onnx::AttributeProto* value = c->add_attribute();
  value->set_name("sparse_value");
  value->set_type(onnx::AttributeProto::SPARSE_TENSOR);
  *value->mutable_sparse_tensor() = constant;
  onnx::NodeProto* relu = graph->add_node();
  relu->set_op_type("Relu");
  relu->add_input("c");
  relu->add_output("y");
  onnx::NodeProto* neg = graph->add_node();
  neg->set_op_type("Neg");
  neg->add_input("w");
  neg->add_output("z");
  *graph->add_sparse_initializer() = initializer;
  const std::pair<const char*, const onnx::SparseTensorProto*> outputs[] = {{"y", &constant},
                                                                            {"z", &initializer}};
  for (const auto& [name, sparse] : outputs) {
    onnx::ValueInfoProto* output = graph->add_output();
    output->set_name(name);
    onnx::TypeProto::Tensor* type = output->mutable_type()->mutable_tensor_type();
    type->set_elem_type(onnx::TensorProto::FLOAT);
    for (int64_t d : sparse->dims()) type->mutable_shape()->add_dim()->set_dim_value(d);
  }
  return model;
}

std::vector<float> ValueOf(const Var& var) {
  const std::optional<Tensor> value = var.value();
  if (!value.has_value()) return {};
  return {value->data<float>().begin(), value->data<float>().end()};
}

TEST(SparseTensorTest, SparseConstantsAndInitializersAreTheirDenseTensors) {
  const onnx::SparseTensorProto linear = Sparse({4}, {5, -7}, Int64s("i", {2}, {1, 3}));
  const onnx::SparseTensorProto coordinates =
      Sparse({2, 2}, {2, 3}, Int64s("i", {2, 2}, {0, 1, 1, 0}));
  Graph g;
  auto outputs = inline_model(g, ModelWith(linear, coordinates));
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  EXPECT_THAT(ValueOf(outputs->at("y")), ElementsAre(0, 5, 0, 0));
  EXPECT_THAT(ValueOf(outputs->at("z")), ElementsAre(0, -2, -3, 0));
  EXPECT_EQ(outputs->at("z").shape(), (std::vector<int64_t>{2, 2}));

  // The fold writes them dense, and the model stays valid.
  auto folded = fold(ModelWith(linear, coordinates));
  ASSERT_TRUE(folded.ok()) << folded.status();
  EXPECT_EQ(folded->model.graph().sparse_initializer_size(), 0);
  EXPECT_EQ(folded->model.graph().node_size(), 0);
}

TEST(SparseTensorTest, AMalformedSparseTensorIsAStatusNamingIt) {
  const onnx::SparseTensorProto fine = Sparse({4}, {1}, Int64s("i", {1}, {0}));
  struct Case {
    onnx::SparseTensorProto sparse;
    const char* says;
  };
  const std::vector<Case> cases = {
      {Sparse({4}, {1}, Int64s("i", {1}, {4})), "outside [0, 4)"},
      {Sparse({4}, {1}, Int64s("i", {1}, {-1})), "outside [0, 4)"},
      {Sparse({2, 2}, {1}, Int64s("i", {1, 2}, {0, 2})), "outside dim 1"},
      {Sparse({4}, {1, 2}, Int64s("i", {2}, {3, 3})), "repeats an earlier index"},
      {Sparse({4}, {1, 2}, Int64s("i", {3}, {0, 1, 2})), "are neither [2] nor [2, 1]"},
      {Sparse({-4}, {1}, Int64s("i", {1}, {0})), "negative dim"},
      {Sparse({int64_t{1} << 40}, {1}, Int64s("i", {1}, {0})), "would take"},
      {Sparse({int64_t{1} << 31, int64_t{1} << 31}, {1}, Int64s("i", {1}, {0})),
       "too many elements"},
      {Sparse({int64_t{1} << 28, 8}, {1}, Int64s("i", {1}, {0})), "would take"},
  };
  for (const Case& c : cases) {
    Graph g;
    auto as_constant = inline_model(g, ModelWith(c.sparse, fine));
    ASSERT_FALSE(as_constant.ok()) << c.says;
    EXPECT_THAT(std::string(as_constant.status().message()), HasSubstr(c.says));
    EXPECT_THAT(as_constant.status().message(), HasSubstr("sparse_value"));
    auto as_initializer = inline_model(g, ModelWith(fine, c.sparse));
    ASSERT_FALSE(as_initializer.ok()) << c.says;
    EXPECT_THAT(as_initializer.status().message(), HasSubstr("sparse initializer 'w'"));
  }
}

}  // namespace
}  // namespace graphgc
