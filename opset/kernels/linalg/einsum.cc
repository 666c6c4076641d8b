// Einsum: every equation ONNX allows (implicit and explicit outputs, ellipsis broadcasting,
// repeated labels taking diagonals, labels summed away).
//
// Each operand is first read into the work type with its diagonals taken and the labels no other
// operand nor the output needs summed away; the operands are then contracted left to right, each
// pair as one batched GEMM (batch labels, the left's own labels, the contracted labels, the
// right's own labels), permuting an operand only when its labels are not already in an order
// GEMM can read (transposed or not); the result is finally permuted into the output's order.
#include <algorithm>
#include <utility>
#include <vector>

#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/linalg/batched_gemm.h"
#include "graphgc/opset/kernels/linalg/einsum_plan.h"
#include "graphgc/opset/kernels/linalg/linalg_kernels.h"
#include "graphgc/opset/kernels/linalg/work_buffer.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels::linalg {
namespace {

using Labels = std::vector<int>;

bool Contains(const Labels& labels, int label) {
  return std::find(labels.begin(), labels.end(), label) != labels.end();
}

Labels Concat(std::initializer_list<const Labels*> parts) {
  Labels all;
  for (const Labels* part : parts) all.insert(all.end(), part->begin(), part->end());
  return all;
}

// dst[i] = convert(src[offset(i)]) over `dims` in row-major order, where offset(i) sums each
// axis's index times its stride in `strides`.
template <class Src, class Dst, class Convert>
void StridedCopy(const Src* src, absl::Span<const int64_t> dims, absl::Span<const int64_t> strides,
                 Dst* dst, Convert convert) {
  const int64_t total = Product(dims);
  if (total == 0) return;
  if (dims.empty()) {
    dst[0] = convert(src[0]);
    return;
  }
  const size_t rank = dims.size();
  const int64_t inner = dims[rank - 1];
  const int64_t step = strides[rank - 1];
  Shape index(rank, 0);
  int64_t offset = 0;
  for (int64_t done = 0; done < total; done += inner) {
    for (int64_t j = 0; j < inner; ++j) dst[done + j] = convert(src[offset + j * step]);
    for (size_t d = rank - 1; d-- > 0;) {
      offset += strides[d];
      if (++index[d] < dims[d]) break;
      offset -= strides[d] * dims[d];
      index[d] = 0;
    }
  }
}

// An operand in the work type: contiguous data whose axes carry distinct labels.
template <class W>
struct Operand {
  Labels labels;
  std::vector<W> data;
};

// The einsum's state: the plan, and the operands' labels as they are read (each operand's
// distinct labels, less those it only broadcasts).
template <class W>
class Contraction {
 public:
  Contraction(const KernelContext& ctx, const EinsumPlan& plan) : ctx_(ctx), plan_(plan) {}

  Shape Dims(const Labels& labels) const {
    Shape dims;
    for (int label : labels) dims.push_back(plan_.label_sizes[static_cast<size_t>(label)]);
    return dims;
  }

  // A zero-filled buffer for an operand of `labels`, within the value budget.
  absl::StatusOr<std::vector<W>> Allocate(const Labels& labels) const {
    absl::StatusOr<int64_t> count = ElementCount(Dims(labels));
    if (!count.ok()) return absl::ResourceExhaustedError(count.status().message());
    return Scratch<W>(ctx_, *count);
  }

  // `operand` with its axes in the order `order` (a permutation of its labels).
  absl::StatusOr<Operand<W>> Permute(Operand<W> operand, const Labels& order) const {
    if (operand.labels == order) return operand;
    const Shape dims = Dims(operand.labels);
    Shape strides(dims.size(), 1);
    for (size_t d = dims.size(); d-- > 1;) strides[d - 1] = strides[d] * dims[d];
    Shape order_strides;
    for (int label : order) {
      const size_t axis = static_cast<size_t>(
          std::find(operand.labels.begin(), operand.labels.end(), label) - operand.labels.begin());
      order_strides.push_back(strides[axis]);
    }
    GRAPHGC_ASSIGN_OR_RETURN(std::vector<W> data, Allocate(order));
    StridedCopy(operand.data.data(), Dims(order), order_strides, data.data(),
                [](W x) { return x; });
    return Operand<W>{order, std::move(data)};
  }

  // `operand` with the labels outside `keep` summed away (the kept ones keep their order).
  absl::StatusOr<Operand<W>> SumAllBut(Operand<W> operand, const Labels& keep) const {
    Labels kept, summed;
    for (int label : operand.labels) (Contains(keep, label) ? kept : summed).push_back(label);
    if (summed.empty()) return operand;
    GRAPHGC_ASSIGN_OR_RETURN(Operand<W> grouped,
                             Permute(std::move(operand), Concat({&kept, &summed})));
    GRAPHGC_ASSIGN_OR_RETURN(std::vector<W> sums, Allocate(kept));
    const int64_t inner = Product(Dims(summed));
    for (size_t o = 0; o < sums.size(); ++o) {
      W sum{0};
      const W* block = grouped.data.data() + static_cast<int64_t>(o) * inner;
      for (int64_t j = 0; j < inner; ++j) sum += block[j];
      sums[o] = sum;
    }
    return Operand<W>{kept, std::move(sums)};
  }

  // The distinct labels operand `input` is read with, in order of first appearance, and the
  // stride of each in the input: a repeated label is its diagonal (strides add up), and a size-1
  // dim whose label is larger elsewhere only broadcasts (it is left out).
  std::pair<Labels, Shape> ReadLabels(int input) const {
    const absl::Span<const int64_t> shape = ctx_.input(input).shape();
    const Labels& axes = plan_.operand_labels[static_cast<size_t>(input)];
    Shape strides(axes.size(), 1);
    for (size_t d = axes.size(); d-- > 1;) strides[d - 1] = strides[d] * shape[d];
    Labels labels;
    Shape label_strides;
    for (size_t axis = 0; axis < axes.size(); ++axis) {
      if (shape[axis] != plan_.label_sizes[static_cast<size_t>(axes[axis])]) continue;
      const auto at = std::find(labels.begin(), labels.end(), axes[axis]);
      if (at == labels.end()) {
        labels.push_back(axes[axis]);
        label_strides.push_back(strides[axis]);
      } else {
        label_strides[static_cast<size_t>(at - labels.begin())] += strides[axis];
      }
    }
    return {std::move(labels), std::move(label_strides)};
  }

  // Input `input` in the work type, with the labels in `needed` kept and the others summed.
  template <class T>
  absl::StatusOr<Operand<W>> Read(int input, const Labels& needed) const {
    auto [labels, strides] = ReadLabels(input);
    GRAPHGC_ASSIGN_OR_RETURN(std::vector<W> data, Allocate(labels));
    StridedCopy(ctx_.input(input).data<T>().data(), Dims(labels), strides, data.data(),
                [](T x) { return ToWork(x); });
    return SumAllBut(Operand<W>{std::move(labels), std::move(data)}, needed);
  }

  // The product of `a` and `b` summed over their shared labels outside `needed`.
  absl::StatusOr<Operand<W>> Multiply(Operand<W> a, Operand<W> b, const Labels& needed) const {
    Labels batch, shared, a_own, b_own;
    for (int label : a.labels) {
      if (!Contains(b.labels, label)) {
        a_own.push_back(label);
      } else {
        (Contains(needed, label) ? batch : shared).push_back(label);
      }
    }
    for (int label : b.labels) {
      if (!Contains(a.labels, label)) b_own.push_back(label);
    }
    GemmDims dims;
    dims.m = Product(Dims(a_own));
    dims.k = Product(Dims(shared));
    dims.n = Product(Dims(b_own));
    // Read each operand transposed where that spares a permutation.
    dims.trans_a = a.labels != Concat({&batch, &a_own, &shared}) &&
                   a.labels == Concat({&batch, &shared, &a_own});
    dims.trans_b = b.labels != Concat({&batch, &shared, &b_own}) &&
                   b.labels == Concat({&batch, &b_own, &shared});
    const Labels a_order = dims.trans_a ? a.labels : Concat({&batch, &a_own, &shared});
    const Labels b_order = dims.trans_b ? b.labels : Concat({&batch, &shared, &b_own});
    GRAPHGC_ASSIGN_OR_RETURN(a, Permute(std::move(a), a_order));
    GRAPHGC_ASSIGN_OR_RETURN(b, Permute(std::move(b), b_order));
    Operand<W> product{Concat({&batch, &a_own, &b_own}), {}};
    GRAPHGC_ASSIGN_OR_RETURN(product.data, Allocate(product.labels));
    const int64_t batches = Product(Dims(batch));
    std::vector<int64_t> a_offsets(static_cast<size_t>(batches)), b_offsets(a_offsets.size());
    for (int64_t t = 0; t < batches; ++t) {
      a_offsets[static_cast<size_t>(t)] = t * dims.m * dims.k;
      b_offsets[static_cast<size_t>(t)] = t * dims.k * dims.n;
    }
    BatchedGemm<W>(dims, W{1}, a.data.data(), a_offsets, b.data.data(), b_offsets, W{0},
                   product.data.data(), ctx_.threads());
    return product;
  }

  template <class T>
  KernelResult Run() const {
    const int inputs = ctx_.num_inputs();
    if (inputs == 0) return Decline("Einsum without operands");
    // needed_after[i]: the labels the output or operands after i still need.
    std::vector<Labels> needed_after(static_cast<size_t>(inputs));
    Labels needed = plan_.output_labels;
    for (int i = inputs - 1; i >= 0; --i) {
      needed_after[static_cast<size_t>(i)] = needed;
      const Labels labels = ReadLabels(i).first;
      for (int label : labels) {
        if (!Contains(needed, label)) needed.push_back(label);
      }
    }
    GRAPHGC_ASSIGN_OR_RETURN(Operand<W> result, Read<T>(0, needed_after[0]));
    for (int i = 1; i < inputs; ++i) {
      const Labels& later = needed_after[static_cast<size_t>(i)];
      Labels needed_here = later;
      needed_here.insert(needed_here.end(), result.labels.begin(), result.labels.end());
      GRAPHGC_ASSIGN_OR_RETURN(Operand<W> next, Read<T>(i, needed_here));
      GRAPHGC_ASSIGN_OR_RETURN(result, Multiply(std::move(result), std::move(next), later));
    }
    GRAPHGC_ASSIGN_OR_RETURN(result, SumAllBut(std::move(result), plan_.output_labels));
    return Write<T>(result);
  }

 private:
  // The result, permuted into the output's label order and converted to T.
  template <class T>
  KernelResult Write(const Operand<W>& result) const {
    GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out,
                             ctx_.allocate(ctx_.output(0).dtype, plan_.output_shape));
    const Shape dims = Dims(result.labels);
    Shape strides(dims.size(), 1);
    for (size_t d = dims.size(); d-- > 1;) strides[d - 1] = strides[d] * dims[d];
    Shape out_strides;
    for (int label : plan_.output_labels) {
      const auto at = std::find(result.labels.begin(), result.labels.end(), label);
      out_strides.push_back(
          at == result.labels.end() ? 0 : strides[static_cast<size_t>(at - result.labels.begin())]);
    }
    StridedCopy(result.data.data(), plan_.output_shape, out_strides, out.mutable_data<T>().data(),
                [](W x) { return FromWork<T>(x); });
    return KernelOutputs{std::move(out).freeze()};
  }

  const KernelContext& ctx_;
  const EinsumPlan& plan_;
};

// EinsumKernel's types: the numeric ones but bfloat16.
constexpr DataTypeSet kEinsumTypes = data_types::kNumeric.without({DataType::kBfloat16});

KernelResult EinsumKernel(const KernelContext& ctx) {
  std::vector<absl::Span<const int64_t>> shapes;
  for (int i = 0; i < ctx.num_inputs(); ++i) shapes.push_back(ctx.input(i).shape());
  GRAPHGC_ASSIGN_OR_RETURN(const EinsumPlan plan,
                           PlanEinsum(ctx, ctx.string_attribute("equation"), shapes));
  KernelResult result = Decline("Einsum of this element type");
  internal::DispatchNumeric(ctx.input(0).dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, BFloat16>) {
      result = Contraction<WorkType<T>>(ctx, plan).template Run<T>();
    }
  });
  return result;
}

}  // namespace
}  // namespace graphgc::kernels::linalg

namespace graphgc::kernels {

void RegisterEinsumKernels(KernelTable& table) {
  table.add("", "Einsum", 12, KernelTable::kLatest, {{"T", linalg::kEinsumTypes}},
            linalg::EinsumKernel);
}

}  // namespace graphgc::kernels
