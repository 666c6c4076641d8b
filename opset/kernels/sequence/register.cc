// The sequence family's registrations.
#include "graphgc/opset/kernels/builtin_kernels.h"
#include "graphgc/opset/kernels/sequence/sequence_kernels.h"

namespace graphgc::kernels {

void RegisterSequenceKernels(KernelTable& table) {
  RegisterSequenceOpKernels(table);
  RegisterSequenceSplitKernels(table);
  RegisterOptionalKernels(table);
}

}  // namespace graphgc::kernels
