// RegexFullMatch (opset 20): whether each string matches the attribute `pattern` as a whole, in
// RE2's syntax, with RE2 itself (Debian's libre2, the library ONNX Runtime uses too). A pattern
// RE2 refuses is an error naming RE2's reason.
#include <string>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/text/text_kernels.h"
#include "graphgc/valuestore/status_macros.h"
#include "re2/re2.h"

namespace graphgc::kernels {
namespace {

KernelResult RegexFullMatch(const KernelContext& ctx) {
  const std::string pattern = ctx.string_attribute("pattern");
  RE2::Options options;
  options.set_log_errors(false);  // the error goes to the status, not to stderr
  const RE2 regex(pattern, options);
  if (!regex.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("attribute 'pattern' (\"", pattern,
                     "\") is not an RE2 regular expression: ", regex.error()));
  }
  const Tensor& x = ctx.input(0);
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(DataType::kBool, x.shape()));
  const auto strings = x.data<std::string>();
  auto matches = out.mutable_data<bool>();
  for (size_t i = 0; i < strings.size(); ++i) matches[i] = RE2::FullMatch(strings[i], regex);
  return KernelOutputs{std::move(out).freeze()};
}

}  // namespace

void RegisterRegexFullMatchKernels(KernelTable& table) {
  table.add("", "RegexFullMatch", 20, KernelTable::kLatest,
            {{"T1", {DataType::kString}}, {"T2", {DataType::kBool}}}, RegexFullMatch);
}

}  // namespace graphgc::kernels
