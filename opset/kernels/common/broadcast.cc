#include "graphgc/opset/kernels/common/broadcast.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::internal {
namespace {

// Combines two aligned dims; nullopt if they conflict.
std::optional<int64_t> BroadcastDim(int64_t a, int64_t b) {
  if (a == b) return a;
  if (a == 1) return b;
  if (b == 1) return a;
  if (a == -1) return b;  // unknown vs known k > 1: it must be k (or 1) at run time: result k
  if (b == -1) return a;
  return std::nullopt;
}

// A loop rather than operator==, whose memcmp call costs more than comparing a few dims.
bool SameDims(absl::Span<const int64_t> a, absl::Span<const int64_t> b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

}  // namespace

absl::StatusOr<std::optional<Shape>> BroadcastShapes(const std::optional<Shape>& a,
                                                     const std::optional<Shape>& b) {
  std::optional<Shape> out;
  GRAPHGC_RETURN_IF_ERROR(BroadcastShapesInto(a, b, out));
  return out;
}

absl::Status BroadcastShapesInto(const std::optional<Shape>& a, const std::optional<Shape>& b,
                                 std::optional<Shape>& out) {
  if (!a.has_value() || !b.has_value()) {
    out.reset();
    return absl::OkStatus();
  }
  if (SameDims(*a, *b)) {  // every dim combines with itself (the common case of a chain)
    out = a;
    return absl::OkStatus();
  }
  const size_t rank = std::max(a->size(), b->size());
  Shape dims(rank);
  for (size_t i = 0; i < rank; ++i) {
    const size_t a_off = rank - a->size();
    const size_t b_off = rank - b->size();
    const int64_t da = i >= a_off ? (*a)[i - a_off] : 1;
    const int64_t db = i >= b_off ? (*b)[i - b_off] : 1;
    const std::optional<int64_t> dim = BroadcastDim(da, db);
    if (!dim.has_value()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "shapes ", DescribeShape(a), " and ", DescribeShape(b),
          " cannot be broadcast: dimension ", i, " of the result would be both ", da, " and ", db));
    }
    dims[i] = *dim;
  }
  out = std::move(dims);
  return absl::OkStatus();
}

Shape BroadcastStrides(absl::Span<const int64_t> shape, absl::Span<const int64_t> out_shape) {
  Shape strides(out_shape.size(), 0);
  int64_t stride = 1;
  const size_t offset = out_shape.size() - shape.size();
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i + offset] = shape[i] == 1 ? 0 : stride;
    stride *= shape[i];
  }
  return strides;
}

std::string DescribeShape(const std::optional<Shape>& shape) {
  if (!shape.has_value()) return "of unknown rank";
  return absl::StrCat("[",
                      absl::StrJoin(*shape, ",",
                                    [](std::string* out, int64_t dim) {
                                      absl::StrAppend(
                                          out, dim < 0 ? std::string("?") : absl::StrCat(dim));
                                    }),
                      "]");
}

}  // namespace graphgc::internal
