// The recurrent family: each op's registrations, all called from register.cc.
#ifndef GRAPHGC_OPSET_KERNELS_RECURRENT_RECURRENT_KERNELS_H_
#define GRAPHGC_OPSET_KERNELS_RECURRENT_RECURRENT_KERNELS_H_

#include "graphgc/opset/kernels/kernel_table.h"

namespace graphgc::kernels {

void RegisterRnnKernels(KernelTable& table);   // rnn.cc
void RegisterGruKernels(KernelTable& table);   // gru.cc
void RegisterLstmKernels(KernelTable& table);  // lstm.cc

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_RECURRENT_RECURRENT_KERNELS_H_
