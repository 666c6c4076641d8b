// The detection family's registrations (NonMaxSuppression).
#include "graphgc/opset/kernels/builtin_kernels.h"
#include "graphgc/opset/kernels/detection/detection_kernels.h"

namespace graphgc::kernels {

void RegisterDetectionKernels(KernelTable& table) { RegisterNonMaxSuppressionKernels(table); }

}  // namespace graphgc::kernels
