// The text family's registrations.
#include "graphgc/opset/kernels/builtin_kernels.h"
#include "graphgc/opset/kernels/text/text_kernels.h"

namespace graphgc::kernels {

void RegisterTextKernels(KernelTable& table) {
  RegisterStringNormalizerKernels(table);
  RegisterTfIdfVectorizerKernels(table);
  RegisterStringConcatKernels(table);
  RegisterStringSplitKernels(table);
  RegisterRegexFullMatchKernels(table);
}

}  // namespace graphgc::kernels
