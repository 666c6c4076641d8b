// The signal family's registrations (DFT, STFT, MelWeightMatrix). The windows (HannWindow,
// HammingWindow, BlackmanWindow) get their values from their function bodies.
#include "graphgc/opset/kernels/builtin_kernels.h"
#include "graphgc/opset/kernels/signal/signal_kernels.h"

namespace graphgc::kernels {

void RegisterSignalKernels(KernelTable& table) {
  RegisterDftKernels(table);
  RegisterStftKernels(table);
  RegisterMelWeightMatrixKernels(table);
}

}  // namespace graphgc::kernels
