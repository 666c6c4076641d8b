#include "graphgc/export/onnx/ir_version.h"

#include <algorithm>
#include <iterator>
#include <string>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/build/onnx_domains.h"

namespace graphgc::internal {
namespace {

// ONNX's releases by the newest ai.onnx opset and IR version each defined (onnx/helper.py's
// VERSION_TABLE): opset 9 came with IR 4, ..., opset 24 with IR 12.
struct Release {
  int64_t onnx_opset;
  int64_t ml_opset;
  int64_t ir_version;
};
constexpr Release kReleases[] = {
    {8, 1, 3},  {9, 1, 4},  {10, 1, 5},  {11, 2, 6},  {14, 2, 7},
    {18, 3, 8}, {20, 4, 9}, {22, 5, 10}, {23, 5, 11}, {24, 5, 12},
};

int64_t ElementTypeOfType(const onnx::TypeProto& type);

void TakeType(const onnx::TypeProto& type, int64_t& lowest) {
  lowest = std::max(lowest, ElementTypeOfType(type));
}

// The newest IR the element types inside `type` need (tensors, and those inside sequences,
// optionals and maps).
int64_t ElementTypeOfType(const onnx::TypeProto& type) {
  switch (type.value_case()) {
    case onnx::TypeProto::kTensorType:
      return IrVersionOfElementType(type.tensor_type().elem_type());
    case onnx::TypeProto::kSparseTensorType:
      return IrVersionOfElementType(type.sparse_tensor_type().elem_type());
    case onnx::TypeProto::kSequenceType:
      return ElementTypeOfType(type.sequence_type().elem_type());
    case onnx::TypeProto::kOptionalType:
      return ElementTypeOfType(type.optional_type().elem_type());
    case onnx::TypeProto::kMapType:
      return std::max(IrVersionOfElementType(type.map_type().key_type()),
                      ElementTypeOfType(type.map_type().value_type()));
    default:
      return 3;
  }
}

void TakeGraph(const onnx::GraphProto& graph, int64_t& lowest);

void TakeTensor(const onnx::TensorProto& tensor, int64_t& lowest) {
  lowest = std::max(lowest, IrVersionOfElementType(tensor.data_type()));
}

void TakeNode(const onnx::NodeProto& node, int64_t& lowest) {
  for (const onnx::AttributeProto& attribute : node.attribute()) {
    if (attribute.has_t()) TakeTensor(attribute.t(), lowest);
    for (const onnx::TensorProto& tensor : attribute.tensors()) TakeTensor(tensor, lowest);
    if (attribute.has_tp()) TakeType(attribute.tp(), lowest);
    if (attribute.has_g()) TakeGraph(attribute.g(), lowest);
    for (const onnx::GraphProto& graph : attribute.graphs()) TakeGraph(graph, lowest);
  }
}

void TakeGraph(const onnx::GraphProto& graph, int64_t& lowest) {
  for (const auto* values : {&graph.input(), &graph.output(), &graph.value_info()}) {
    for (const onnx::ValueInfoProto& value : *values) TakeType(value.type(), lowest);
  }
  for (const onnx::TensorProto& tensor : graph.initializer()) TakeTensor(tensor, lowest);
  for (const onnx::NodeProto& node : graph.node()) TakeNode(node, lowest);
}

}  // namespace

int64_t IrVersionOfOpset(const std::string& domain, int64_t version) {
  const bool ml = domain == "ai.onnx.ml";
  constexpr int64_t kPreviewTrainingIrVersion = 7;  // ONNX 1.7 brought the domain
  if (domain == internal::kPreviewTrainingDomain) return kPreviewTrainingIrVersion;
  if (!ml && !domain.empty() && domain != "ai.onnx") return kOnnxIrVersion;
  for (const Release& release : kReleases) {
    if (version <= (ml ? release.ml_opset : release.onnx_opset)) return release.ir_version;
  }
  return kReleases[std::size(kReleases) - 1].ir_version;
}

int64_t IrVersionOfElementType(int32_t data_type) {
  switch (data_type) {
    case onnx::TensorProto::FLOAT8E4M3FN:
    case onnx::TensorProto::FLOAT8E4M3FNUZ:
    case onnx::TensorProto::FLOAT8E5M2:
    case onnx::TensorProto::FLOAT8E5M2FNUZ:
      return 9;
    case onnx::TensorProto::UINT4:
    case onnx::TensorProto::INT4:
      return 10;
    case onnx::TensorProto::FLOAT4E2M1:
      return 11;
    case onnx::TensorProto::FLOAT8E8M0:
      return 12;
    default:
      return 3;
  }
}

int64_t LowestIrVersion(const onnx::ModelProto& model) {
  int64_t lowest = kOnnxIrVersion;
  for (const onnx::OperatorSetIdProto& opset : model.opset_import()) {
    lowest = std::max(lowest, IrVersionOfOpset(opset.domain(), opset.version()));
  }
  TakeGraph(model.graph(), lowest);
  for (const onnx::FunctionProto& function : model.functions()) {
    for (const onnx::OperatorSetIdProto& opset : function.opset_import()) {
      lowest = std::max(lowest, IrVersionOfOpset(opset.domain(), opset.version()));
    }
    for (const onnx::NodeProto& node : function.node()) TakeNode(node, lowest);
  }
  return lowest;
}

std::string NewerIrVersionWarning(const onnx::ModelProto& model) {
  if (model.ir_version() <= kNewestKnownIrVersion) return "";
  return absl::StrCat("the model declares IR version ", model.ir_version(), ", newer than the ",
                      kNewestKnownIrVersion, " of graphgc's ONNX (1.19); it was read as IR ",
                      kNewestKnownIrVersion);
}

const onnx::ModelProto& AtKnownIrVersion(const onnx::ModelProto& model,
                                         std::optional<onnx::ModelProto>& copy) {
  if (model.ir_version() <= kNewestKnownIrVersion) return model;
  copy = model;
  copy->set_ir_version(kNewestKnownIrVersion);
  return *copy;
}

}  // namespace graphgc::internal
