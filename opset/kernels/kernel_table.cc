#include "graphgc/opset/kernels/kernel_table.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "graphgc/valuestore/check.h"

namespace graphgc::kernels {
namespace {

std::string Key(absl::string_view domain, absl::string_view op_type) {
  return absl::StrCat(domain == "ai.onnx" ? "" : domain, absl::string_view("\0", 1), op_type);
}

}  // namespace

void KernelTable::add(absl::string_view domain, absl::string_view op_type, int first, int last,
                      Kernel kernel) {
  // Builtin registrations are fixed; register_op (the public route here) refuses a version below
  // 1, a missing kernel never reaches here, and a repeated (domain, op_type, version), so these
  // checks guard the library's own tables only.
  GRAPHGC_CHECK(first >= 1 && first <= last && kernel, "kernel registration: bad range or kernel");
  std::vector<Entry>& entries = entries_[Key(domain, op_type)];
  for (const Entry& entry : entries) {
    GRAPHGC_CHECK(last < entry.first || first > entry.last,
                  "kernel registration: overlapping version ranges");
  }
  kernels_.push_back(std::move(kernel));
  entries.push_back(Entry{first, last, &kernels_.back()});
}

const Kernel* KernelTable::find(absl::string_view domain, absl::string_view op_type,
                                int version) const {
  auto it = entries_.find(Key(domain, op_type));
  if (it == entries_.end()) return nullptr;
  for (const Entry& entry : it->second) {
    if (version >= entry.first && version <= entry.last) return entry.kernel;
  }
  return nullptr;
}

std::vector<std::string> KernelTable::keys() const {
  std::vector<std::string> keys;
  for (const auto& [key, entries] : entries_) {
    std::string text = key;
    text[text.find('\0')] = ':';
    keys.push_back(std::move(text));
  }
  return keys;
}

}  // namespace graphgc::kernels
