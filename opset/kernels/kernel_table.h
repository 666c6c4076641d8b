// KernelTable: kernels keyed by (domain, op_type, since-version range), each with the element
// types it computes (kernel_types.h).
//
//   const KernelTypes reals = {{"T", data_types::kFloatingPoint}};  // the kernels' dispatch
//   table.add("", "Softmax", 13, KernelTable::kLatest, reals, SoftmaxKernel);
//   table.add("", "Softmax", 1, 12, reals, SoftmaxBefore13Kernel);
//   const KernelEntry* k = table.find("", "Softmax", 17);   // SoftmaxKernel, its types
//
// Both declare what their kernel computes, bfloat16 included, although Softmax-1 admits no
// bfloat16: the opset module intersects the declaration with the schema (kernel_types.h). Version
// ranges split where the kernel differs (or a type parameter is renamed), never where the schema
// merely admits other types.
//
// Each kernel family fills the table through its Register...Kernels(table) (builtin_kernels.h
// lists them all); there is no static self-registration, which static libraries would drop.
// Entries are never removed and their addresses are stable, so a resolved kernel may be cached.
// Threading: thread-compatible; the process-wide registry (opset/values/kernel_registry.h) guards
// it.
#ifndef GRAPHGC_OPSET_KERNELS_KERNEL_TABLE_H_
#define GRAPHGC_OPSET_KERNELS_KERNEL_TABLE_H_

#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "graphgc/opset/kernels/kernel.h"
#include "graphgc/opset/kernels/kernel_types.h"

namespace graphgc::kernels {

// A registered kernel: the versions it covers and the element types it computes.
template <class K>
struct RegisteredKernel {
  int first;
  int last;
  KernelTypes types;
  K kernel;
};
using KernelEntry = RegisteredKernel<Kernel>;
using ValueKernelEntry = RegisteredKernel<ValueKernel>;

// The newest ai.onnx opset of ONNX 1.12, whose schemas the kernels were first written against. A
// range that ends here stops before a later schema that changed more than its element types
// (Split-18 takes num_outputs, Pad-18 axes): that version gets no kernel, so no value, until one
// is written for it. A range ending at kLatest covers later versions whose schemas differ only
// in the types they admit, which the declared types already bound (the kernel_versions test
// checks both against ONNX's schemas).
inline constexpr int kLastKnownOpset = 17;

class KernelTable {
 public:
  static constexpr int kLatest = 1 << 20;

  // Versions first..last (inclusive) of the op compute with `kernel`, for the element types
  // `types` declares. Ranges of one op must not overlap (an invariant of the registrations,
  // checked).
  void add(absl::string_view domain, absl::string_view op_type, int first, int last,
           KernelTypes types, Kernel kernel);
  // The same for a value kernel (kernel.h); an op may have both kinds.
  void add_value_kernel(absl::string_view domain, absl::string_view op_type, int first, int last,
                        KernelTypes types, ValueKernel kernel);
  // The entry covering `version`, or nullptr.
  const KernelEntry* find(absl::string_view domain, absl::string_view op_type, int version) const;
  const ValueKernelEntry* find_value_kernel(absl::string_view domain, absl::string_view op_type,
                                            int version) const;
  // Every (domain, op_type) with at least one kernel, "domain:op_type" for ai.onnx as ":op".
  std::vector<std::string> keys() const;
  // Every entry of both kinds, for checking the declarations against the schemas.
  using EntryVisitor = std::function<void(absl::string_view domain, absl::string_view op_type,
                                          int first, int last, const KernelTypes& types)>;
  void for_each_entry(const EntryVisitor& visit) const;

 private:
  // One kind of kernel by (domain, op_type) and version range.
  template <class K>
  struct Kinds {
    std::deque<RegisteredKernel<K>> kernels;  // stable addresses
    // key: domain \0 op_type
    absl::flat_hash_map<std::string, std::vector<const RegisteredKernel<K>*>> entries;
  };
  template <class K>
  static void Add(Kinds<K>& kinds, absl::string_view domain, absl::string_view op_type, int first,
                  int last, KernelTypes types, K kernel);
  template <class K>
  static const RegisteredKernel<K>* Find(const Kinds<K>& kinds, absl::string_view domain,
                                         absl::string_view op_type, int version);
  template <class K>
  static void ForEach(const Kinds<K>& kinds, const EntryVisitor& visit);

  Kinds<Kernel> tensor_kernels_;
  Kinds<ValueKernel> value_kernels_;
};

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_KERNEL_TABLE_H_
