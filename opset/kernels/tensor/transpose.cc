// Permutations of dims: Transpose, and DepthToSpace / SpaceToDepth (a reshape to 6-D, a
// transposition, a reshape to 4-D). All copy through a permuted StridedView.
#include <algorithm>
#include <numeric>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graphgc/opset/kernels/tensor/strided_view.h"
#include "graphgc/opset/kernels/tensor/tensor_kernels.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

// The data's elements seen with `dims`, permuted by `perm`, copied into a tensor of `out_dims`.
KernelResult CopyPermuted(const KernelContext& ctx, absl::Span<const int64_t> dims,
                          absl::Span<const int64_t> perm, absl::Span<const int64_t> out_dims) {
  const Tensor& data = ctx.input(0);
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(data.dtype(), out_dims));
  CopyView(data, PermutedView(ContiguousView(dims), perm), out);
  return KernelOutputs{std::move(out).freeze()};
}

// Transpose: dim k of the output is dim perm[k] of the input (perm reverses the dims by default).
KernelResult TransposeKernel(const KernelContext& ctx) {
  const Tensor& data = ctx.input(0);
  const int64_t rank = data.rank();
  std::vector<int64_t> perm(static_cast<size_t>(rank));
  std::iota(perm.rbegin(), perm.rend(), int64_t{0});
  if (auto given = ctx.ints_attribute("perm")) perm = *std::move(given);
  std::vector<int64_t> sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  bool is_permutation = static_cast<int64_t>(perm.size()) == rank;
  for (size_t i = 0; is_permutation && i < sorted.size(); ++i) {
    is_permutation = sorted[i] == static_cast<int64_t>(i);
  }
  if (!is_permutation) {
    return absl::InvalidArgumentError(absl::StrCat("attribute 'perm' [", absl::StrJoin(perm, ","),
                                                   "] is not a permutation of the ", rank,
                                                   " dims"));
  }
  Shape out_dims;
  for (int64_t axis : perm) out_dims.push_back(data.shape()[static_cast<size_t>(axis)]);
  return CopyPermuted(ctx, data.shape(), perm, out_dims);
}

struct Blocks {
  int64_t n, c, h, w, b;
};

// The [N, C, H, W] input and a valid `blocksize` of a DepthToSpace or SpaceToDepth.
absl::StatusOr<Blocks> ReadBlocks(const KernelContext& ctx) {
  const Tensor& data = ctx.input(0);
  if (data.rank() != 4) {
    return ctx.input_error(
        0, absl::StrCat("must be 4-D [N, C, H, W], not of shape ", ShapeToString(data.shape())));
  }
  const int64_t b = ctx.int_attribute("blocksize", 0);
  if (b < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("attribute 'blocksize' is ", b, ", not positive"));
  }
  const auto d = data.shape();
  return Blocks{d[0], d[1], d[2], d[3], b};
}

// DepthToSpace: channel blocks become b x b spatial blocks. DCR (the only mode before opset 11)
// orders the channels depth-column-row, CRD column-row-depth.
KernelResult DepthToSpaceKernel(const KernelContext& ctx) {
  GRAPHGC_ASSIGN_OR_RETURN(const Blocks s, ReadBlocks(ctx));
  if (s.c % (s.b * s.b) != 0) {
    return ctx.input_error(
        0, absl::StrCat("has ", s.c, " channels, not a multiple of blocksize^2 ", s.b * s.b));
  }
  const int64_t depth = s.c / (s.b * s.b);
  const Shape out_dims = {s.n, depth, s.h * s.b, s.w * s.b};
  GRAPHGC_ASSIGN_OR_RETURN(const size_t mode, ChooseAttribute(ctx, "mode", "DCR", {"DCR", "CRD"}));
  if (mode == 0) {
    return CopyPermuted(ctx, {s.n, s.b, s.b, depth, s.h, s.w}, {0, 3, 4, 1, 5, 2}, out_dims);
  }
  return CopyPermuted(ctx, {s.n, depth, s.b, s.b, s.h, s.w}, {0, 1, 4, 2, 5, 3}, out_dims);
}

// SpaceToDepth: b x b spatial blocks become channel blocks (DepthToSpace's DCR inverse).
KernelResult SpaceToDepthKernel(const KernelContext& ctx) {
  GRAPHGC_ASSIGN_OR_RETURN(const Blocks s, ReadBlocks(ctx));
  if (s.h % s.b != 0 || s.w % s.b != 0) {
    return ctx.input_error(0, absl::StrCat("has spatial dims ", s.h, " x ", s.w,
                                           ", not multiples of blocksize ", s.b));
  }
  const int64_t h = s.h / s.b;
  const int64_t w = s.w / s.b;
  return CopyPermuted(ctx, {s.n, s.c, h, s.b, w, s.b}, {0, 3, 5, 1, 2, 4},
                      {s.n, s.c * s.b * s.b, h, w});
}

}  // namespace

void RegisterTransposeKernels(KernelTable& table) {
  // Elements are moved by their size: every type, the narrow ones too.
  const KernelTypes any = {{"T", data_types::kMovable}};
  table.add("", "Transpose", 1, KernelTable::kLatest, any, TransposeKernel);
  table.add("", "DepthToSpace", 1, KernelTable::kLatest, any, DepthToSpaceKernel);
  table.add("", "SpaceToDepth", 1, KernelTable::kLatest, any, SpaceToDepthKernel);
}

}  // namespace graphgc::kernels
