#include "graphgc/opset/values/control_flow_values.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/opset/values/body_runner.h"

namespace graphgc::internal {
namespace {

using kernels::CopyElements;
using kernels::Product;

// What a loop holds between trips: its state and the scan slices so far.
struct LoopState {
  std::vector<Value> state;
  std::vector<std::vector<Tensor>> scans;
  int64_t scan_bytes = 0;

  int64_t bytes() const {
    int64_t total = scan_bytes;
    for (const Value& value : state) total += static_cast<int64_t>(value.nbytes());
    return total;
  }
};

std::optional<int64_t> ScalarOf(const OperandInfo& info) {
  if (!info.value.has_value() || info.value->size() != 1) return std::nullopt;
  if (info.value->dtype() == DataType::kInt64) return info.value->data<int64_t>()[0];
  if (info.value->dtype() == DataType::kBool) return info.value->data<bool>()[0] ? 1 : 0;
  return std::nullopt;
}

OutputValues NoValues(absl::Span<const OutputType> types) { return OutputValues(types.size()); }

// The slices stacked along a new axis `axis` of the result; nullopt if they disagree in type or
// shape, or the result is past `max_bytes`. No slices: the empty stack of the type `type` gives.
std::optional<Tensor> Stack(const std::vector<Tensor>& slices, int64_t axis, const OutputType& type,
                            int64_t max_bytes) {
  if (slices.empty()) {
    if (!type.shape.has_value() || axis >= static_cast<int64_t>(type.shape->size())) {
      return std::nullopt;
    }
    Shape shape = *type.shape;
    shape[static_cast<size_t>(axis)] = 0;
    if (std::any_of(shape.begin(), shape.end(), [](int64_t d) { return d < 0; })) {
      return std::nullopt;
    }
    absl::StatusOr<Tensor> empty = Tensor::zeros_checked(type.dtype, shape);
    return empty.ok() ? std::optional<Tensor>(*std::move(empty)) : std::nullopt;
  }
  const Tensor& first = slices[0];
  if (axis > first.rank()) return std::nullopt;
  for (const Tensor& slice : slices) {
    if (slice.dtype() != first.dtype() || slice.shape() != first.shape()) return std::nullopt;
  }
  Shape shape(first.shape().begin(), first.shape().end());
  shape.insert(shape.begin() + axis, static_cast<int64_t>(slices.size()));
  const absl::StatusOr<int64_t> count = ElementCount(shape);
  const auto element_size = static_cast<int64_t>(ElementSize(first.dtype()));
  if (!count.ok() || (element_size > 0 && *count > max_bytes / element_size)) return std::nullopt;
  absl::StatusOr<MutableTensor> out = MutableTensor::allocate(first.dtype(), shape);
  if (!out.ok()) return std::nullopt;
  const int64_t outer = Product(first.shape().subspan(0, static_cast<size_t>(axis)));
  const int64_t inner = outer == 0 ? 0 : first.size() / outer;
  int64_t written = 0;
  for (int64_t o = 0; o < outer; ++o) {
    for (const Tensor& slice : slices) {
      CopyElements(slice, o * inner, *out, written, inner);
      written += inner;
    }
  }
  return std::move(*out).freeze();
}

// Slice `index` of `x` along `axis`, without that axis.
std::optional<Tensor> SliceAt(const Tensor& x, int64_t axis, int64_t index) {
  Shape shape(x.shape().begin(), x.shape().end());
  const int64_t extent = shape[static_cast<size_t>(axis)];
  shape.erase(shape.begin() + axis);
  absl::StatusOr<MutableTensor> out = MutableTensor::allocate(x.dtype(), shape);
  if (!out.ok()) return std::nullopt;
  const int64_t outer = Product(x.shape().subspan(0, static_cast<size_t>(axis)));
  const int64_t inner = Product(x.shape().subspan(static_cast<size_t>(axis) + 1));
  for (int64_t o = 0; o < outer; ++o) {
    CopyElements(x, (o * extent + index) * inner, *out, o * inner, inner);
  }
  return std::move(*out).freeze();
}

// Takes one trip's scan slices (the results from `first` on); false if one is missing or the
// scan outputs outgrow the value budget.
bool AppendScans(const BodyResults& results, size_t first, int64_t max_bytes, LoopState& loop) {
  for (size_t k = 0; k < loop.scans.size(); ++k) {
    const std::optional<Value>& slice = results[first + k];
    if (!slice.has_value() || !slice->is_tensor()) return false;
    loop.scan_bytes += static_cast<int64_t>(slice->tensor().nbytes());
    if (loop.scan_bytes > max_bytes) return false;
    loop.scans[k].push_back(slice->tensor());
  }
  return true;
}

// The node's values: the final state, then each scan output stacked along its axis.
OutputValues Finish(LoopState& loop, absl::Span<const OutputType> types,
                    absl::Span<const int64_t> scan_axes, int64_t max_bytes) {
  OutputValues values(types.size());
  for (size_t i = 0; i < loop.state.size(); ++i) values[i] = std::move(loop.state[i]);
  for (size_t k = 0; k < loop.scans.size(); ++k) {
    const size_t output = loop.state.size() + k;
    // Slices that disagree, or no slices and no known slice shape: that output has no value.
    values[output] = Stack(loop.scans[k], scan_axes[k], types[output], max_bytes);
  }
  // Never a value that is not of the output's type (a body whose types drift between trips).
  for (size_t i = 0; i < values.size(); ++i) {
    OutputType type = types[i];
    if (values[i].has_value() && !CheckOutputValue(i, *values[i], type).ok()) {
      return NoValues(types);
    }
  }
  return values;
}

// The attribute's ints, `count` zeros when absent.
std::vector<int64_t> IntsAttribute(const std::vector<Attribute>& attributes, const char* name,
                                   size_t count) {
  for (const Attribute& attribute : attributes) {
    if (attribute.name != name) continue;
    if (const auto* ints = std::get_if<std::vector<int64_t>>(&attribute.value)) return *ints;
  }
  return std::vector<int64_t>(count, 0);
}

int64_t IntAttribute(const std::vector<Attribute>& attributes, const char* name) {
  for (const Attribute& attribute : attributes) {
    if (attribute.name != name) continue;
    if (const auto* value = std::get_if<int64_t>(&attribute.value)) return *value;
  }
  return 0;
}

}  // namespace

OutputValues PropagateLoop(GraphCore& core, SubgraphId body, absl::Span<const OperandInfo> operands,
                           absl::Span<const OutputType> types) {
  if (operands.size() < 2) return NoValues(types);
  const std::optional<int64_t> trip_count =
      operands[0].present ? ScalarOf(operands[0]) : std::nullopt;
  const bool has_condition = operands[1].present;
  std::optional<int64_t> condition = has_condition ? ScalarOf(operands[1]) : int64_t{1};
  if ((operands[0].present && !trip_count.has_value()) || !condition.has_value()) {
    return NoValues(types);
  }
  LoopState loop;
  for (size_t i = 2; i < operands.size(); ++i) {
    std::optional<Value> initial = OperandValue(operands[i]);
    if (!initial.has_value()) return NoValues(types);
    loop.state.push_back(*std::move(initial));
  }
  if (types.size() < loop.state.size()) return NoValues(types);
  loop.scans.resize(types.size() - loop.state.size());
  const GraphOptions& options = core.options();
  BodyRunner runner(core, body);
  for (int64_t trip = 0; (!trip_count.has_value() || trip < *trip_count) && *condition != 0;
       ++trip) {
    if (trip >= options.max_loop_trips) return NoValues(types);
    std::vector<Value> arguments = {Tensor::scalar<int64_t>(trip),
                                    Tensor::scalar<bool>(*condition != 0)};
    arguments.insert(arguments.end(), loop.state.begin(), loop.state.end());
    absl::StatusOr<BodyResults> results = runner.Run(arguments);
    if (!results.ok() || results->size() != 1 + loop.state.size() + loop.scans.size()) {
      return NoValues(types);
    }
    if (has_condition) {
      OperandInfo next;
      if ((*results)[0].has_value() && (*results)[0]->is_tensor())
        next.value = (*results)[0]->tensor();
      condition = ScalarOf(next);
      if (!condition.has_value()) return NoValues(types);
    }
    for (size_t i = 0; i < loop.state.size(); ++i) {
      if (!(*results)[i + 1].has_value()) return NoValues(types);
      loop.state[i] = *(*results)[i + 1];
    }
    if (!AppendScans(*results, 1 + loop.state.size(), core.max_value_bytes(), loop)) {
      return NoValues(types);
    }
    core.note_transient_bytes(loop.bytes() + runner.peak_trip_bytes());
  }
  const std::vector<int64_t> axes(loop.scans.size(), 0);
  return Finish(loop, types, axes, core.max_value_bytes());
}

namespace {

// The scan inputs of one Scan run: tensors, the axis each is scanned along, its direction.
struct ScanInputs {
  std::vector<Tensor> tensors;
  std::vector<int64_t> axes;
  std::vector<int64_t> directions;
  int64_t length = 0;  // trips: the extent of every scanned axis
};

// Runs the trips of one Scan over `inputs` from the states in `loop`; false if a trip cannot be
// computed (then nothing in `loop` is meaningful).
bool RunScanTrips(GraphCore& core, BodyRunner& runner, const ScanInputs& inputs, LoopState& loop) {
  const size_t states = loop.state.size();
  for (int64_t trip = 0; trip < inputs.length; ++trip) {
    std::vector<Value> arguments = loop.state;
    for (size_t j = 0; j < inputs.tensors.size(); ++j) {
      const int64_t index = inputs.directions[j] == 1 ? inputs.length - 1 - trip : trip;
      std::optional<Tensor> slice = SliceAt(inputs.tensors[j], inputs.axes[j], index);
      if (!slice.has_value()) return false;
      arguments.emplace_back(*std::move(slice));
    }
    absl::StatusOr<BodyResults> results = runner.Run(arguments);
    if (!results.ok() || results->size() != states + loop.scans.size()) return false;
    for (size_t i = 0; i < states; ++i) {
      if (!(*results)[i].has_value()) return false;
      loop.state[i] = *(*results)[i];
    }
    if (!AppendScans(*results, states, core.max_value_bytes(), loop)) return false;
    core.note_transient_bytes(loop.bytes() + runner.peak_trip_bytes());
  }
  return true;
}

// The scan inputs `tensors`, scanned along `axes` (negative from the end); nullopt if an axis is
// out of range or the scanned extents differ.
std::optional<ScanInputs> ScanInputsOf(std::vector<Tensor> tensors,
                                       const std::vector<int64_t>& axes,
                                       std::vector<int64_t> directions) {
  ScanInputs inputs;
  inputs.length = -1;
  for (size_t j = 0; j < tensors.size(); ++j) {
    const int64_t rank = tensors[j].rank();
    const int64_t axis = axes[j] < 0 ? axes[j] + rank : axes[j];
    if (axis < 0 || axis >= rank) return std::nullopt;
    const int64_t extent = tensors[j].shape()[static_cast<size_t>(axis)];
    if (inputs.length >= 0 && extent != inputs.length) return std::nullopt;
    inputs.length = extent;
    inputs.axes.push_back(axis);
  }
  inputs.tensors = std::move(tensors);
  inputs.directions = std::move(directions);
  return inputs;
}

// The initial values of operands [first, first + count), or nullopt if one is unknown.
std::optional<std::vector<Value>> KnownValues(absl::Span<const OperandInfo> operands, size_t first,
                                              size_t count) {
  std::vector<Value> values;
  for (size_t i = first; i < first + count; ++i) {
    std::optional<Value> value = OperandValue(operands[i]);
    if (!value.has_value()) return std::nullopt;
    values.push_back(*std::move(value));
  }
  return values;
}

// The tensors of operands [first, first + count), or nullopt if one is unknown.
std::optional<std::vector<Tensor>> KnownTensors(absl::Span<const OperandInfo> operands,
                                                size_t first, size_t count) {
  std::vector<Tensor> tensors;
  for (size_t i = first; i < first + count; ++i) {
    if (!operands[i].value.has_value()) return std::nullopt;
    tensors.push_back(*operands[i].value);
  }
  return tensors;
}

}  // namespace

OutputValues PropagateScan(GraphCore& core, SubgraphId body, absl::Span<const OperandInfo> operands,
                           absl::Span<const OutputType> types,
                           const std::vector<Attribute>& attributes) {
  const int64_t given = IntAttribute(attributes, "num_scan_inputs");
  if (given <= 0 || given > static_cast<int64_t>(operands.size())) return NoValues(types);
  const auto scan_inputs = static_cast<size_t>(given);
  const size_t states = operands.size() - scan_inputs;
  if (types.size() < states) return NoValues(types);
  const size_t scan_outputs = types.size() - states;
  std::vector<int64_t> out_axes = IntsAttribute(attributes, "scan_output_axes", scan_outputs);
  const std::vector<int64_t> out_directions =
      IntsAttribute(attributes, "scan_output_directions", scan_outputs);
  const std::vector<int64_t> in_axes = IntsAttribute(attributes, "scan_input_axes", scan_inputs);
  std::vector<int64_t> in_directions =
      IntsAttribute(attributes, "scan_input_directions", scan_inputs);
  if (in_axes.size() != scan_inputs || in_directions.size() != scan_inputs ||
      out_axes.size() != scan_outputs || out_directions.size() != scan_outputs) {
    return NoValues(types);
  }
  std::optional<std::vector<Value>> initial = KnownValues(operands, 0, states);
  std::optional<std::vector<Tensor>> scanned = KnownTensors(operands, states, scan_inputs);
  if (!initial.has_value() || !scanned.has_value()) return NoValues(types);
  std::optional<ScanInputs> inputs =
      ScanInputsOf(*std::move(scanned), in_axes, std::move(in_directions));
  if (!inputs.has_value()) return NoValues(types);
  LoopState loop;
  loop.state = *std::move(initial);
  loop.scans.resize(scan_outputs);
  BodyRunner runner(core, body);
  if (!RunScanTrips(core, runner, *inputs, loop)) return NoValues(types);
  for (size_t k = 0; k < scan_outputs; ++k) {
    if (out_directions[k] == 1) std::reverse(loop.scans[k].begin(), loop.scans[k].end());
    if (!loop.scans[k].empty() && out_axes[k] < 0) out_axes[k] += loop.scans[k][0].rank() + 1;
    if (out_axes[k] < 0) return NoValues(types);
  }
  return Finish(loop, types, out_axes, core.max_value_bytes());
}

OutputValues PropagateScan8(GraphCore& core, SubgraphId body,
                            absl::Span<const OperandInfo> operands,
                            absl::Span<const OutputType> types,
                            const std::vector<Attribute>& attributes) {
  const int64_t given = IntAttribute(attributes, "num_scan_inputs");
  if (given <= 0 || given + 1 > static_cast<int64_t>(operands.size())) return NoValues(types);
  const auto scan_inputs = static_cast<size_t>(given);
  const size_t states = operands.size() - 1 - scan_inputs;
  if (types.size() < states) return NoValues(types);
  const size_t scan_outputs = types.size() - states;
  const std::vector<int64_t> directions = IntsAttribute(attributes, "directions", scan_inputs);
  std::optional<std::vector<Tensor>> initial = KnownTensors(operands, 1, states);
  std::optional<std::vector<Tensor>> scanned = KnownTensors(operands, 1 + states, scan_inputs);
  if (!initial.has_value() || !scanned.has_value() || directions.size() != scan_inputs ||
      scanned->empty() || (*scanned)[0].rank() < 2) {
    return NoValues(types);
  }
  const int64_t batch = (*scanned)[0].shape()[0];
  const int64_t length = (*scanned)[0].shape()[1];
  if (operands[0].present) {  // sequence_lens: only the full length is computed
    if (!operands[0].value.has_value()) return NoValues(types);
    for (int64_t given : kernels::ReadInt64s(*operands[0].value)) {
      if (given != length) return NoValues(types);
    }
  }
  // Each batch entry is a Scan-9 run over its slices; the results stack along the batch axis.
  std::vector<std::vector<Tensor>> finals(states);
  std::vector<std::vector<Tensor>> scans(scan_outputs);
  BodyRunner runner(core, body);
  for (int64_t b = 0; b < batch; ++b) {
    LoopState loop;
    std::vector<Tensor> slices;
    for (const Tensor& state : *initial) {
      std::optional<Tensor> slice =
          state.rank() > 0 && state.shape()[0] == batch ? SliceAt(state, 0, b) : std::nullopt;
      if (!slice.has_value()) return NoValues(types);
      loop.state.emplace_back(*std::move(slice));
    }
    for (const Tensor& input : *scanned) {
      std::optional<Tensor> slice =
          input.rank() >= 2 && input.shape()[0] == batch ? SliceAt(input, 0, b) : std::nullopt;
      if (!slice.has_value()) return NoValues(types);
      slices.push_back(*std::move(slice));
    }
    std::optional<ScanInputs> inputs =
        ScanInputsOf(std::move(slices), std::vector<int64_t>(scan_inputs, 0), directions);
    if (!inputs.has_value() || inputs->length != length) return NoValues(types);
    loop.scans.resize(scan_outputs);
    if (!RunScanTrips(core, runner, *inputs, loop)) return NoValues(types);
    for (size_t i = 0; i < states; ++i) {
      if (!loop.state[i].is_tensor()) return NoValues(types);
      finals[i].push_back(loop.state[i].tensor());
    }
    for (size_t k = 0; k < scan_outputs; ++k) {
      std::optional<Tensor> stacked = Stack(loop.scans[k], 0, OutputType(), INT64_MAX);
      if (!stacked.has_value()) return NoValues(types);
      scans[k].push_back(*std::move(stacked));
    }
  }
  LoopState batched;
  for (std::vector<Tensor>& per_batch : finals) {
    std::optional<Tensor> stacked =
        Stack(per_batch, 0, types[batched.state.size()], core.max_value_bytes());
    if (!stacked.has_value()) return NoValues(types);
    batched.state.emplace_back(*std::move(stacked));
  }
  batched.scans = std::move(scans);
  return Finish(batched, types, std::vector<int64_t>(scan_outputs, 0), core.max_value_bytes());
}

OutputValues PropagateSequenceMap(GraphCore& core, SubgraphId body,
                                  absl::Span<const OperandInfo> operands,
                                  absl::Span<const OutputType> types) {
  std::vector<Value> inputs;
  int64_t length = -1;
  for (const OperandInfo& info : operands) {
    std::optional<Value> value = OperandValue(info);
    if (!value.has_value()) return NoValues(types);
    if (value->kind() == Value::Kind::kSequence) {
      const auto count = static_cast<int64_t>(value->elements().size());
      if (length >= 0 && count != length) return NoValues(types);
      length = count;
    }
    inputs.push_back(*std::move(value));
  }
  if (length < 0) return NoValues(types);
  std::vector<std::vector<Value>> outputs(types.size());
  BodyRunner runner(core, body);
  int64_t held = 0;
  for (int64_t trip = 0; trip < length; ++trip) {
    std::vector<Value> arguments;
    for (const Value& input : inputs) {
      arguments.push_back(input.kind() == Value::Kind::kSequence
                              ? input.elements()[static_cast<size_t>(trip)]
                              : input);
    }
    absl::StatusOr<BodyResults> results = runner.Run(arguments);
    if (!results.ok() || results->size() != types.size()) return NoValues(types);
    for (size_t k = 0; k < types.size(); ++k) {
      if (!(*results)[k].has_value()) return NoValues(types);
      held += static_cast<int64_t>((*results)[k]->nbytes());
      if (held > core.max_value_bytes()) return NoValues(types);
      outputs[k].push_back(*(*results)[k]);
    }
    core.note_transient_bytes(held + runner.peak_trip_bytes());
  }
  OutputValues values(types.size());
  for (size_t k = 0; k < types.size(); ++k) {
    Value sequence = Value::Sequence(std::move(outputs[k]));
    OutputType type = types[k];
    if (!CheckOutputValue(k, sequence, type).ok()) return NoValues(types);
    values[k] = std::move(sequence);
  }
  return values;
}

}  // namespace graphgc::internal
