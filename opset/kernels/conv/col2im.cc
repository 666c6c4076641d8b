// Col2Im (opset 18): the inverse of im2col. Input [N, C * prod(block), L] holds, for each of the
// L block positions (row-major over the sliding grid) and each block offset k (row-major over
// block_shape), the element the block puts at image position l * stride - pad_begin +
// k * dilation; entries that fall on the same position add up, those in the padding are
// dropped. The output is [N, C, image_shape...].
#include <algorithm>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/conv/conv_kernels.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

// Extents, blocks and dilations past this decline: the products below stay far from overflow.
constexpr int64_t kLargestExtent = int64_t{1} << 31;

// The geometry of one spatial axis.
struct FoldAxis {
  int64_t image = 0;   // output extent
  int64_t block = 1;   // block extent
  int64_t blocks = 0;  // sliding positions
  int64_t stride = 1;
  int64_t dilation = 1;
  int64_t pad = 0;  // at the beginning
};

absl::StatusOr<std::vector<int64_t>> PerAxis(const KernelContext& ctx, absl::string_view name,
                                             size_t count, int64_t fallback) {
  const std::optional<std::vector<int64_t>> given = ctx.ints_attribute(name);
  if (!given.has_value()) return std::vector<int64_t>(count, fallback);
  if (given->size() != count) {
    return absl::InvalidArgumentError(absl::StrCat("attribute '", name, "' has ", given->size(),
                                                   " values; ", count, " are needed"));
  }
  return *given;
}

absl::StatusOr<std::vector<FoldAxis>> FoldGeometry(const KernelContext& ctx) {
  const Tensor& image_shape = ctx.input(1);
  const Tensor& block_shape = ctx.input(2);
  const std::vector<int64_t> image = ReadInt64s(image_shape);
  const std::vector<int64_t> block = ReadInt64s(block_shape);
  if (image.size() != block.size() || image.empty()) {
    return ctx.input_error(
        2, absl::StrCat("has ", block.size(), " dims; image_shape has ", image.size()));
  }
  const size_t rank = image.size();
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<int64_t> strides, PerAxis(ctx, "strides", rank, 1));
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<int64_t> dilations,
                           PerAxis(ctx, "dilations", rank, 1));
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<int64_t> pads, PerAxis(ctx, "pads", 2 * rank, 0));
  std::vector<FoldAxis> axes(rank);
  for (size_t a = 0; a < rank; ++a) {
    FoldAxis& axis = axes[a];
    axis = {image[a], block[a], 0, strides[a], dilations[a], pads[a]};
    if (axis.image < 0 || axis.block < 1 || axis.stride < 1 || axis.dilation < 1 || pads[a] < 0 ||
        pads[a + rank] < 0 || axis.image > kLargestExtent || axis.block > kLargestExtent ||
        axis.dilation > kLargestExtent || pads[a] > kLargestExtent ||
        pads[a + rank] > kLargestExtent) {
      return Decline("Col2Im geometry out of range");
    }
    const int64_t room =
        axis.image + pads[a] + pads[a + rank] - axis.dilation * (axis.block - 1) - 1;
    if (room < 0) return ctx.input_error(2, "the block is larger than the padded image");
    axis.blocks = room / axis.stride + 1;
  }
  return axes;
}

template <class T>
void Fold(const T* columns, const std::vector<FoldAxis>& axes, int64_t planes, T* image) {
  using C = internal::ComputeType<T>;
  const size_t rank = axes.size();
  int64_t block_size = 1;
  int64_t positions = 1;
  int64_t image_size = 1;
  for (const FoldAxis& axis : axes) {
    block_size *= axis.block;
    positions *= axis.blocks;
    image_size *= axis.image;
  }
  std::vector<C> sums(static_cast<size_t>(image_size));
  std::vector<int64_t> k(rank);
  std::vector<int64_t> l(rank);
  for (int64_t plane = 0; plane < planes; ++plane) {
    std::fill(sums.begin(), sums.end(), C{});
    std::fill(k.begin(), k.end(), 0);
    for (int64_t offset = 0; offset < block_size; ++offset) {
      std::fill(l.begin(), l.end(), 0);
      const T* row = columns + (plane * block_size + offset) * positions;
      for (int64_t position = 0; position < positions; ++position) {
        int64_t at = 0;
        bool inside = true;
        for (size_t a = 0; a < rank && inside; ++a) {
          const int64_t i = l[a] * axes[a].stride - axes[a].pad + k[a] * axes[a].dilation;
          inside = i >= 0 && i < axes[a].image;
          at = at * axes[a].image + i;
        }
        if (inside) {
          C& sum = sums[static_cast<size_t>(at)];
          if constexpr (std::is_integral_v<C>) {
            sum = internal::WrapAdd(sum, static_cast<C>(internal::Load<T>(row[position])));
          } else {
            sum += static_cast<C>(internal::Load<T>(row[position]));
          }
        }
        for (size_t a = rank; a-- > 0;) {  // the next block position, row-major
          if (++l[a] < axes[a].blocks) break;
          l[a] = 0;
        }
      }
      for (size_t a = rank; a-- > 0;) {  // the next block offset, row-major
        if (++k[a] < axes[a].block) break;
        k[a] = 0;
      }
    }
    for (int64_t i = 0; i < image_size; ++i) {
      image[plane * image_size + i] = internal::Store<T>(sums[static_cast<size_t>(i)]);
    }
  }
}

KernelResult Col2ImKernel(const KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.rank() != 3) return ctx.input_error(0, absl::StrCat("has rank ", x.rank(), ", not 3"));
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<FoldAxis> axes, FoldGeometry(ctx));
  int64_t block_size = 1;
  int64_t positions = 1;
  Shape out_dims = {x.shape()[0], 0};
  for (const FoldAxis& axis : axes) {
    block_size *= axis.block;
    positions *= axis.blocks;
    out_dims.push_back(axis.image);
    if (block_size > kLargestExtent || positions > kLargestExtent) {
      return Decline("Col2Im geometry out of range");
    }
  }
  if (x.shape()[1] % block_size != 0) {
    return ctx.input_error(0, absl::StrCat("dim 1 (", x.shape()[1],
                                           ") is not a multiple of the block's size ", block_size));
  }
  if (x.shape()[2] != positions) {
    return ctx.input_error(
        0, absl::StrCat("dim 2 (", x.shape()[2], ") is not the ", positions, " block positions"));
  }
  out_dims[1] = x.shape()[1] / block_size;
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(x.dtype(), out_dims));
  if (out.size() == 0) return KernelOutputs{std::move(out).freeze()};
  std::optional<KernelResult> result;
  internal::DispatchNumeric(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    Fold(x.data<T>().data(), axes, out_dims[0] * out_dims[1], out.mutable_data<T>().data());
    result = KernelOutputs{std::move(out).freeze()};
  });
  if (!result.has_value()) return Decline("Col2Im of this element type");
  return *std::move(result);
}

}  // namespace

void RegisterCol2ImKernels(KernelTable& table) {
  // Sums wrap for the integers, as Add's do.
  table.add("", "Col2Im", 18, KernelTable::kLatest, {{"T", data_types::kNumeric}}, Col2ImKernel);
}

}  // namespace graphgc::kernels
