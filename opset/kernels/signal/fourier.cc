// FourierTransform: radix-2 FFT for powers of two, Bluestein's algorithm for other lengths.
#include "graphgc/opset/kernels/signal/fourier.h"

#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"

namespace graphgc::kernels {
namespace {

constexpr double kPi = 3.14159265358979323846;

bool IsPowerOfTwo(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

int64_t PowerOfTwoAtLeast(int64_t n) {
  int64_t p = 1;
  while (p < n) p <<= 1;
  return p;
}

// exp(sign * pi * i * numerator / denominator), accurate for any numerator < 2 * denominator.
Complex Root(int64_t numerator, int64_t denominator, double sign) {
  const double angle =
      sign * kPi * static_cast<double>(numerator) / static_cast<double>(denominator);
  return Complex(std::cos(angle), std::sin(angle));
}

// The inverse transform as the forward one of the conjugates, conjugated back.
void Conjugate(Complex* data, int64_t n) {
  for (int64_t i = 0; i < n; ++i) data[i] = std::conj(data[i]);
}

}  // namespace

absl::StatusOr<FourierTransform> FourierTransform::Plan(const KernelContext& ctx, int64_t length,
                                                        bool inverse) {
  if (length < 1) return Decline("a Fourier transform of length 0");
  FourierTransform t(length, inverse);
  const bool bluestein = !IsPowerOfTwo(length);
  t.padded_ = bluestein ? PowerOfTwoAtLeast(2 * length - 1) : length;
  // roots, filter and work (padded_ each at most) and the chirp, as pairs of doubles.
  const int64_t doubles = 2 * (3 * t.padded_ + length);
  if (!ctx.within_budget(DataType::kDouble, doubles)) {
    return absl::ResourceExhaustedError(
        absl::StrCat("a Fourier transform of length ", length, " exceeds the value budget"));
  }
  t.roots_.resize(static_cast<size_t>(t.padded_ / 2));
  for (int64_t k = 0; k < t.padded_ / 2; ++k)
    t.roots_[static_cast<size_t>(k)] = Root(2 * k, t.padded_, -1);
  if (!bluestein) return t;
  // chirp[j] = exp(-pi i j^2 / n) (forward); j^2 is reduced mod 2n so the angle stays exact.
  t.chirp_.resize(static_cast<size_t>(length));
  for (int64_t j = 0; j < length; ++j) {
    const int64_t square = static_cast<int64_t>((static_cast<unsigned __int128>(j) * j) %
                                                static_cast<unsigned __int128>(2 * length));
    t.chirp_[static_cast<size_t>(j)] = Root(square, length, -1);
  }
  t.filter_.assign(static_cast<size_t>(t.padded_), Complex(0, 0));
  t.filter_[0] = std::conj(t.chirp_[0]);
  for (int64_t j = 1; j < length; ++j) {
    const Complex c = std::conj(t.chirp_[static_cast<size_t>(j)]);
    t.filter_[static_cast<size_t>(j)] = c;
    t.filter_[static_cast<size_t>(t.padded_ - j)] = c;
  }
  t.Radix2(t.filter_.data());
  t.work_.resize(static_cast<size_t>(t.padded_));
  return t;
}

void FourierTransform::Run(Complex* data) {
  if (inverse_) Conjugate(data, length_);
  if (padded_ == length_) {
    Radix2(data);
  } else {
    Bluestein(data);
  }
  if (inverse_) Conjugate(data, length_);
}

void FourierTransform::Radix2(Complex* data) const {
  const int64_t n = padded_;
  for (int64_t i = 1, j = 0; i < n; ++i) {  // bit-reversal permutation
    int64_t bit = n >> 1;
    for (; (j & bit) != 0; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(data[i], data[j]);
  }
  for (int64_t span = 2; span <= n; span <<= 1) {
    const int64_t half = span / 2;
    const int64_t step = n / span;
    for (int64_t start = 0; start < n; start += span) {
      for (int64_t k = 0; k < half; ++k) {
        const Complex u = data[start + k];
        const Complex v = data[start + k + half] * roots_[static_cast<size_t>(k * step)];
        data[start + k] = u + v;
        data[start + k + half] = u - v;
      }
    }
  }
}

// X[k] = chirp[k] * sum_j (x[j] chirp[j]) conj(chirp[k - j]), since 2jk = j^2 + k^2 - (k - j)^2:
// a circular convolution of padded_ >= 2n - 1 elements, by FFT.
void FourierTransform::Bluestein(Complex* data) {
  const int64_t n = length_;
  for (int64_t j = 0; j < n; ++j)
    work_[static_cast<size_t>(j)] = data[j] * chirp_[static_cast<size_t>(j)];
  std::fill(work_.begin() + n, work_.end(), Complex(0, 0));
  Radix2(work_.data());
  for (int64_t k = 0; k < padded_; ++k) {
    // The inverse FFT as the conjugate of the forward one of the conjugate.
    work_[static_cast<size_t>(k)] =
        std::conj(work_[static_cast<size_t>(k)] * filter_[static_cast<size_t>(k)]);
  }
  Radix2(work_.data());
  const double scale = 1.0 / static_cast<double>(padded_);
  for (int64_t k = 0; k < n; ++k) {
    data[k] = std::conj(work_[static_cast<size_t>(k)]) * scale * chirp_[static_cast<size_t>(k)];
  }
}

absl::StatusOr<int64_t> SingleInt64Input(const KernelContext& ctx, int index) {
  const Tensor& t = ctx.input(index);
  if (t.size() != 1) return Decline(absl::StrCat(ctx.input_label(index), " is not a single value"));
  return ReadInt64s(t)[0];
}

}  // namespace graphgc::kernels
