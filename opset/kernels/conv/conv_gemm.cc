#include "graphgc/opset/kernels/conv/conv_gemm.h"

#include <algorithm>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/conv/patches.h"
#include "graphgc/opset/kernels/linalg/batched_gemm.h"
#include "graphgc/opset/kernels/linalg/work_buffer.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels::conv {
namespace {

// The per-group offsets of one operand: group g starts at g * stride (+ base).
std::vector<int64_t> GroupOffsets(int64_t groups, int64_t stride, int64_t base = 0) {
  std::vector<int64_t> offsets(static_cast<size_t>(groups));
  for (int64_t g = 0; g < groups; ++g) offsets[static_cast<size_t>(g)] = base + g * stride;
  return offsets;
}

// The elements of a block of the column matrix: 1 MiB of floats, about an L2 cache.
constexpr int64_t kBlockElements = int64_t{1} << 18;

// A buffer of `count` elements left uninitialized (every element is written before it is read),
// or kResourceExhausted past the value budget.
template <class W>
absl::StatusOr<std::unique_ptr<W[]>> Uninitialized(const KernelContext& ctx, int64_t count) {
  if (!ctx.within_budget(DataTypeOf<W>::value, count)) {
    return absl::ResourceExhaustedError(
        absl::StrCat("a column matrix of ", count, " elements exceeds the value budget"));
  }
  return std::unique_ptr<W[]>(new W[static_cast<size_t>(count)]);
}

// Conv's product of one group: Y_g [M/group, columns] = W_g [M/group, rows] x columns.
linalg::GemmDims ConvDims(const ConvPlan& plan) {
  return {
      .m = plan.out_channels / plan.group, .n = plan.patches.columns(), .k = plan.patches.rows()};
}

// ConvTranspose's: columns [rows, X's columns] = W_g^T (W_g is [C/group, rows]) x X_g.
linalg::GemmDims TransposedDims(const ConvPlan& plan) {
  return {.m = plan.patches.rows(),
          .n = plan.patches.columns(),
          .k = plan.in_channels / plan.group,
          .trans_a = true};
}

}  // namespace

template <class W>
absl::Status Convolve(const KernelContext& ctx, const ConvPlan& plan, const W* x, const W* w,
                      W* y) {
  const PatchGeometry& p = plan.patches;
  const linalg::GemmDims dims = ConvDims(plan);
  const int64_t image = p.channels * p.image_size();  // one group of one image of X
  const std::vector<int64_t> w_offsets = GroupOffsets(plan.group, dims.m * dims.k);
  if (p.is_pointwise()) {  // X's groups are the column matrices already: all in one call
    std::vector<int64_t> a_offsets, x_offsets;
    for (int64_t n = 0; n < plan.batch; ++n) {
      a_offsets.insert(a_offsets.end(), w_offsets.begin(), w_offsets.end());
      for (int64_t g = 0; g < plan.group; ++g) x_offsets.push_back((n * plan.group + g) * image);
    }
    linalg::BatchedGemm<W>(dims, W{1}, w, a_offsets, x, x_offsets, W{0}, y, ctx.threads());
    return absl::OkStatus();
  }
  // The column matrix is built a block of lines at a time, small enough to stay in cache
  // between im2col's writes and the GEMM's reads; a block's products go to `products` and then
  // into Y's rows, unless one block covers everything.
  const int64_t width = p.positions.back(), lines = Lines(p);
  const int64_t block_lines = std::clamp<int64_t>(
      kBlockElements / std::max<int64_t>(1, dims.k * width), 1, std::max<int64_t>(lines, 1));
  const bool blocked = block_lines < lines;
  GRAPHGC_ASSIGN_OR_RETURN(std::unique_ptr<W[]> columns,
                           Uninitialized<W>(ctx, plan.group * dims.k * block_lines * width));
  std::unique_ptr<W[]> products;
  if (blocked) {
    GRAPHGC_ASSIGN_OR_RETURN(products,
                             Uninitialized<W>(ctx, plan.group * dims.m * block_lines * width));
  }
  for (int64_t n = 0; n < plan.batch; ++n) {
    W* y_n = y + n * plan.group * dims.m * dims.n;
    for (int64_t line = 0; line < lines; line += block_lines) {
      const int64_t end = std::min(lines, line + block_lines);
      linalg::GemmDims block = dims;
      block.n = (end - line) * width;
      for (int64_t g = 0; g < plan.group; ++g) {
        Im2Col(p, line, end, x + (n * plan.group + g) * image, W{0},
               columns.get() + g * dims.k * block.n);
      }
      linalg::BatchedGemm<W>(block, W{1}, w, w_offsets, columns.get(),
                             GroupOffsets(plan.group, dims.k * block.n), W{0},
                             blocked ? products.get() : y_n, ctx.threads());
      if (!blocked) continue;
      for (int64_t row = 0; row < plan.group * dims.m; ++row) {
        std::copy_n(products.get() + row * block.n, block.n, y_n + row * dims.n + line * width);
      }
    }
  }
  return absl::OkStatus();
}

template <class W>
absl::Status ConvolveTransposed(const KernelContext& ctx, const ConvPlan& plan, const W* x,
                                const W* w, W* y) {
  const PatchGeometry& p = plan.patches;
  const linalg::GemmDims dims = TransposedDims(plan);
  const int64_t image = p.channels * p.image_size();  // one group of one image of Y
  std::fill(y, y + plan.batch * plan.group * image, W{0});
  const int64_t matrix = dims.m * dims.n;
  GRAPHGC_ASSIGN_OR_RETURN(std::unique_ptr<W[]> columns,
                           Uninitialized<W>(ctx, plan.group * matrix));
  const std::vector<int64_t> w_offsets = GroupOffsets(plan.group, dims.k * dims.m);
  for (int64_t n = 0; n < plan.batch; ++n) {
    const std::vector<int64_t> x_offsets =
        GroupOffsets(plan.group, dims.k * dims.n, n * plan.group * dims.k * dims.n);
    linalg::BatchedGemm<W>(dims, W{1}, w, w_offsets, x, x_offsets, W{0}, columns.get(),
                           ctx.threads());
    for (int64_t g = 0; g < plan.group; ++g) {
      Col2Im(p, columns.get() + g * matrix, y + (n * plan.group + g) * image);
    }
  }
  return absl::OkStatus();
}

#define GRAPHGC_CONV_INSTANTIATE(W)                                                            \
  template absl::Status Convolve<W>(const KernelContext&, const ConvPlan&, const W*, const W*, \
                                    W*);                                                       \
  template absl::Status ConvolveTransposed<W>(const KernelContext&, const ConvPlan&, const W*, \
                                              const W*, W*);
GRAPHGC_CONV_INSTANTIATE(float)
GRAPHGC_CONV_INSTANTIATE(double)
GRAPHGC_CONV_INSTANTIATE(uint32_t)
#undef GRAPHGC_CONV_INSTANTIATE

}  // namespace graphgc::kernels::conv
