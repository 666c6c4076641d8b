#include "graphgc/export/onnx/model_files.h"

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "graphgc/export/onnx/external_data.h"
#include "graphgc/export/onnx/tensor_files.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc {
namespace {

// Replaces every tensor kept in external data, anywhere in the model, by one holding its bytes.
class ExternalDataLoader {
 public:
  explicit ExternalDataLoader(std::string model_dir) : reader_(std::move(model_dir)) {}

  absl::Status LoadModel(onnx::ModelProto& model) {
    GRAPHGC_RETURN_IF_ERROR(LoadGraph(*model.mutable_graph()));
    for (onnx::FunctionProto& function : *model.mutable_functions()) {
      GRAPHGC_RETURN_IF_ERROR(LoadNodes(*function.mutable_node()));
    }
    return absl::OkStatus();
  }

 private:
  absl::Status LoadGraph(onnx::GraphProto& graph) {
    for (onnx::TensorProto& tensor : *graph.mutable_initializer()) {
      GRAPHGC_RETURN_IF_ERROR(LoadTensor(tensor));
    }
    for (onnx::SparseTensorProto& sparse : *graph.mutable_sparse_initializer()) {
      GRAPHGC_RETURN_IF_ERROR(LoadSparse(sparse));
    }
    return LoadNodes(*graph.mutable_node());
  }

  absl::Status LoadNodes(google::protobuf::RepeatedPtrField<onnx::NodeProto>& nodes) {
    for (onnx::NodeProto& node : nodes) {
      for (onnx::AttributeProto& attribute : *node.mutable_attribute()) {
        GRAPHGC_RETURN_IF_ERROR(LoadAttribute(attribute));
      }
    }
    return absl::OkStatus();
  }

  absl::Status LoadAttribute(onnx::AttributeProto& attribute) {
    if (attribute.has_t()) GRAPHGC_RETURN_IF_ERROR(LoadTensor(*attribute.mutable_t()));
    if (attribute.has_sparse_tensor()) {
      GRAPHGC_RETURN_IF_ERROR(LoadSparse(*attribute.mutable_sparse_tensor()));
    }
    if (attribute.has_g()) GRAPHGC_RETURN_IF_ERROR(LoadGraph(*attribute.mutable_g()));
    for (onnx::TensorProto& tensor : *attribute.mutable_tensors()) {
      GRAPHGC_RETURN_IF_ERROR(LoadTensor(tensor));
    }
    for (onnx::SparseTensorProto& sparse : *attribute.mutable_sparse_tensors()) {
      GRAPHGC_RETURN_IF_ERROR(LoadSparse(sparse));
    }
    for (onnx::GraphProto& graph : *attribute.mutable_graphs()) {
      GRAPHGC_RETURN_IF_ERROR(LoadGraph(graph));
    }
    return absl::OkStatus();
  }

  absl::Status LoadSparse(onnx::SparseTensorProto& sparse) {
    if (sparse.has_values()) GRAPHGC_RETURN_IF_ERROR(LoadTensor(*sparse.mutable_values()));
    if (sparse.has_indices()) GRAPHGC_RETURN_IF_ERROR(LoadTensor(*sparse.mutable_indices()));
    return absl::OkStatus();
  }

  absl::Status LoadTensor(onnx::TensorProto& proto) {
    if (proto.data_location() != onnx::TensorProto::EXTERNAL) return absl::OkStatus();
    GRAPHGC_ASSIGN_OR_RETURN(const Tensor tensor, reader_.Load(proto));
    GRAPHGC_ASSIGN_OR_RETURN(onnx::TensorProto loaded, to_tensor_proto(tensor, proto.name()));
    if (proto.has_doc_string()) loaded.set_doc_string(proto.doc_string());
    proto = std::move(loaded);
    return absl::OkStatus();
  }

  internal::ExternalDataReader reader_;
};

absl::Status WithPrefix(absl::string_view who, const absl::Status& status) {
  if (status.ok()) return status;
  return absl::Status(status.code(), absl::StrCat(who, ": ", status.message()));
}

}  // namespace

std::string model_folder(const std::string& path) {
  std::string folder = std::filesystem::path(path).parent_path().string();
  return folder.empty() ? std::string(".") : folder;
}

absl::StatusOr<onnx::ModelProto> load_model(const std::string& path,
                                            const LoadModelOptions& options) {
  absl::StatusOr<onnx::ModelProto> model = internal::LoadModelFile(path);
  if (!model.ok()) return WithPrefix("load_model", model.status());
  if (!options.load_external_data || !internal::UsesExternalData(*model)) return model;
  GRAPHGC_RETURN_IF_ERROR(
      WithPrefix("load_model", ExternalDataLoader(model_folder(path)).LoadModel(*model)));
  return model;
}

absl::Status save_model(const onnx::ModelProto& model, const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return absl::UnavailableError(absl::StrCat("save_model: cannot open '", path, "'"));
  if (!model.SerializeToOstream(&out)) {
    return absl::DataLossError(absl::StrCat("save_model: cannot write '", path, "'"));
  }
  return absl::OkStatus();
}

absl::Status save_model(const onnx::ModelProto& model, const std::string& path,
                        const SaveModelOptions& options) {
  if (options.external_data_file.empty()) return save_model(model, path);
  onnx::ModelProto moved = model;
  internal::ExternalDataWriter writer(std::filesystem::path(path).parent_path().string(),
                                      options.external_data_file);
  GRAPHGC_RETURN_IF_ERROR(WithPrefix(
      "save_model", internal::MoveToExternalData(moved, writer, options.external_data_threshold)));
  GRAPHGC_RETURN_IF_ERROR(WithPrefix("save_model", writer.Finish()));
  return save_model(moved, path);
}

}  // namespace graphgc
