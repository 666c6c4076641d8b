// The pool family's registrations (average, max, Lp and global pooling, MaxUnpool, MaxRoiPool,
// RoiAlign).
#include "graphgc/opset/kernels/builtin_kernels.h"
#include "graphgc/opset/kernels/pool/pool_kernels.h"

namespace graphgc::kernels {

void RegisterPoolKernels(KernelTable& table) {
  RegisterWindowPoolKernels(table);
  RegisterGlobalPoolKernels(table);
  RegisterMaxUnpoolKernels(table);
  RegisterMaxRoiPoolKernels(table);
  RegisterRoiAlignKernels(table);
}

}  // namespace graphgc::kernels
