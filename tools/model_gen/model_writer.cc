#include "model_writer.h"

#include <bit>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>

#include "onnx/checker.h"

namespace fold_models {

static_assert(std::endian::native == std::endian::little,
              "raw_data is little-endian; this writer copies host floats as they are");

uint64_t WeightSource::NextBits() {
  state_ += 0x9e3779b97f4a7c15ULL;
  uint64_t z = state_;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

float WeightSource::Uniform(float low, float high) {
  // The top 24 bits: every such fraction is exact in a float.
  const float unit = static_cast<float>(NextBits() >> 40) * (1.0f / 16777216.0f);
  return low + (high - low) * unit;
}

namespace {

void SetShape(onnx::ValueInfoProto& info, onnx::TensorProto::DataType type,
              const std::vector<Dim>& dims) {
  onnx::TypeProto::Tensor& tensor = *info.mutable_type()->mutable_tensor_type();
  tensor.set_elem_type(type);
  onnx::TensorShapeProto& shape = *tensor.mutable_shape();
  for (const Dim& dim : dims) {
    onnx::TensorShapeProto::Dimension& out = *shape.add_dim();
    if (const int64_t* size = std::get_if<int64_t>(&dim)) {
      out.set_dim_value(*size);
    } else {
      out.set_dim_param(std::get<std::string>(dim));
    }
  }
}

onnx::AttributeProto& AddAttribute(onnx::NodeProto& node, const std::string& name,
                                   onnx::AttributeProto::AttributeType type) {
  onnx::AttributeProto& attribute = *node.add_attribute();
  attribute.set_name(name);
  attribute.set_type(type);
  return attribute;
}

}  // namespace

ModelWriter::ModelWriter(std::string_view graph_name, uint64_t seed) : weights_(seed) {
  model_.set_ir_version(kIrVersion);
  model_.set_producer_name("graphgc make_fold_models");
  onnx::OperatorSetIdProto& opset = *model_.add_opset_import();
  opset.set_domain("");
  opset.set_version(kOpsetVersion);
  graph().set_name(std::string(graph_name));
}

void ModelWriter::AddInput(const std::string& name, onnx::TensorProto::DataType type,
                           const std::vector<Dim>& dims) {
  onnx::ValueInfoProto& input = *graph().add_input();
  input.set_name(name);
  SetShape(input, type, dims);
}

void ModelWriter::AddOutput(const std::string& name, onnx::TensorProto::DataType type,
                            const std::vector<Dim>& dims) {
  onnx::ValueInfoProto& output = *graph().add_output();
  output.set_name(name);
  SetShape(output, type, dims);
}

onnx::TensorProto* ModelWriter::AddInitializer(const std::string& name,
                                               onnx::TensorProto::DataType type,
                                               const std::vector<int64_t>& dims) {
  onnx::TensorProto* tensor = graph().add_initializer();
  tensor->set_name(name);
  tensor->set_data_type(type);
  for (int64_t dim : dims) tensor->add_dims(dim);
  return tensor;
}

std::string ModelWriter::AddFloats(const std::string& name, const std::vector<int64_t>& dims,
                                   const std::vector<float>& values) {
  onnx::TensorProto* tensor = AddInitializer(name, onnx::TensorProto::FLOAT, dims);
  tensor->set_raw_data(values.data(), values.size() * sizeof(float));
  return name;
}

std::string ModelWriter::AddRandomFloats(const std::string& name, const std::vector<int64_t>& dims,
                                         float low, float high) {
  int64_t count = 1;
  for (int64_t dim : dims) count *= dim;
  std::vector<float> values(static_cast<size_t>(count));
  for (float& value : values) value = weights_.Uniform(low, high);
  return AddFloats(name, dims, values);
}

std::string ModelWriter::AddFloatScalar(const std::string& name, float value) {
  return AddFloats(name, {}, {value});
}

std::string ModelWriter::AddInt64s(const std::string& name, const std::vector<int64_t>& dims,
                                   const std::vector<int64_t>& values) {
  onnx::TensorProto* tensor = AddInitializer(name, onnx::TensorProto::INT64, dims);
  tensor->set_raw_data(values.data(), values.size() * sizeof(int64_t));
  return name;
}

std::string ModelWriter::AddInt64Scalar(const std::string& name, int64_t value) {
  return AddInt64s(name, {}, {value});
}

onnx::NodeProto& ModelWriter::AddNode(const std::string& op_type,
                                      const std::vector<std::string>& inputs,
                                      const std::vector<std::string>& outputs) {
  onnx::NodeProto& node = *graph().add_node();
  node.set_op_type(op_type);
  node.set_name(op_type + "_" + std::to_string(graph().node_size()));
  for (const std::string& input : inputs) node.add_input(input);
  for (const std::string& output : outputs) node.add_output(output);
  return node;
}

void SetInt(onnx::NodeProto& node, const std::string& name, int64_t value) {
  AddAttribute(node, name, onnx::AttributeProto::INT).set_i(value);
}

void SetInts(onnx::NodeProto& node, const std::string& name, const std::vector<int64_t>& values) {
  onnx::AttributeProto& attribute = AddAttribute(node, name, onnx::AttributeProto::INTS);
  for (int64_t value : values) attribute.add_ints(value);
}

void SetFloat(onnx::NodeProto& node, const std::string& name, float value) {
  AddAttribute(node, name, onnx::AttributeProto::FLOAT).set_f(value);
}

void SetFloatTensor(onnx::NodeProto& node, const std::string& name, float value) {
  onnx::TensorProto& tensor = *AddAttribute(node, name, onnx::AttributeProto::TENSOR).mutable_t();
  tensor.set_data_type(onnx::TensorProto::FLOAT);
  tensor.add_dims(1);
  tensor.add_float_data(value);
}

bool SaveCheckedModel(const onnx::ModelProto& model, const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  const bool serialized = out && model.SerializeToOstream(&out);
  out.close();
  if (!serialized || !out) {
    std::fprintf(stderr, "make_fold_models: cannot write %s\n", path.c_str());
    return false;
  }
  // Checked from the file, so that external data resolves beside it.
  try {
    onnx::checker::check_model(path);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "make_fold_models: %s fails onnx::checker: %s\n", path.c_str(), e.what());
    std::remove(path.c_str());
    return false;
  }
  return true;
}

}  // namespace fold_models
