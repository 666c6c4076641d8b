// Elements in the type products are computed in (WorkType, batched_gemm.h): conversions in both
// directions, scratch buffers sized within the value budget, and read-only views of an input that
// convert only when the element type cannot be read in place.
#ifndef GRAPHGC_OPSET_KERNELS_LINALG_WORK_BUFFER_H_
#define GRAPHGC_OPSET_KERNELS_LINALG_WORK_BUFFER_H_

#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/kernel.h"
#include "graphgc/opset/kernels/linalg/batched_gemm.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::kernels::linalg {

template <class T>
WorkType<T> ToWork(T value) {
  if constexpr (internal::kIsHalf<T>) {
    return value.ToFloat();
  } else {
    return static_cast<WorkType<T>>(value);  // integers: modulo 2^bits, so signs survive the trip
  }
}

template <class T>
T FromWork(WorkType<T> value) {
  if constexpr (internal::kIsHalf<T>) {
    return T::FromFloat(value);
  } else {
    return static_cast<T>(value);  // integers: the low bits, i.e. the wrapped result
  }
}

// A zero-filled buffer of `count` elements, or kResourceExhausted past the value budget.
template <class W>
absl::StatusOr<std::vector<W>> Scratch(const KernelContext& ctx, int64_t count) {
  if (!ctx.within_budget(DataTypeOf<W>::value, count)) {
    return absl::ResourceExhaustedError(
        absl::StrCat("a temporary of ", count, " elements exceeds the value budget"));
  }
  return std::vector<W>(static_cast<size_t>(count));
}

// A tensor's elements as WorkType<T>: the tensor's own buffer when it can be read in place,
// otherwise a converted copy (counted against the value budget).
template <class T>
class WorkView {
 public:
  using W = WorkType<T>;

  static absl::StatusOr<WorkView> Of(const KernelContext& ctx, const Tensor& tensor) {
    WorkView view;
    const T* data = tensor.data<T>().data();
    if constexpr (kComputesInPlace<T>) {
      view.data_ = reinterpret_cast<const W*>(data);
    } else {
      absl::StatusOr<std::vector<W>> copy = Scratch<W>(ctx, tensor.size());
      if (!copy.ok()) return copy.status();
      view.copy_ = *std::move(copy);
      for (int64_t i = 0; i < tensor.size(); ++i)
        view.copy_[static_cast<size_t>(i)] = ToWork(data[i]);
      view.data_ = view.copy_.data();
    }
    return view;
  }

  const W* data() const { return data_; }

 private:
  std::vector<W> copy_;
  const W* data_ = nullptr;
};

// Where a product of T is written: straight into the output's buffer when T is computed in
// place, otherwise into a scratch buffer that finish() converts into the output.
template <class T>
class WorkOutput {
 public:
  using W = WorkType<T>;

  static absl::StatusOr<WorkOutput> Of(const KernelContext& ctx, MutableTensor& out) {
    WorkOutput result;
    result.out_ = out.mutable_data<T>().data();
    result.count_ = out.size();
    if constexpr (kComputesInPlace<T>) {
      result.data_ = reinterpret_cast<W*>(result.out_);
    } else {
      absl::StatusOr<std::vector<W>> scratch = Scratch<W>(ctx, out.size());
      if (!scratch.ok()) return scratch.status();
      result.scratch_ = *std::move(scratch);
      result.data_ = result.scratch_.data();
    }
    return result;
  }

  W* data() { return data_; }

  void finish() {
    if constexpr (!kComputesInPlace<T>) {
      for (int64_t i = 0; i < count_; ++i) out_[i] = FromWork<T>(data_[i]);
    }
  }

 private:
  std::vector<W> scratch_;
  T* out_ = nullptr;
  W* data_ = nullptr;
  int64_t count_ = 0;
};

}  // namespace graphgc::kernels::linalg

#endif  // GRAPHGC_OPSET_KERNELS_LINALG_WORK_BUFFER_H_
