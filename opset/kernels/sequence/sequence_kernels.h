// The sequence family: ops on sequences and optionals of tensors, as value kernels (kernel.h).
// Each concept's registrations, all called from register.cc.
#ifndef GRAPHGC_OPSET_KERNELS_SEQUENCE_SEQUENCE_KERNELS_H_
#define GRAPHGC_OPSET_KERNELS_SEQUENCE_SEQUENCE_KERNELS_H_

#include "graphgc/opset/kernels/kernel_table.h"

namespace graphgc::kernels {

void RegisterSequenceOpKernels(KernelTable& table);     // sequence_ops.cc: construct, at, insert...
void RegisterSequenceSplitKernels(KernelTable& table);  // split_concat.cc: SplitToSequence, Concat
void RegisterOptionalKernels(KernelTable& table);       // optional_ops.cc: Optional, Has, Get

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_SEQUENCE_SEQUENCE_KERNELS_H_
