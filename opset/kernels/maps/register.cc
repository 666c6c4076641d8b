// The maps family's registrations.
#include "graphgc/opset/kernels/builtin_kernels.h"
#include "graphgc/opset/kernels/maps/maps_kernels.h"

namespace graphgc::kernels {

void RegisterMapKernels(KernelTable& table) {
  RegisterZipMapKernels(table);
  RegisterCastMapKernels(table);
  RegisterDictVectorizerKernels(table);
}

}  // namespace graphgc::kernels
