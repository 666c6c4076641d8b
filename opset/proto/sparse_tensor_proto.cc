#include "graphgc/opset/proto/sparse_tensor_proto.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "graphgc/ir/limits.h"
#include "graphgc/opset/proto/tensor_proto.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::internal {
namespace {

// A few bytes of proto may declare any dims: the dense tensor is capped (a sparse "zip bomb").
constexpr int64_t kMaxDenseBytes = int64_t{1} << 30;

absl::Status Invalid(absl::string_view what, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(what, ": sparse tensor ", why));
}

// Each value's linear position in the dense tensor of `dims`, checked.
absl::StatusOr<std::vector<int64_t>> Positions(const Tensor& indices, const Shape& dims,
                                               int64_t count, int64_t nnz, absl::string_view what) {
  if (indices.dtype() != DataType::kInt64) return Invalid(what, "indices are not int64");
  const absl::Span<const int64_t> given = indices.data<int64_t>();
  const int64_t rank = static_cast<int64_t>(dims.size());
  const bool linear = indices.rank() == 1 && indices.shape()[0] == nnz;
  const bool coordinates =
      indices.rank() == 2 && indices.shape()[0] == nnz && indices.shape()[1] == rank;
  if (!linear && !coordinates) {
    return Invalid(what, absl::StrCat("indices of shape ", ShapeToString(indices.shape()),
                                      " are neither [", nnz, "] nor [", nnz, ", ", rank, "]"));
  }
  std::vector<int64_t> positions;
  positions.reserve(static_cast<size_t>(nnz));
  absl::flat_hash_set<int64_t> seen;
  for (int64_t v = 0; v < nnz; ++v) {
    int64_t position = 0;
    if (linear) {
      position = given[static_cast<size_t>(v)];
      if (position < 0 || position >= count) {
        return Invalid(what, absl::StrCat("index ", position, " is outside [0, ", count, ")"));
      }
    } else {
      for (int64_t d = 0; d < rank; ++d) {
        const int64_t i = given[static_cast<size_t>(v * rank + d)];
        if (i < 0 || i >= dims[static_cast<size_t>(d)]) {
          return Invalid(what, absl::StrCat("coordinate ", i, " of value ", v, " is outside dim ",
                                            d, " of size ", dims[static_cast<size_t>(d)]));
        }
        position = position * dims[static_cast<size_t>(d)] + i;  // < count: no overflow
      }
    }
    if (!seen.insert(position).second) {
      return Invalid(what, absl::StrCat("value ", v, " repeats an earlier index"));
    }
    positions.push_back(position);
  }
  return positions;
}

}  // namespace

absl::StatusOr<Tensor> DenseFromSparseTensorProto(const onnx::SparseTensorProto& sparse,
                                                  absl::string_view what) {
  Shape dims;
  for (int64_t dim : sparse.dims()) {
    if (dim < 0) return Invalid(what, absl::StrCat("has a negative dim ", dim));
    dims.push_back(dim);
  }
  GRAPHGC_RETURN_IF_ERROR(CheckElementCount(dims, what));
  GRAPHGC_ASSIGN_OR_RETURN(const int64_t count, ElementCount(dims));
  GRAPHGC_ASSIGN_OR_RETURN(const Tensor values, FromTensorProto(sparse.values()));
  if (values.rank() != 1) return Invalid(what, "values are not 1-D");
  GRAPHGC_RETURN_IF_ERROR(CheckTypeLimits(
      VarType::Tensor(values.dtype(), std::vector<int64_t>(dims.begin(), dims.end())), what));
  const int64_t element_bytes = values.dtype() == DataType::kString
                                    ? int64_t{sizeof(std::string)}
                                    : static_cast<int64_t>(ElementSize(values.dtype()));
  if (count > kMaxDenseBytes / std::max<int64_t>(element_bytes, 1)) {
    return absl::ResourceExhaustedError(absl::StrCat(
        what, ": sparse tensor of shape ", ShapeToString(dims), " would take ", count, " × ",
        element_bytes, " bytes dense, past the ", kMaxDenseBytes, " graphgc allows"));
  }
  const int64_t nnz = values.shape()[0];
  std::vector<int64_t> positions;
  if (nnz > 0) {
    GRAPHGC_ASSIGN_OR_RETURN(const Tensor indices, FromTensorProto(sparse.indices()));
    GRAPHGC_ASSIGN_OR_RETURN(positions, Positions(indices, dims, count, nnz, what));
  }
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor dense, MutableTensor::allocate(values.dtype(), dims));
  if (values.dtype() == DataType::kString) {
    const absl::Span<const std::string> from = values.data<std::string>();
    const absl::Span<std::string> to = dense.mutable_data<std::string>();
    for (size_t v = 0; v < positions.size(); ++v) to[static_cast<size_t>(positions[v])] = from[v];
    return std::move(dense).freeze();
  }
  const size_t element = ElementSize(values.dtype());
  auto* to = static_cast<char*>(dense.raw_mutable_data());
  std::memset(to, 0, static_cast<size_t>(count) * element);
  const auto* from = static_cast<const char*>(values.raw_data());
  for (size_t v = 0; v < positions.size(); ++v) {
    std::memcpy(to + static_cast<size_t>(positions[v]) * element, from + v * element, element);
  }
  return std::move(dense).freeze();
}

}  // namespace graphgc::internal
