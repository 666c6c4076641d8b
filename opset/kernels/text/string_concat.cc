// StringConcat (opset 20): the two string operands joined element by element, broadcasting.
#include <string>

#include "graphgc/opset/kernels/math/elementwise_kernels.h"
#include "graphgc/opset/kernels/text/text_kernels.h"

namespace graphgc::kernels {

void RegisterStringConcatKernels(KernelTable& table) {
  using Strings = internal::TypeList<std::string>;
  table.add(
      "", "StringConcat", 20, KernelTable::kLatest, {{"T", Strings::kSet}},
      BinaryKernel<Strings>([](const std::string& a, const std::string& b) { return a + b; }));
}

}  // namespace graphgc::kernels
