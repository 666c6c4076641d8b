// KernelTypes: the element types a kernel computes, declared where it is registered (as ONNX
// Runtime's kernel registry declares each kernel's type constraints).
//
//   table.add("", "Gather", 1, KernelTable::kLatest,
//             {{"T", data_types::kAll}, {"Tind", data_types::kIndices}}, Gather);
//
// Each constraint names one of the schema's type parameters ("T", "T1", "Tind", ...) and the
// element types the kernel's code computes for it (the types its dispatch handles), whatever the
// op's schema admits. The opset module intersects a declaration with what the schema admits at
// the node's version, so declarations never copy schema histories: one declaration covers every
// version a kernel is registered for, and an opset that only admits more types changes none.
//
// Before it calls a kernel, the opset module checks every tensor operand the schema binds to a
// named parameter (inputs and outputs alike); an operand of another type leaves the op's outputs
// typed but without values, so a kernel never sees a type it did not declare. A parameter no
// constraint names is not checked. The first constraint is the kernel's primary type:
// has_kernel(op, options, dtype) answers for it.
//
// Plain value type; no threading concerns.
#ifndef GRAPHGC_OPSET_KERNELS_KERNEL_TYPES_H_
#define GRAPHGC_OPSET_KERNELS_KERNEL_TYPES_H_

#include <initializer_list>
#include <string>
#include <vector>

#include "graphgc/valuestore/data_type_set.h"

namespace graphgc::kernels {

struct TypeConstraint {
  std::string type_param;  // the schema's name for it: "T", "T1", "Tind", ...
  DataTypeSet types;
};

class KernelTypes {
 public:
  KernelTypes(std::initializer_list<TypeConstraint> constraints) : constraints_(constraints) {}
  // No constraint: the kernel takes whatever its op admits (custom ops' kernels, whose op has no
  // schema to name parameters by, and value kernels over sequences, optionals and maps).
  static KernelTypes Unconstrained() { return KernelTypes({}); }

  const std::vector<TypeConstraint>& constraints() const { return constraints_; }
  // The first constraint's types; every type when there is none.
  DataTypeSet primary() const {
    return constraints_.empty() ? data_types::kAll : constraints_.front().types;
  }

 private:
  std::vector<TypeConstraint> constraints_;
};

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_KERNEL_TYPES_H_
