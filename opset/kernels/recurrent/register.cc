// The recurrent family's registrations (RNN, GRU, LSTM).
#include "graphgc/opset/kernels/builtin_kernels.h"

namespace graphgc::kernels {

void RegisterRecurrentKernels(KernelTable& table) { (void)table; }

}  // namespace graphgc::kernels
