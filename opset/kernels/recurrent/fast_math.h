// Sigmoid and Tanh over float rows, four lanes at a time (GCC/Clang vector extensions, so the
// generic x86-64 build gets SSE code without intrinsics). The recurrent gates spend most of their
// time here: glibc's scalar tanhf and expf do not vectorize.
//
// exp is Cephes' expf (Cody-Waite range reduction, degree-6 polynomial, about 1 ulp), its input
// clamped to [-87.3, 88], where 2^n stays a normal float. Tanh is Cephes' tanhf: an odd polynomial
// below |x| = 0.625 (no cancellation near 0), 1 - 2 / (exp(2|x|) + 1) above, sign restored. Both
// stay within a few ulp of glibc (tests/kernels_recurrent_test.cc checks it), closer than
// ONNX Runtime's own approximations.
#ifndef GRAPHGC_OPSET_KERNELS_RECURRENT_FAST_MATH_H_
#define GRAPHGC_OPSET_KERNELS_RECURRENT_FAST_MATH_H_

#include <cstdint>
#include <cstring>

namespace graphgc::kernels::recurrent {

// Four lanes: one SSE register. Eight (two registers) spill on generic x86-64 and run slower.
using Float4 = float __attribute__((vector_size(16)));
using Int4 = int32_t __attribute__((vector_size(16)));

inline Float4 Broadcast(float v) { return Float4{} + v; }

inline Float4 Exp4(Float4 x) {
  x = x < Broadcast(-87.33654f) ? Broadcast(-87.33654f) : x;
  x = x > Broadcast(88.0f) ? Broadcast(88.0f) : x;
  // Round x / ln 2 to the nearest integer n: adding 1.5 * 2^23 leaves n in the low mantissa bits.
  const Float4 shifter = Broadcast(12582912.0f);
  const Float4 shifted = x * 1.44269504088896341f + shifter;
  const Float4 n = shifted - shifter;
  const Int4 n_bits = reinterpret_cast<Int4>(shifted) - reinterpret_cast<Int4>(shifter);
  const Float4 r = (x - n * 0.693359375f) - n * -2.12194440e-4f;
  Float4 p = Broadcast(1.9875691500e-4f);
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  const Int4 scale = (n_bits + 127) << 23;
  return p * reinterpret_cast<Float4>(scale);
}

inline Float4 Sigmoid4(Float4 x) { return 1.0f / (1.0f + Exp4(-x)); }

inline Float4 Tanh4(Float4 x) {
  const Float4 a = x < 0.0f ? -x : x;
  const Float4 z = x * x;
  Float4 p = Broadcast(-5.70498872745e-3f);
  p = p * z + 2.06390887954e-2f;
  p = p * z - 5.37397155531e-2f;
  p = p * z + 1.33314422036e-1f;
  p = p * z - 3.33332819422e-1f;
  const Float4 small = x + x * z * p;
  const Float4 large_abs = 1.0f - 2.0f / (Exp4(a + a) + 1.0f);
  const Float4 large = x < 0.0f ? -large_abs : large_abs;
  return a < 0.625f ? small : large;
}

// x[i] = f(x[i]) for a Float4 function f, the last partial group through a padded copy.
template <class F>
void Map4(float* x, int64_t n, F f) {
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    Float4 v;
    std::memcpy(&v, x + i, sizeof(v));
    v = f(v);
    std::memcpy(x + i, &v, sizeof(v));
  }
  if (i == n) return;
  Float4 v{};
  const size_t rest = static_cast<size_t>(n - i) * sizeof(float);
  std::memcpy(&v, x + i, rest);
  v = f(v);
  std::memcpy(x + i, &v, rest);
}

// Whether x[0..n) are all finite: x * 0 is NaN exactly for an infinity or a NaN, and a NaN stays
// in its lane's sum (the input checks run over every weight, so they should not cost a step).
inline bool AllFinite4(const float* x, int64_t n) {
  Float4 sum{};
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    Float4 v;
    std::memcpy(&v, x + i, sizeof(v));
    sum += v * 0.0f;
  }
  float total = sum[0] + sum[1] + sum[2] + sum[3];
  for (; i < n; ++i) total += x[i] * 0.0f;
  return total == 0.0f;
}

}  // namespace graphgc::kernels::recurrent

#endif  // GRAPHGC_OPSET_KERNELS_RECURRENT_FAST_MATH_H_
