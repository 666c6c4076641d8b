// KernelTable: kernels keyed by (domain, op_type, since-version range).
//
//   table.add("", "Softmax", 13, KernelTable::kLatest, SoftmaxKernel);
//   table.add("", "Softmax", 1, 12, SoftmaxBefore13Kernel);
//   const Kernel* k = table.find("", "Softmax", 17);   // SoftmaxKernel
//
// Each kernel family fills the table through its Register...Kernels(table) (builtin_kernels.h
// lists them all); there is no static self-registration, which static libraries would drop.
// Entries are never removed and their addresses are stable, so a resolved kernel may be cached.
// Threading: thread-compatible; the process-wide registry (opset/values/kernel_registry.h) guards
// it.
#ifndef GRAPHGC_OPSET_KERNELS_KERNEL_TABLE_H_
#define GRAPHGC_OPSET_KERNELS_KERNEL_TABLE_H_

#include <deque>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "graphgc/opset/kernels/kernel.h"

namespace graphgc::kernels {

class KernelTable {
 public:
  static constexpr int kLatest = 1 << 20;

  // Versions first..last (inclusive) of the op compute with `kernel`. Ranges of one op must not
  // overlap (an invariant of the registrations, checked).
  void add(absl::string_view domain, absl::string_view op_type, int first, int last, Kernel kernel);
  // The same for a value kernel (kernel.h); an op may have both kinds.
  void add_value_kernel(absl::string_view domain, absl::string_view op_type, int first, int last,
                        ValueKernel kernel);
  // The kernel covering `version`, or nullptr.
  const Kernel* find(absl::string_view domain, absl::string_view op_type, int version) const;
  const ValueKernel* find_value_kernel(absl::string_view domain, absl::string_view op_type,
                                       int version) const;
  // Every (domain, op_type) with at least one kernel, "domain:op_type" for ai.onnx as ":op".
  std::vector<std::string> keys() const;

 private:
  // One kind of kernel by (domain, op_type) and version range.
  template <class K>
  struct Kinds {
    struct Entry {
      int first;
      int last;
      const K* kernel;
    };
    std::deque<K> kernels;                                         // stable addresses
    absl::flat_hash_map<std::string, std::vector<Entry>> entries;  // key: domain \0 op_type
  };
  template <class K>
  static void Add(Kinds<K>& kinds, absl::string_view domain, absl::string_view op_type, int first,
                  int last, K kernel);
  template <class K>
  static const K* Find(const Kinds<K>& kinds, absl::string_view domain, absl::string_view op_type,
                       int version);

  Kinds<Kernel> tensor_kernels_;
  Kinds<ValueKernel> value_kernels_;
};

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_KERNEL_TABLE_H_
