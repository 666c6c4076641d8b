#include "graphgc/opset/kernels/math/elementwise.h"

#include <limits>
#include <type_traits>

#include "graphgc/opset/kernels/common/broadcast.h"
#include "graphgc/opset/kernels/common/dispatch.h"

namespace graphgc::internal {
namespace {

template <class T>
struct AddFn {
  T operator()(T a, T b) const { return WrapAdd(a, b); }
};
template <class T>
struct SubFn {
  T operator()(T a, T b) const { return WrapSub(a, b); }
};
template <class T>
struct MulFn {
  T operator()(T a, T b) const { return WrapMul(a, b); }
};
template <class T>
struct DivFn {
  T operator()(T a, T b) const {
    if constexpr (std::is_signed_v<T> && std::is_integral_v<T>) {
      // The one overflowing quotient wraps, like the other integer ops.
      if (b == -1) return WrapSub(T{0}, a);
    }
    return a / b;
  }
};

template <class T>
bool HasZero(const T* data, int64_t count) {
  for (int64_t i = 0; i < count; ++i) {
    if (data[i] == T{0}) return true;
  }
  return false;
}

// out[i] = f(a[ia], b[ib]) over the broadcast index space, innermost dim in a tight loop.
template <class T, class F>
void BroadcastLoop(const T* a, const T* b, T* out, absl::Span<const int64_t> a_shape,
                   absl::Span<const int64_t> b_shape, absl::Span<const int64_t> out_shape, F f) {
  const int64_t total = [&] {
    int64_t n = 1;
    for (int64_t d : out_shape) n *= d;
    return n;
  }();
  if (total == 0) return;
  const int rank = static_cast<int>(out_shape.size());
  if (rank == 0) {
    out[0] = Store<T>(f(Load(a[0]), Load(b[0])));
    return;
  }
  const Shape sa = BroadcastStrides(a_shape, out_shape);
  const Shape sb = BroadcastStrides(b_shape, out_shape);
  const int64_t inner = out_shape[rank - 1];
  const int64_t ia_step = sa[rank - 1];
  const int64_t ib_step = sb[rank - 1];
  Shape index(rank, 0);
  int64_t ia = 0, ib = 0;
  for (int64_t done = 0; done < total; done += inner) {
    for (int64_t j = 0; j < inner; ++j) {
      out[done + j] = Store<T>(f(Load(a[ia + j * ia_step]), Load(b[ib + j * ib_step])));
    }
    // Advance the odometer over the outer dims.
    for (int d = rank - 2; d >= 0; --d) {
      ia += sa[d];
      ib += sb[d];
      if (++index[d] < out_shape[d]) break;
      ia -= sa[d] * out_shape[d];
      ib -= sb[d] * out_shape[d];
      index[d] = 0;
    }
  }
}

// Same shapes: one flat loop the compiler vectorizes. The output is a fresh buffer, so it never
// aliases an input (__restrict spares the vectorizer its run-time overlap checks).
template <class T, class F>
void FlatLoop(const T* a, const T* b, T* __restrict out, int64_t count, F f) {
  if (a == b) {  // x op x (the seed chain squares): one load per element instead of two
    for (int64_t i = 0; i < count; ++i) {
      const auto x = Load(a[i]);
      out[i] = Store<T>(f(x, x));
    }
    return;
  }
  for (int64_t i = 0; i < count; ++i) out[i] = Store<T>(f(Load(a[i]), Load(b[i])));
}

template <class T, template <class> class Fn>
std::optional<Tensor> Binary(const Tensor& a, const Tensor& b, absl::Span<const int64_t> out_shape) {
  auto out = MutableTensor::allocate(a.dtype(), out_shape);
  if (!out.ok()) return std::nullopt;
  const T* pa = a.data<T>().data();
  const T* pb = b.data<T>().data();
  T* po = out->mutable_data<T>().data();
  Fn<ComputeType<T>> f;
  if (a.shape() == b.shape()) {
    FlatLoop(pa, pb, po, out->size(), f);
  } else {
    BroadcastLoop(pa, pb, po, a.shape(), b.shape(), out_shape, f);
  }
  return std::move(*out).freeze();
}

template <class T>
std::optional<Tensor> BinaryOfType(BinaryOp op, const Tensor& a, const Tensor& b,
                                   absl::Span<const int64_t> out_shape) {
  switch (op) {
    case BinaryOp::kAdd: return Binary<T, AddFn>(a, b, out_shape);
    case BinaryOp::kSub: return Binary<T, SubFn>(a, b, out_shape);
    case BinaryOp::kMul: return Binary<T, MulFn>(a, b, out_shape);
    case BinaryOp::kDiv:
      if constexpr (std::is_integral_v<T>) {
        if (HasZero(b.data<T>().data(), b.size())) return std::nullopt;
      }
      return Binary<T, DivFn>(a, b, out_shape);
  }
  return std::nullopt;
}

template <class T>
ComputeType<T> Negate(ComputeType<T> x) {
  if constexpr (std::is_integral_v<T>) {
    return WrapSub(T{0}, x);
  } else {
    return -x;
  }
}

template <class T>
ComputeType<T> Rectify(ComputeType<T> x) {
  return x < ComputeType<T>{0} ? ComputeType<T>{0} : x;  // NaN stays NaN
}

template <class T>
std::optional<Tensor> UnaryOfType(UnaryOp op, const Tensor& x) {
  auto out = MutableTensor::allocate(x.dtype(), x.shape());
  if (!out.ok()) return std::nullopt;
  const T* px = x.data<T>().data();
  T* po = out->mutable_data<T>().data();
  const int64_t n = x.size();
  if (op == UnaryOp::kNeg) {
    for (int64_t i = 0; i < n; ++i) po[i] = Store<T>(Negate<T>(Load(px[i])));
  } else {
    for (int64_t i = 0; i < n; ++i) po[i] = Store<T>(Rectify<T>(Load(px[i])));
  }
  return std::move(*out).freeze();
}

}  // namespace

std::optional<Tensor> ComputeBinary(BinaryOp op, const Tensor& a, const Tensor& b,
                                    absl::Span<const int64_t> out_shape) {
  std::optional<Tensor> result;
  DispatchNumeric(a.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    result = BinaryOfType<T>(op, a, b, out_shape);
  });
  return result;
}

std::optional<Tensor> ComputeUnary(UnaryOp op, const Tensor& x) {
  std::optional<Tensor> result;
  DispatchNumeric(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    result = UnaryOfType<T>(op, x);
  });
  return result;
}

}  // namespace graphgc::internal
