// FourierTransform: the 1-D discrete Fourier transform of one length, planned once and run on
// many lanes (DFT's lanes along an axis, STFT's frames):
//
//   X[k] = sum_j x[j] * exp(-+2 pi i j k / n)     (- forward, + inverse; never scaled)
//
// computed in double. Power-of-two lengths run a radix-2 FFT; other lengths Bluestein's chirp-z
// algorithm (the transform as a convolution, done by radix-2 FFTs of a padded power-of-two
// length), so every length costs O(n log n) and stays accurate to double rounding.
//
// Also the helpers both kernels share: reading samples of a real ([.., 1]) or complex ([.., 2])
// signal into complex numbers, writing a spectrum as [.., 2] pairs, and reading their
// single-valued integer inputs (dft_length, frame_step, frame_length).
#ifndef GRAPHGC_OPSET_KERNELS_SIGNAL_FOURIER_H_
#define GRAPHGC_OPSET_KERNELS_SIGNAL_FOURIER_H_

#include <complex>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/kernel.h"

namespace graphgc::kernels {

using Complex = std::complex<double>;

class FourierTransform {
 public:
  // A transform of `length` (> 0) samples; kResourceExhausted when its tables exceed the budget.
  static absl::StatusOr<FourierTransform> Plan(const KernelContext& ctx, int64_t length,
                                               bool inverse);

  int64_t length() const { return length_; }
  // Transforms data[0 .. length) in place (unscaled).
  void Run(Complex* data);

 private:
  FourierTransform(int64_t length, bool inverse) : length_(length), inverse_(inverse) {}
  // The forward radix-2 FFT of padded_ (a power of two) elements, in place.
  void Radix2(Complex* data) const;
  void Bluestein(Complex* data);

  int64_t length_;
  bool inverse_;
  int64_t padded_ = 0;           // the radix-2 length: length_, or >= 2 * length_ - 1
  std::vector<Complex> roots_;   // exp(-2 pi i k / padded_), k < padded_ / 2
  std::vector<Complex> chirp_;   // Bluestein: exp(-+pi i j^2 / n), j < n
  std::vector<Complex> filter_;  // Bluestein: the FFT of the conjugate chirp, wrapped around
  std::vector<Complex> work_;    // Bluestein: padded_ elements
};

// The value of integer input `index`, or Decline when it does not hold exactly one value.
absl::StatusOr<int64_t> SingleInt64Input(const KernelContext& ctx, int index);

// Samples j < count of a signal whose complex elements are `stride` apart (each `components`
// values: 1 real, 2 real and imaginary), multiplied by window[j] when a window is given, into
// lane[0 .. count); lane[count .. length) zero.
template <class T>
void LoadLane(const T* signal, int64_t stride, int64_t components, int64_t count,
              const std::vector<double>* window, Complex* lane, int64_t length) {
  for (int64_t j = 0; j < count; ++j) {
    const T* sample = signal + j * stride * components;
    Complex value(static_cast<double>(internal::Load(sample[0])),
                  components == 2 ? static_cast<double>(internal::Load(sample[1])) : 0.0);
    if (window != nullptr) value *= (*window)[static_cast<size_t>(j)];
    lane[j] = value;
  }
  for (int64_t j = count; j < length; ++j) lane[j] = Complex(0, 0);
}

// lane[0 .. count) times `scale` as (real, imaginary) pairs `stride` complex elements apart.
template <class T>
void StoreLane(const Complex* lane, int64_t count, double scale, T* out, int64_t stride) {
  using C = internal::ComputeType<T>;
  for (int64_t k = 0; k < count; ++k) {
    out[k * stride * 2] = internal::Store<T>(static_cast<C>(lane[k].real() * scale));
    out[k * stride * 2 + 1] = internal::Store<T>(static_cast<C>(lane[k].imag() * scale));
  }
}

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_SIGNAL_FOURIER_H_
