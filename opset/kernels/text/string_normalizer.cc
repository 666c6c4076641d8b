// StringNormalizer: drops the stop words from a [C] or [1, C] string tensor, then lower-cases,
// upper-cases or keeps the rest; if nothing is left the output is one empty string ([1] or
// [1, 1]). Case-insensitive matching compares both sides upper-cased when the action is UPPER and
// lower-cased otherwise, as ONNX Runtime does.
//
// Case mapping is ASCII's, which is what ONNX Runtime's en_US.UTF-8 (its default locale) does on
// ASCII text. Beyond ASCII the mapping depends on the locale's Unicode tables, so a string that
// would need one (or a locale other than English, C or POSIX, such as Turkish with its dotted
// i) leaves the op without a value.
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/text/text_kernels.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

enum class CaseAction { kNone, kLower, kUpper };

bool IsAscii(absl::string_view s) {
  for (char c : s) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return true;
}

// Whether the locale maps ASCII letters the ASCII way.
bool AsciiLocale(absl::string_view locale) {
  return locale.empty() || absl::StartsWith(locale, "en") || absl::StartsWith(locale, "C") ||
         locale == "POSIX";
}

// `s` with its case changed, or nullopt where ASCII's mapping may not be the locale's.
std::optional<std::string> ChangeCase(const std::string& s, CaseAction action, bool ascii_locale) {
  if (action == CaseAction::kNone) return s;
  if (!ascii_locale || !IsAscii(s)) return std::nullopt;
  return action == CaseAction::kLower ? absl::AsciiStrToLower(s) : absl::AsciiStrToUpper(s);
}

KernelResult StringNormalizerKernel(const KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const absl::Span<const int64_t> shape = x.shape();
  if (shape.empty() || shape.size() > 2 || (shape.size() == 2 && shape[0] != 1)) {
    return ctx.input_error(0, absl::StrCat("has shape ", ShapeToString(shape),
                                           "; only [C] and [1, C] are normalized"));
  }
  if (x.size() == 0) return Decline("an empty input (ONNX defines [C] and [1, C] with C > 0)");
  const std::string action_name = ctx.string_attribute("case_change_action", "NONE");
  CaseAction action;
  if (action_name == "NONE") {
    action = CaseAction::kNone;
  } else if (action_name == "LOWER") {
    action = CaseAction::kLower;
  } else if (action_name == "UPPER") {
    action = CaseAction::kUpper;
  } else {
    return absl::InvalidArgumentError(absl::StrCat("attribute 'case_change_action' is \"",
                                                   action_name, "\", not LOWER, UPPER or NONE"));
  }
  const bool case_sensitive = ctx.int_attribute("is_case_sensitive") != 0;
  const bool ascii_locale = AsciiLocale(ctx.string_attribute("locale"));
  // Stop words and inputs are compared as they are, or both in the comparison case.
  const CaseAction compare = case_sensitive                 ? CaseAction::kNone
                             : action == CaseAction::kUpper ? CaseAction::kUpper
                                                            : CaseAction::kLower;
  absl::flat_hash_set<std::string> stopwords;
  for (const std::string& word :
       ctx.strings_attribute("stopwords").value_or(std::vector<std::string>{})) {
    std::optional<std::string> key = ChangeCase(word, compare, ascii_locale);
    if (!key.has_value()) return Decline("a stop word's case mapping is locale-dependent");
    stopwords.insert(*std::move(key));
  }
  std::vector<std::string> kept;
  for (const std::string& s : x.data<std::string>()) {
    if (!stopwords.empty()) {
      std::optional<std::string> key = ChangeCase(s, compare, ascii_locale);
      if (!key.has_value()) return Decline("a string's case mapping is locale-dependent");
      if (stopwords.contains(*key)) continue;
    }
    std::optional<std::string> normalized = ChangeCase(s, action, ascii_locale);
    if (!normalized.has_value()) return Decline("a string's case mapping is locale-dependent");
    kept.push_back(*std::move(normalized));
  }
  if (kept.empty()) kept.emplace_back();  // ONNX: one empty string
  Shape out_shape = {static_cast<int64_t>(kept.size())};
  if (shape.size() == 2) out_shape.insert(out_shape.begin(), 1);
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(DataType::kString, out_shape));
  auto data = out.mutable_data<std::string>();
  for (size_t i = 0; i < kept.size(); ++i) data[i] = std::move(kept[i]);
  return KernelOutputs{std::move(out).freeze()};
}

}  // namespace

void RegisterStringNormalizerKernels(KernelTable& table) {
  // Strings in and out: the schema has no type parameter.
  table.add("", "StringNormalizer", 10, KernelTable::kLatest, KernelTypes::Unconstrained(),
            StringNormalizerKernel);
}

}  // namespace graphgc::kernels
