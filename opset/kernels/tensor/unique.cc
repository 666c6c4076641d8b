// Unique: the distinct elements of the flattened input, or the distinct slices along `axis`,
// sorted ascending (slices lexicographically) or in order of first occurrence; with the index of
// each one's first occurrence, each input element's (slice's) position among them, and counts.
// Inputs holding NaN decline: ONNX leaves NaN's equality open and runtimes differ.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/tensor/tensor_kernels.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

// The input seen as [outer, extent, inner]: the candidates are the `extent` slices.
struct Slices {
  int64_t outer = 1;
  int64_t extent = 0;
  int64_t inner = 1;
};

// The distinct slices: each one's first occurrence and count, and each slice's group.
struct Groups {
  std::vector<int64_t> first;
  std::vector<int64_t> counts;
  std::vector<int64_t> inverse;
};

// What elements compare as: 16-bit floats as float, others as themselves (strings not copied).
template <class T>
decltype(auto) SortKey(const T& value) {
  if constexpr (internal::kIsHalf<T>) {
    return value.ToFloat();
  } else {
    return (value);
  }
}

template <class T>
Groups GroupSlices(const T* values, const Slices& s, bool sorted) {
  // Slices compare element by element, in row-major order, as values of T.
  auto less = [&](int64_t a, int64_t b) {
    for (int64_t o = 0; o < s.outer; ++o) {
      const T* x = values + (o * s.extent + a) * s.inner;
      const T* y = values + (o * s.extent + b) * s.inner;
      for (int64_t i = 0; i < s.inner; ++i) {
        const auto& u = SortKey(x[i]);
        const auto& v = SortKey(y[i]);
        if (u < v) return true;
        if (v < u) return false;
      }
    }
    return false;
  };
  std::vector<int64_t> order(static_cast<size_t>(s.extent));
  std::iota(order.begin(), order.end(), int64_t{0});
  std::stable_sort(order.begin(), order.end(), less);  // equal slices keep their input order
  Groups groups;
  groups.inverse.resize(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    if (i == 0 || less(order[i - 1], order[i])) {
      groups.first.push_back(order[i]);
      groups.counts.push_back(0);
    }
    groups.inverse[static_cast<size_t>(order[i])] = static_cast<int64_t>(groups.first.size()) - 1;
    ++groups.counts.back();
  }
  if (!sorted) {  // groups in order of first occurrence
    std::vector<int64_t> by_first(groups.first.size());
    std::iota(by_first.begin(), by_first.end(), int64_t{0});
    std::sort(by_first.begin(), by_first.end(), [&](int64_t a, int64_t b) {
      return groups.first[static_cast<size_t>(a)] < groups.first[static_cast<size_t>(b)];
    });
    std::vector<int64_t> rank_of(by_first.size());
    Groups reordered;
    for (size_t r = 0; r < by_first.size(); ++r) {
      rank_of[static_cast<size_t>(by_first[r])] = static_cast<int64_t>(r);
      reordered.first.push_back(groups.first[static_cast<size_t>(by_first[r])]);
      reordered.counts.push_back(groups.counts[static_cast<size_t>(by_first[r])]);
    }
    for (int64_t& g : groups.inverse) g = rank_of[static_cast<size_t>(g)];
    reordered.inverse = std::move(groups.inverse);
    groups = std::move(reordered);
  }
  return groups;
}

template <class T>
bool HasNaN(absl::Span<const T> values) {
  if constexpr (std::is_floating_point_v<internal::ComputeType<T>>) {
    return std::any_of(values.begin(), values.end(),
                       [](const T& v) { return std::isnan(SortKey(v)); });
  } else {
    return false;
  }
}

Tensor Int64Vector(std::vector<int64_t> values) {
  return Tensor::from_vector<int64_t>(std::move(values));
}

template <class T>
KernelResult UniqueOf(const KernelContext& ctx) {
  const Tensor& input = ctx.input(0);
  if (HasNaN(input.data<T>())) return Decline("Unique of values holding NaN");
  Slices s{1, input.size(), 1};
  Shape out_dims;
  size_t axis_k = 0;
  const bool has_axis = ctx.has_attribute("axis");
  if (has_axis) {
    GRAPHGC_ASSIGN_OR_RETURN(const int64_t axis,
                             NormalizeAxis(ctx, "axis", ctx.int_attribute("axis"), input.rank()));
    axis_k = static_cast<size_t>(axis);
    s = Slices{Product(input.shape().subspan(0, axis_k)), input.shape()[axis_k],
               Product(input.shape().subspan(axis_k + 1))};
    out_dims.assign(input.shape().begin(), input.shape().end());
  }
  if (!ctx.within_budget(DataType::kInt64, 3 * s.extent)) {
    return absl::ResourceExhaustedError("Unique's temporaries exceed the value budget");
  }
  Groups groups = GroupSlices(input.data<T>().data(), s, ctx.int_attribute("sorted", 1) != 0);
  const int64_t distinct = static_cast<int64_t>(groups.first.size());
  if (has_axis) {
    out_dims[axis_k] = distinct;
  } else {
    out_dims = {distinct};
  }
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor unique, ctx.allocate(input.dtype(), out_dims));
  int64_t position = 0;
  for (int64_t o = 0; o < s.outer; ++o) {
    for (int64_t first : groups.first) {
      CopyElements(input, (o * s.extent + first) * s.inner, unique, position, s.inner);
      position += s.inner;
    }
  }
  KernelOutputs outputs = {std::move(unique).freeze(), Int64Vector(std::move(groups.first)),
                           Int64Vector(std::move(groups.inverse)),
                           Int64Vector(std::move(groups.counts))};
  outputs.resize(static_cast<size_t>(ctx.num_outputs()));
  return outputs;
}

KernelResult UniqueKernel(const KernelContext& ctx) {
  return DispatchByType(ctx.input(0).dtype(),
                        [&](auto tag) { return UniqueOf<typename decltype(tag)::type>(ctx); });
}

}  // namespace

void RegisterUniqueKernels(KernelTable& table) {
  // DispatchByType: the numeric types, bool and string.
  table.add("", "Unique", 11, KernelTable::kLatest, {{"T", data_types::kAll}}, UniqueKernel);
}

}  // namespace graphgc::kernels
