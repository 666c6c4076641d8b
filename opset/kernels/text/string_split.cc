// StringSplit (opset 20): each string split at `delimiter` into at most maxsplit + 1 parts, as
// Python's str.split (ONNX's reference): Y holds the parts, padded with "" to the longest count
// (X's shape plus that count), Z each string's count.
//
// An empty or absent delimiter splits at runs of whitespace and drops the whitespace at both ends.
// Where ONNX's reference (Python) and ONNX Runtime disagree there is no value: Python's
// whitespace is Unicode's and includes the ASCII separators 0x1C-0x1F (a string holding those or
// any non-ASCII byte, in that mode); with maxsplit Python's last part keeps its trailing
// whitespace, ONNX Runtime's drops it; and an empty string split at a delimiter is one empty part
// for Python, none for ONNX Runtime.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/text/text_kernels.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

bool IsAsciiSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

// Where Python's whitespace and ASCII's differ.
bool WhitespaceIsAmbiguous(const std::string& s) {
  for (const char c : s) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x80 || (byte >= 0x1C && byte <= 0x1F)) return true;
  }
  return false;
}

// Only a whitespace split's last part (the rest, after maxsplit parts) can.
bool EndsInWhitespace(const std::vector<std::string>& parts) {
  return !parts.empty() && !parts.back().empty() && IsAsciiSpace(parts.back().back());
}

// Python's s.split(delimiter, maxsplit) for a non-empty delimiter; maxsplit < 0: no limit.
std::vector<std::string> SplitAt(const std::string& s, const std::string& delimiter,
                                 int64_t maxsplit) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (maxsplit < 0 || static_cast<int64_t>(parts.size()) < maxsplit) {
    const size_t found = s.find(delimiter, start);
    if (found == std::string::npos) break;
    parts.push_back(s.substr(start, found - start));
    start = found + delimiter.size();
  }
  parts.push_back(s.substr(start));
  return parts;
}

// Python's s.split(None, maxsplit), ASCII whitespace.
std::vector<std::string> SplitAtWhitespace(const std::string& s, int64_t maxsplit) {
  std::vector<std::string> parts;
  size_t i = 0;
  const size_t n = s.size();
  while (true) {
    while (i < n && IsAsciiSpace(s[i])) ++i;
    if (i == n) break;
    if (maxsplit >= 0 && static_cast<int64_t>(parts.size()) == maxsplit) {
      parts.push_back(s.substr(i));  // the rest, trailing whitespace and all (Python's)
      break;
    }
    const size_t start = i;
    while (i < n && !IsAsciiSpace(s[i])) ++i;
    parts.push_back(s.substr(start, i - start));
  }
  return parts;
}

KernelResult StringSplitKernel(const KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const std::string delimiter = ctx.string_attribute("delimiter", "");
  const std::optional<int64_t> limit = ctx.has_attribute("maxsplit")
                                           ? std::optional<int64_t>(ctx.int_attribute("maxsplit"))
                                           : std::nullopt;
  const int64_t maxsplit = limit.value_or(-1);
  if (limit.has_value() && *limit < 0) {
    return absl::InvalidArgumentError(absl::StrCat("attribute 'maxsplit' is ", *limit));
  }
  const auto strings = x.data<std::string>();
  std::vector<std::vector<std::string>> split;
  split.reserve(strings.size());
  int64_t widest = 0;
  for (const std::string& s : strings) {
    if (delimiter.empty() && WhitespaceIsAmbiguous(s)) {
      return Decline("a whitespace split of a string with non-ASCII or separator characters");
    }
    if (!delimiter.empty() && s.empty()) {
      return Decline(
          "an empty string split at a delimiter (one part in ONNX, none in ONNX Runtime)");
    }
    split.push_back(delimiter.empty() ? SplitAtWhitespace(s, maxsplit)
                                      : SplitAt(s, delimiter, maxsplit));
    if (delimiter.empty() && EndsInWhitespace(split.back())) {
      return Decline("a last part ending in whitespace (kept by ONNX, dropped by ONNX Runtime)");
    }
    widest = std::max(widest, static_cast<int64_t>(split.back().size()));
  }
  Shape y_dims(x.shape().begin(), x.shape().end());
  y_dims.push_back(widest);
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor y, ctx.allocate(DataType::kString, y_dims));
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor z, ctx.allocate(DataType::kInt64, x.shape()));
  auto parts = y.mutable_data<std::string>();
  auto counts = z.mutable_data<int64_t>();
  for (size_t i = 0; i < split.size(); ++i) {
    counts[i] = static_cast<int64_t>(split[i].size());
    for (size_t k = 0; k < split[i].size(); ++k) {
      parts[i * static_cast<size_t>(widest) + k] = std::move(split[i][k]);
    }
  }
  return KernelOutputs{std::move(y).freeze(), std::move(z).freeze()};
}

}  // namespace

void RegisterStringSplitKernels(KernelTable& table) {
  table.add("", "StringSplit", 20, KernelTable::kLatest, {{"T1", DataTypeSet{DataType::kString}}},
            StringSplitKernel);
}

}  // namespace graphgc::kernels
