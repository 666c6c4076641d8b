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
                      int first, int last, KernelTypes types, K kernel) {
  // Builtin registrations are fixed; register_op (the public route here) refuses a version below
  // 1, a missing kernel never reaches here, and a repeated (domain, op_type, version), so these
  // checks guard the library's own tables only.
  GRAPHGC_CHECK(first >= 1 && first <= last && kernel, "kernel registration: bad range or kernel");
  auto& entries = kinds.entries[Key(domain, op_type)];
  for (const RegisteredKernel<K>* entry : entries) {
    GRAPHGC_CHECK(last < entry->first || first > entry->last,
                  "kernel registration: overlapping version ranges");
  }
  kinds.kernels.push_back({first, last, std::move(types), std::move(kernel)});
  entries.push_back(&kinds.kernels.back());
}

template <class K>
const RegisteredKernel<K>* KernelTable::Find(const Kinds<K>& kinds, absl::string_view domain,
                                             absl::string_view op_type, int version) {
  auto it = kinds.entries.find(Key(domain, op_type));
  if (it == kinds.entries.end()) return nullptr;
  for (const RegisteredKernel<K>* entry : it->second) {
    if (version >= entry->first && version <= entry->last) return entry;
  }
  return nullptr;
}

template <class K>
void KernelTable::ForEach(const Kinds<K>& kinds, const EntryVisitor& visit) {
  for (const auto& [key, entries] : kinds.entries) {
    const size_t split = key.find('\0');
    const absl::string_view domain = absl::string_view(key).substr(0, split);
    const absl::string_view op_type = absl::string_view(key).substr(split + 1);
    for (const RegisteredKernel<K>* entry : entries) {
      visit(domain, op_type, entry->first, entry->last, entry->types);
    }
  }
}

void KernelTable::add(absl::string_view domain, absl::string_view op_type, int first, int last,
                      KernelTypes types, Kernel kernel) {
  Add(tensor_kernels_, domain, op_type, first, last, std::move(types), std::move(kernel));
}

void KernelTable::add_value_kernel(absl::string_view domain, absl::string_view op_type, int first,
                                   int last, KernelTypes types, ValueKernel kernel) {
  Add(value_kernels_, domain, op_type, first, last, std::move(types), std::move(kernel));
}

const KernelEntry* KernelTable::find(absl::string_view domain, absl::string_view op_type,
                                     int version) const {
  return Find(tensor_kernels_, domain, op_type, version);
}

const ValueKernelEntry* KernelTable::find_value_kernel(absl::string_view domain,
                                                       absl::string_view op_type,
                                                       int version) const {
  return Find(value_kernels_, domain, op_type, version);
}

void KernelTable::for_each_entry(const EntryVisitor& visit) const {
  ForEach(tensor_kernels_, visit);
  ForEach(value_kernels_, visit);
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
