// The kernel contract: how one operator computes its output values from known input values.
//
//   KernelResult Softmax(const KernelContext& ctx) {
//     const Tensor& x = ctx.input(0);
//     const int64_t axis = ctx.int_attribute("axis");       // the schema's default applied
//     GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate_output(0));
//     ...
//     return KernelOutputs{std::move(out).freeze()};
//   }
//
// A kernel sees tensors and attribute values only — never a graph, an arena or a schema — so the
// kernels link the value store and nothing above it. The caller (the opset module) fills the
// context: every input (an omitted optional input is absent), the attributes with the schema's
// defaults applied, the opset version the node is made at, and the output types inference gave.
//
// What a kernel returns:
//   - OK with one entry per output: a value, or nullopt for an output it leaves without one;
//   - kUnimplemented (Decline()) or kResourceExhausted (an allocation past the value budget):
//     no output gets a value; the op itself still succeeds;
//   - any other status: the known inputs make ONNX's semantics fail (an index out of range, a
//     target shape that does not fit), so the model would fail in every runtime: the op fails
//     with that status. Its message names the input and the offending value (InputLabel helps);
//     the caller prefixes the op name.
// Every output value is checked against the output types inference gave; a disagreement is a
// library bug, reported as an internal status, never a silently wrong value.
//
// Threading: a context is used by one thread; kernels are stateless functions.
#ifndef GRAPHGC_OPSET_KERNELS_KERNEL_H_
#define GRAPHGC_OPSET_KERNELS_KERNEL_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graphgc/valuestore/data_type.h"
#include "graphgc/valuestore/tensor.h"
#include "graphgc/valuestore/value.h"

namespace graphgc::kernels {

using KernelAttributeValue = std::variant<int64_t, float, std::string, Tensor, std::vector<int64_t>,
                                          std::vector<float>, std::vector<std::string>>;

// The name is a view: of the node's attribute, or of the schema's (which lives as long as the
// process) for a default. A call's attributes outlive its kernel.
struct KernelAttribute {
  absl::string_view name;
  KernelAttributeValue value;
};

// An output's type as inference gave it: a shape of -1 dims where the size depends on the values
// (NonZero, Unique, Compress), nullopt where even the rank is unknown.
struct OutputSpec {
  DataType dtype = DataType::kUndefined;
  std::optional<Shape> shape;
};

using KernelOutputs = absl::InlinedVector<std::optional<Tensor>, 1>;
using KernelResult = absl::StatusOr<KernelOutputs>;

class KernelContext;
using Kernel = std::function<KernelResult(const KernelContext&)>;

// A value kernel computes ops whose inputs or outputs are sequences, optionals or maps
// (SequenceAt, Optional, ZipMap, ...): it reads value_input() and returns values of any kind.
// An op may have both kinds; its value kernel runs when an input or an output is not a tensor.
using ValueOutputs = absl::InlinedVector<std::optional<Value>, 1>;
using ValueKernelResult = absl::StatusOr<ValueOutputs>;
using ValueKernel = std::function<ValueKernelResult(const KernelContext&)>;

// Everything a context is made of; the caller keeps it alive while the kernel runs.
struct KernelCall {
  absl::string_view op_type;
  int version = 0;  // the opset version the node is made at
  // Views of the caller's values, never copies: nullptr where the input is omitted (or not given).
  absl::Span<const Tensor* const> inputs;
  // For value kernels: every input as a Value (nullopt: omitted). Tensor inputs are in `inputs`
  // too. Empty for tensor kernels.
  absl::Span<const std::optional<Value>> values;
  // Only for ops whose value follows from their inputs' shapes (Shape, Size): the inputs' fully
  // known shapes, when the inputs have no values. Empty otherwise.
  absl::Span<const std::optional<Shape>> input_shapes;
  absl::Span<const absl::string_view> input_names;  // for messages; may be shorter than inputs
  absl::Span<const KernelAttribute> attributes;     // the node's own
  // The schema's defaults; an attribute of the node's own of the same name takes precedence.
  absl::Span<const KernelAttribute> defaults;
  absl::Span<const OutputSpec> outputs;
  int64_t max_value_bytes = int64_t{1} << 30;
  int threads = 1;
};

class KernelContext {
 public:
  explicit KernelContext(const KernelCall& call) : call_(call) {}

  absl::string_view op_type() const { return call_.op_type; }
  int version() const { return call_.version; }

  // Inputs: num_inputs() counts the positions given, omitted ones included.
  int num_inputs() const { return static_cast<int>(call_.inputs.size()); }
  bool has_input(int index) const;
  // The input's value; the input must be present (a kernel checks has_input for optional ones).
  // Required inputs are always present: make_node rejects a call that omits one (schema ops by
  // the schema, custom ops by InferCustom) before any kernel runs, so its check is unreachable
  // from the public API.
  const Tensor& input(int index) const;
  // nullptr when the input is omitted.
  const Tensor* optional_input(int index) const;
  // Value kernels: the input's value of any kind; nullptr when the input is omitted.
  const Value* value_input(int index) const;
  // The input's shape: its value's, or (Shape, Size) its inferred one; nullopt if neither.
  std::optional<absl::Span<const int64_t>> input_shape(int index) const;
  // "input 1 (indices)", for messages.
  std::string input_label(int index) const;

  // Attributes, with the schema's defaults applied; `fallback` where the schema has none either.
  bool has_attribute(absl::string_view name) const { return find(name) != nullptr; }
  int64_t int_attribute(absl::string_view name, int64_t fallback = 0) const;
  float float_attribute(absl::string_view name, float fallback = 0.0f) const;
  std::string string_attribute(absl::string_view name, absl::string_view fallback = "") const;
  std::optional<std::vector<int64_t>> ints_attribute(absl::string_view name) const;
  std::optional<std::vector<float>> floats_attribute(absl::string_view name) const;
  std::optional<std::vector<std::string>> strings_attribute(absl::string_view name) const;
  const Tensor* tensor_attribute(absl::string_view name) const;
  // Every attribute the kernel sees: the node's own, then the defaults it does not override.
  // Built on each call (for kernels that pass attributes on: custom ops, function bodies).
  std::vector<KernelAttribute> attributes() const;

  int num_outputs() const { return static_cast<int>(call_.outputs.size()); }
  const OutputSpec& output(int index) const { return call_.outputs[static_cast<size_t>(index)]; }

  // A tensor to fill, within the value budget (GraphOptions::max_value_bytes): the size is
  // checked before anything is allocated, and past the budget the status is kResourceExhausted.
  absl::StatusOr<MutableTensor> allocate(DataType dtype, absl::Span<const int64_t> shape) const;
  // The same for output `index`, whose inferred shape must be fully known.
  absl::StatusOr<MutableTensor> allocate_output(int index) const;
  // Whether `count` elements of `dtype` fit the budget (for temporaries a kernel sizes itself).
  bool within_budget(DataType dtype, int64_t count) const;
  int64_t max_value_bytes() const { return call_.max_value_bytes; }
  // Threads the kernel may use (GraphOptions::kernel_threads); 1 unless the user asked for more.
  int threads() const { return call_.threads; }

  // An InvalidArgument status "input 1 (indices): why" for inputs that make the op fail.
  absl::Status input_error(int index, absl::string_view why) const;

 private:
  const KernelAttribute* find(absl::string_view name) const;
  // The attribute's value if it is there with type T, else nullptr (or nullopt).
  template <class T>
  const T* get(absl::string_view name) const {
    const KernelAttribute* attribute = find(name);
    return attribute == nullptr ? nullptr : std::get_if<T>(&attribute->value);
  }
  template <class T>
  std::optional<T> copy_of(absl::string_view name) const {
    const T* value = get<T>(name);
    return value == nullptr ? std::nullopt : std::optional<T>(*value);
  }

  const KernelCall& call_;
};

// Whether `value` has element type `dtype` and a shape that `shape` allows: nullopt (unknown
// rank) allows any, otherwise the same rank with every known (non-negative) dim equal.
bool Fits(const Tensor& value, DataType dtype, const std::optional<Shape>& shape);

// The status of a kernel that leaves its outputs without values (an element type or a case it
// does not compute). The op succeeds; its outputs are typed, with no value.
absl::Status Decline(absl::string_view why);

// Whether a kernel's non-OK status means "no value" rather than "the op fails".
bool MeansNoValue(const absl::Status& status);

}  // namespace graphgc::kernels

#endif  // GRAPHGC_OPSET_KERNELS_KERNEL_H_
