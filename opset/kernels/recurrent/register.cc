// The recurrent family's registrations (RNN, GRU, LSTM).
#include "graphgc/opset/kernels/builtin_kernels.h"
#include "graphgc/opset/kernels/recurrent/recurrent_kernels.h"

namespace graphgc::kernels {

void RegisterRecurrentKernels(KernelTable& table) {
  RegisterRnnKernels(table);
  RegisterGruKernels(table);
  RegisterLstmKernels(table);
}

}  // namespace graphgc::kernels
