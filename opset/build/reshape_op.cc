// Reshape (opset 14).
#include <array>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/build/native_ops.h"
#include "graphgc/opset/build/op_builder.h"
#include "graphgc/opset/build/ops.h"
#include "graphgc/opset/inference/type_constraints.h"
#include "graphgc/opset/kernels/common/broadcast.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc {
namespace {

using internal::OperandInfo;
using internal::OutputType;

constexpr std::array<absl::string_view, 2> kReshapeInputs = {"data", "shape"};

absl::Status CheckShapeInput(const OperandInfo& shape) {
  if (shape.dtype != DataType::kInt64) {
    return absl::InvalidArgumentError(absl::StrCat("input 1 (shape) has element type ",
                                                   DataTypeName(shape.dtype), ", not int64"));
  }
  if (shape.shape.has_value() && shape.shape->size() != 1) {
    return absl::InvalidArgumentError(absl::StrCat("input 1 (shape) must be 1-D, but its shape is ",
                                                   internal::DescribeShape(shape.shape)));
  }
  return absl::OkStatus();
}

// Resolves 0 (copy) and -1 (infer) entries of a known target shape against the data's shape.
absl::StatusOr<Shape> ResolveTarget(absl::Span<const int64_t> target,
                                    const std::optional<Shape>& data, bool allowzero) {
  Shape out(target.begin(), target.end());
  int inferred = -1;
  bool has_zero = false;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] < -1) {
      return absl::InvalidArgumentError(
          absl::StrCat("shape value ", ShapeToString(target), " has the invalid entry ", out[i]));
    }
    if (out[i] == -1) {
      if (inferred >= 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("shape value ", ShapeToString(target), " has more than one -1"));
      }
      inferred = static_cast<int>(i);
    }
    if (out[i] == 0) {
      has_zero = true;
      if (allowzero) continue;
      if (!data.has_value()) {
        out[i] = -1;  // copies a dim of an input of unknown rank
      } else if (i >= data->size()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "shape value ", ShapeToString(target), " copies dimension ", i, " (a 0) but data ",
            internal::DescribeShape(data), " has rank ", data->size()));
      } else {
        out[i] = (*data)[i];
      }
    }
  }
  if (allowzero && has_zero && inferred >= 0) {
    return absl::InvalidArgumentError(absl::StrCat("shape value ", ShapeToString(target),
                                                   " has both 0 and -1 while allowzero is 1"));
  }
  if (!data.has_value()) return out;
  for (int64_t d : *data) {
    if (d < 0) return out;  // unknown input size: the -1 stays unknown
  }
  // The target's count may overflow (shape values are data), so both are counted checked.
  const absl::StatusOr<int64_t> data_count_or = ElementCount(*data);
  if (!data_count_or.ok()) return out;
  const int64_t data_count = *data_count_or;
  Shape known_dims;
  for (size_t i = 0; i < out.size(); ++i) {
    if (static_cast<int>(i) == inferred) continue;
    if (out[i] < 0) return out;
    known_dims.push_back(out[i]);
  }
  const absl::StatusOr<int64_t> known_count = ElementCount(known_dims);
  if (!known_count.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot reshape data ", internal::DescribeShape(data), " to ",
                     ShapeToString(target), ": ", known_count.status().message()));
  }
  const int64_t known = *known_count;
  if (inferred >= 0) {
    if (known == 0 || data_count % known != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("cannot reshape data ", internal::DescribeShape(data), " (", data_count,
                       " elements) to ", ShapeToString(target)));
    }
    out[inferred] = data_count / known;
  } else if (known != data_count) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot reshape data ", internal::DescribeShape(data), " (", data_count,
                     " elements) to ", ShapeToString(target), " (", known, " elements)"));
  }
  return out;
}

// A target shape only partly known (ONNX's data propagation): its known entries are the output's
// dims (0 copies the data's dim unless allowzero); unknown entries and -1 stay unknown.
Shape PartialTarget(absl::Span<const OperandInfo> in, bool allowzero) {
  Shape out;
  const std::optional<Shape>& data = in[0].shape;
  for (size_t i = 0; i < in[1].shape_data->size(); ++i) {
    const int64_t entry = (*in[1].shape_data)[i];
    if (entry == 0 && !allowzero) {
      out.push_back(data.has_value() && i < data->size() ? (*data)[i] : -1);
    } else {
      out.push_back(entry >= 0 ? entry : -1);  // also Arena::kUnknownElement
    }
  }
  return out;
}

absl::StatusOr<OutputType> InferReshape(const internal::OpSignature& signature,
                                        absl::Span<const OperandInfo> in, bool allowzero) {
  GRAPHGC_RETURN_IF_ERROR(
      internal::CheckElementType(signature, 0, in[0].dtype, internal::kAllTypes));
  GRAPHGC_RETURN_IF_ERROR(CheckShapeInput(in[1]));
  if (in[1].value.has_value()) {
    GRAPHGC_ASSIGN_OR_RETURN(Shape shape,
                             ResolveTarget(in[1].value->data<int64_t>(), in[0].shape, allowzero));
    return internal::TensorOutput(in[0].dtype, std::move(shape));
  }
  if (in[1].shape_data.has_value())
    return internal::TensorOutput(in[0].dtype, PartialTarget(in, allowzero));
  if (in[1].shape.has_value() && (*in[1].shape)[0] >= 0) {
    return internal::TensorOutput(in[0].dtype, Shape(static_cast<size_t>((*in[1].shape)[0]), -1));
  }
  return internal::TensorOutput(in[0].dtype, std::nullopt);
}

}  // namespace

Var internal::NativeReshape(const Var& data, const Var& shape, int64_t allowzero,
                            int opset_version) {
  internal::OpSignature signature{"Reshape", 14, kReshapeInputs};
  signature.opset_version = opset_version;
  const Var* inputs[] = {&data, &shape};
  std::vector<Attribute> attrs;
  if (allowzero != 0) attrs.push_back({"allowzero", allowzero});
  return internal::BuildOp(signature, inputs, std::move(attrs),
                           [&](absl::Span<const OperandInfo> in) -> absl::StatusOr<OutputType> {
                             if (allowzero != 0 && allowzero != 1) {
                               return absl::InvalidArgumentError(absl::StrCat(
                                   "attribute 'allowzero' is ", allowzero, ", not 0 or 1"));
                             }
                             return InferReshape(signature, in, allowzero == 1);
                           });
}

Var op::Reshape(const Var& data, const Var& shape, const ReshapeAttributes& attributes) {
  return internal::NativeReshape(data, shape, attributes.allowzero, 0);
}

}  // namespace graphgc
