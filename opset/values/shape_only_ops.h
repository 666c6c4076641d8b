// Ops whose value follows from their inputs' static shapes alone (Shape, Size): their kernels run
// when the input shapes are fully known, values or not. Internal to the opset module.
#ifndef GRAPHGC_OPSET_NATIVE_KERNELS_H_
#define GRAPHGC_OPSET_NATIVE_KERNELS_H_

#include "absl/strings/string_view.h"

namespace graphgc::internal {

bool ReadsShapesOnly(absl::string_view op_type);

}  // namespace graphgc::internal

#endif  // GRAPHGC_OPSET_NATIVE_KERNELS_H_
