// The signal family's registrations (DFT, STFT, windows, MelWeightMatrix).
#include "graphgc/opset/kernels/builtin_kernels.h"

namespace graphgc::kernels {

void RegisterSignalKernels(KernelTable& table) { (void)table; }

}  // namespace graphgc::kernels
