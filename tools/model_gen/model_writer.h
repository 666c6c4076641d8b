// ModelWriter: builds one ONNX model (opset 17, IR 8) for the fold tests by hand, node by node,
// with initializers from a fixed-seed WeightSource; SaveCheckedModel writes it and has
// onnx::checker check it.
// Each writer owns its ModelProto; single-threaded.
#ifndef GRAPHGC_TOOLS_MODEL_GEN_MODEL_WRITER_H_
#define GRAPHGC_TOOLS_MODEL_GEN_MODEL_WRITER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "onnx/onnx_pb.h"

namespace fold_models {

inline constexpr int64_t kOpsetVersion = 17;
inline constexpr int64_t kIrVersion = 8;

// splitmix64: the same numbers on every platform and standard library, unlike <random>'s
// distributions, so the models are byte-for-byte reproducible.
class WeightSource {
 public:
  explicit WeightSource(uint64_t seed) : state_(seed) {}
  uint64_t NextBits();
  // Uniform in [low, high).
  float Uniform(float low, float high);

 private:
  uint64_t state_;
};

// A dimension of a declared shape: a size, or a symbol such as "N".
using Dim = std::variant<int64_t, std::string>;

class ModelWriter {
 public:
  ModelWriter(std::string_view graph_name, uint64_t seed);

  void AddInput(const std::string& name, onnx::TensorProto::DataType type,
                const std::vector<Dim>& dims);
  void AddOutput(const std::string& name, onnx::TensorProto::DataType type,
                 const std::vector<Dim>& dims);

  // Initializers; each returns its name, to be used as a node input.
  std::string AddFloats(const std::string& name, const std::vector<int64_t>& dims,
                        const std::vector<float>& values);
  std::string AddRandomFloats(const std::string& name, const std::vector<int64_t>& dims, float low,
                              float high);
  std::string AddFloatScalar(const std::string& name, float value);
  std::string AddInt64s(const std::string& name, const std::vector<int64_t>& dims,
                        const std::vector<int64_t>& values);
  std::string AddInt64Scalar(const std::string& name, int64_t value);
  // An initializer whose data the caller supplies (external data).
  onnx::TensorProto* AddInitializer(const std::string& name, onnx::TensorProto::DataType type,
                                    const std::vector<int64_t>& dims);

  // A node of the ai.onnx domain; attributes are set on the returned node with the Set* helpers.
  // The reference stays valid until the next AddNode.
  onnx::NodeProto& AddNode(const std::string& op_type, const std::vector<std::string>& inputs,
                           const std::vector<std::string>& outputs);

  WeightSource& weights() { return weights_; }
  const onnx::ModelProto& model() const { return model_; }

 private:
  onnx::GraphProto& graph() { return *model_.mutable_graph(); }

  onnx::ModelProto model_;
  WeightSource weights_;
};

void SetInt(onnx::NodeProto& node, const std::string& name, int64_t value);
void SetInts(onnx::NodeProto& node, const std::string& name, const std::vector<int64_t>& values);
void SetFloat(onnx::NodeProto& node, const std::string& name, float value);
// A one-element float tensor attribute (ConstantOfShape's value).
void SetFloatTensor(onnx::NodeProto& node, const std::string& name, float value);

// Writes the model to `path`, then runs onnx::checker::check_model on the file (its external data
// must already be beside it). On failure prints why to stderr, removes the file and returns false.
bool SaveCheckedModel(const onnx::ModelProto& model, const std::string& path);

}  // namespace fold_models

#endif  // GRAPHGC_TOOLS_MODEL_GEN_MODEL_WRITER_H_
