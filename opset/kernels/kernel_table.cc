#include "graphgc/opset/kernels/kernel_table.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "graphgc/valuestore/check.h"

namespace graphgc::kernels {
namespace {

std::string Key(absl::string_view domain, absl::string_view op_type) {
  return absl::StrCat(domain == "ai.onnx" ? "" : domain, absl::string_view("\0", 1), op_type);
}

}  // namespace

template <class K>
void KernelTable::Add(Kinds<K>& kinds, absl::string_view domain, absl::string_view op_type,
                      int first, int last, K kernel) {
  // Builtin registrations are fixed; register_op (the public route here) refuses a version below
  // 1, a missing kernel never reaches here, and a repeated (domain, op_type, version), so these
  // checks guard the library's own tables only.
  GRAPHGC_CHECK(first >= 1 && first <= last && kernel, "kernel registration: bad range or kernel");
  auto& entries = kinds.entries[Key(domain, op_type)];
  for (const auto& entry : entries) {
    GRAPHGC_CHECK(last < entry.first || first > entry.last,
                  "kernel registration: overlapping version ranges");
  }
  kinds.kernels.push_back(std::move(kernel));
  entries.push_back({first, last, &kinds.kernels.back()});
}

template <class K>
const K* KernelTable::Find(const Kinds<K>& kinds, absl::string_view domain,
                           absl::string_view op_type, int version) {
  auto it = kinds.entries.find(Key(domain, op_type));
  if (it == kinds.entries.end()) return nullptr;
  for (const auto& entry : it->second) {
    if (version >= entry.first && version <= entry.last) return entry.kernel;
  }
  return nullptr;
}

void KernelTable::add(absl::string_view domain, absl::string_view op_type, int first, int last,
                      Kernel kernel) {
  Add(tensor_kernels_, domain, op_type, first, last, std::move(kernel));
}

void KernelTable::add_value_kernel(absl::string_view domain, absl::string_view op_type, int first,
                                   int last, ValueKernel kernel) {
  Add(value_kernels_, domain, op_type, first, last, std::move(kernel));
}

const Kernel* KernelTable::find(absl::string_view domain, absl::string_view op_type,
                                int version) const {
  return Find(tensor_kernels_, domain, op_type, version);
}

const ValueKernel* KernelTable::find_value_kernel(absl::string_view domain,
                                                  absl::string_view op_type, int version) const {
  return Find(value_kernels_, domain, op_type, version);
}

std::vector<std::string> KernelTable::keys() const {
  std::vector<std::string> keys;
  auto add_keys = [&keys](const auto& entries) {
    for (const auto& [key, unused] : entries) {
      std::string text = key;
      text[text.find('\0')] = ':';
      if (std::find(keys.begin(), keys.end(), text) == keys.end()) keys.push_back(std::move(text));
    }
  };
  add_keys(tensor_kernels_.entries);
  add_keys(value_kernels_.entries);
  return keys;
}

}  // namespace graphgc::kernels
