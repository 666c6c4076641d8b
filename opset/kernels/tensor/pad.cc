// Pad: grows (positive pads) or crops (negative pads) each dim at both ends. pads is
// [x1_begin, x2_begin, ..., x1_end, x2_end, ...]: an attribute before opset 11 (with a float
// `value`), an input from 11 (with an optional constant_value input); from opset 18 an optional
// `axes` input names the dims pads lists (the others are not padded). Crops apply first, then
// the padding, as in ONNX Runtime; `mode` fills the padding with the constant, the nearest edge
// element, the elements mirrored about the edge (reflect), or, from opset 19, the elements of
// the far side as if the dim repeated (wrap, periodic however wide the padding: numpy's and
// ONNX Runtime's).
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/tensor/tensor_kernels.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

enum class PadMode { kConstant, kReflect, kEdge, kWrap };  // as listed to ChooseAttribute

// For each output position along one dim, the input position it copies, or -1 for the constant.
using AxisMap = std::vector<int64_t>;

// The constant as a one-element tensor of the data's type: the constant_value input (opset 11
// on; zero, "" or false when omitted) or the float `value` attribute (before 11).
absl::StatusOr<Tensor> ReadConstant(const KernelContext& ctx, DataType dtype) {
  if (ctx.version() >= 11) {
    const Tensor* value = ctx.optional_input(2);
    if (value == nullptr) {
      // float8e8m0 (powers of two) has no zero to pad with; its pattern 0 is 2^-127.
      if (dtype == DataType::kFloat8E8M0) return Decline("Pad of float8e8m0 without a value");
      return Tensor::zeros(dtype, {});
    }
    if (value->size() != 1) return ctx.input_error(2, "must hold one element");
    return *value;
  }
  const float value = ctx.float_attribute("value", 0.0f);
  std::optional<Tensor> out;
  internal::DispatchNumeric(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    out = Tensor::scalar<T>(internal::Store<T>(static_cast<internal::ComputeType<T>>(value)));
  });
  if (!out.has_value()) return Decline("Pad of this element type");
  return *std::move(out);
}

// The map of one dim of extent `dim` padded by `begin` and `end` (negative: cropped).
absl::StatusOr<AxisMap> MapAxis(const KernelContext& ctx, PadMode mode, int64_t dim, int64_t begin,
                                int64_t end) {
  const int64_t first = std::max<int64_t>(0, -begin);  // the cropped input range [first, last)
  const int64_t last = dim - std::max<int64_t>(0, -end);
  const int64_t kept = last - first;
  const int64_t before = std::max<int64_t>(0, begin);
  const int64_t after = std::max<int64_t>(0, end);
  if (kept < 0) {
    return ctx.input_error(
        ctx.version() >= 11 ? 1 : 0,
        absl::StrCat("pads ", begin, ", ", end, " crop more than a dim of ", dim));
  }
  if (mode != PadMode::kConstant && (before > 0 || after > 0)) {
    if (kept == 0) return Decline("edge or reflect padding of an empty dim");
    // Beyond kept - 1 ONNX Runtime reads outside the input; numpy reflects again.
    if (mode == PadMode::kReflect && std::max(before, after) > kept - 1) {
      return Decline("reflect padding wider than the dim");
    }
  }
  // The map has an entry per output position (the guard also keeps the sum from overflowing).
  if (before > ctx.max_value_bytes() || after > ctx.max_value_bytes() ||
      !ctx.within_budget(DataType::kInt64, before + kept + after)) {
    return absl::ResourceExhaustedError("Pad output dims past the value budget");
  }
  AxisMap map(static_cast<size_t>(before + kept + after));
  for (int64_t o = 0; o < static_cast<int64_t>(map.size()); ++o) {
    int64_t j = o - before;  // position within the kept range
    if (j < 0 || j >= kept) {
      if (mode == PadMode::kConstant) {
        map[static_cast<size_t>(o)] = -1;
        continue;
      }
      if (mode == PadMode::kEdge) {
        j = std::clamp<int64_t>(j, 0, kept - 1);
      } else if (mode == PadMode::kWrap) {
        j = (j % kept + kept) % kept;
      } else {
        j = j < 0 ? -j : 2 * (kept - 1) - j;
      }
    }
    map[static_cast<size_t>(o)] = first + j;
  }
  return map;
}

// out[o_0, ..., o_last] = data[map_0[o_0], ..., map_last[o_last]], or the constant where a map
// gives -1. Rank 1 or more.
template <class T>
void FillPadded(const T* data, absl::Span<const int64_t> data_dims,
                const std::vector<AxisMap>& maps, const T& constant, T* out) {
  const size_t rank = maps.size();
  const Shape strides = ContiguousStrides(data_dims);
  const AxisMap& inner = maps[rank - 1];
  const int64_t cols = static_cast<int64_t>(inner.size());
  std::vector<int64_t> position(rank - 1, 0);
  int64_t rows = 1;
  for (size_t k = 0; k + 1 < rank; ++k) rows *= static_cast<int64_t>(maps[k].size());
  for (int64_t row = 0; row < rows; ++row, out += cols) {
    int64_t base = 0;
    bool constant_row = false;
    for (size_t k = 0; k + 1 < rank; ++k) {
      const int64_t from = maps[k][static_cast<size_t>(position[k])];
      constant_row = constant_row || from < 0;
      base += from * strides[k];
    }
    if (constant_row) {
      std::fill_n(out, cols, constant);
    } else {
      for (int64_t j = 0; j < cols; ++j) {
        const int64_t from = inner[static_cast<size_t>(j)];
        out[j] = from < 0 ? constant : data[base + from];
      }
    }
    for (size_t k = rank - 1; k-- > 0;) {  // the next row
      if (++position[k] < static_cast<int64_t>(maps[k].size())) break;
      position[k] = 0;
    }
  }
}

// The dims pads lists: the axes input (opset 18 on), else every dim in order.
absl::StatusOr<std::vector<int64_t>> PaddedAxes(const KernelContext& ctx, int64_t rank) {
  const Tensor* axes = ctx.version() >= 18 ? ctx.optional_input(3) : nullptr;
  if (axes == nullptr) {
    std::vector<int64_t> every(static_cast<size_t>(rank));
    for (int64_t d = 0; d < rank; ++d) every[static_cast<size_t>(d)] = d;
    return every;
  }
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<int64_t> listed, ReadIndices(ctx, 3, *axes, rank));
  // The spec leaves a repeated axis undefined.
  if (RepeatedAxis(listed, rank).has_value()) return ctx.input_error(3, "repeats an axis");
  return listed;
}

// The pads of every dim, begin then end, from pads over `axes`.
absl::StatusOr<std::vector<int64_t>> PadsPerDim(const KernelContext& ctx, int64_t rank) {
  const std::vector<int64_t> pads =
      ctx.version() >= 11 ? ReadInt64s(ctx.input(1))
                          : ctx.ints_attribute("pads").value_or(std::vector<int64_t>());
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<int64_t> axes, PaddedAxes(ctx, rank));
  const size_t count = axes.size();
  if (pads.size() != 2 * count) {
    const std::string why =
        absl::StrCat("has ", pads.size(), " values for ", count, " padded dims (2 per dim)");
    if (ctx.version() >= 11) return ctx.input_error(1, why);
    return absl::InvalidArgumentError(absl::StrCat("attribute 'pads' ", why));
  }
  std::vector<int64_t> per_dim(static_cast<size_t>(2 * rank), 0);
  for (size_t i = 0; i < count; ++i) {
    per_dim[static_cast<size_t>(axes[i])] = pads[i];
    per_dim[static_cast<size_t>(axes[i] + rank)] = pads[count + i];
  }
  return per_dim;
}

KernelResult PadKernel(const KernelContext& ctx) {
  const Tensor& data = ctx.input(0);
  const int64_t rank = data.rank();
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<int64_t> pads, PadsPerDim(ctx, rank));
  const size_t mode_count = ctx.version() >= 19 ? 4 : 3;  // wrap from opset 19
  const absl::string_view modes[] = {"constant", "reflect", "edge", "wrap"};
  GRAPHGC_ASSIGN_OR_RETURN(
      const size_t mode_index,
      ChooseAttribute(ctx, "mode", "constant", absl::MakeConstSpan(modes, mode_count)));
  const auto mode = static_cast<PadMode>(mode_index);
  GRAPHGC_ASSIGN_OR_RETURN(const Tensor constant, ReadConstant(ctx, data.dtype()));
  std::vector<AxisMap> maps;
  Shape out_dims;
  for (int64_t d = 0; d < rank; ++d) {
    GRAPHGC_ASSIGN_OR_RETURN(
        AxisMap map, MapAxis(ctx, mode, data.shape()[static_cast<size_t>(d)],
                             pads[static_cast<size_t>(d)], pads[static_cast<size_t>(d + rank)]));
    out_dims.push_back(static_cast<int64_t>(map.size()));
    maps.push_back(std::move(map));
  }
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(data.dtype(), out_dims));
  if (rank == 0) {
    CopyElements(data, 0, out, 0, 1);
  } else if (out.size() > 0) {
    DispatchByElementSize(data.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      FillPadded(ElementsOf<T>(data), data.shape(), maps, ElementsOf<T>(constant)[0],
                 MutableElementsOf<T>(out));
    });
  }
  return KernelOutputs{std::move(out).freeze()};
}

}  // namespace

void RegisterPadKernels(KernelTable& table) {
  // Every type, the narrow ones too (elements are moved by their size); before opset 11 the float
  // `value` attribute fills the numeric types only (a constant padding of another type declines).
  // Opset 18 adds the axes input, 19 the mode "wrap"; 21, 23 and 24 only element types.
  // One kernel; a range per version that changed what it reads (ctx.version() tells them apart).
  const KernelTypes types = {{"T", data_types::kMovable}};
  table.add("", "Pad", 2, 17, types, PadKernel);
  table.add("", "Pad", 18, 18, types, PadKernel);
  table.add("", "Pad", 19, KernelTable::kLatest, types, PadKernel);
}

}  // namespace graphgc::kernels
