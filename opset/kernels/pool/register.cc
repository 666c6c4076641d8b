// The pool family's registrations (average, max, Lp and global pooling, MaxUnpool, MaxRoiPool,
// RoiAlign).
#include "graphgc/opset/kernels/builtin_kernels.h"

namespace graphgc::kernels {

void RegisterPoolKernels(KernelTable& table) { (void)table; }

}  // namespace graphgc::kernels
