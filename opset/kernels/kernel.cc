#include "graphgc/opset/kernels/kernel.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"

namespace graphgc::kernels {

bool KernelContext::has_input(int index) const {
  return index >= 0 && index < num_inputs() && call_.inputs[static_cast<size_t>(index)] != nullptr;
}

const Tensor& KernelContext::input(int index) const {
  GRAPHGC_CHECK(has_input(index), "KernelContext::input of an omitted input (kernels check it)");
  return *call_.inputs[static_cast<size_t>(index)];
}

std::vector<KernelAttribute> KernelContext::attributes() const {
  std::vector<KernelAttribute> all(call_.attributes.begin(), call_.attributes.end());
  for (const KernelAttribute& fallback : call_.defaults) {
    const bool given =
        std::any_of(call_.attributes.begin(), call_.attributes.end(),
                    [&](const KernelAttribute& a) { return a.name == fallback.name; });
    if (!given) all.push_back(fallback);
  }
  return all;
}

const Tensor* KernelContext::optional_input(int index) const {
  return has_input(index) ? call_.inputs[static_cast<size_t>(index)] : nullptr;
}

const Value* KernelContext::value_input(int index) const {
  if (index < 0 || static_cast<size_t>(index) >= call_.values.size()) return nullptr;
  const std::optional<Value>& value = call_.values[static_cast<size_t>(index)];
  return value.has_value() ? &*value : nullptr;
}

std::optional<absl::Span<const int64_t>> KernelContext::input_shape(int index) const {
  if (has_input(index)) return input(index).shape();
  const size_t i = static_cast<size_t>(index);
  if (index >= 0 && i < call_.input_shapes.size() && call_.input_shapes[i].has_value()) {
    return absl::Span<const int64_t>(*call_.input_shapes[i]);
  }
  return std::nullopt;
}

std::string KernelContext::input_label(int index) const {
  if (index >= 0 && static_cast<size_t>(index) < call_.input_names.size()) {
    return absl::StrCat("input ", index, " (", call_.input_names[static_cast<size_t>(index)], ")");
  }
  return absl::StrCat("input ", index);
}

const KernelAttribute* KernelContext::find(absl::string_view name) const {
  for (const KernelAttribute& attribute : call_.attributes) {
    if (attribute.name == name) return &attribute;
  }
  for (const KernelAttribute& attribute : call_.defaults) {
    if (attribute.name == name) return &attribute;
  }
  return nullptr;
}

int64_t KernelContext::int_attribute(absl::string_view name, int64_t fallback) const {
  const int64_t* value = get<int64_t>(name);
  return value == nullptr ? fallback : *value;
}

float KernelContext::float_attribute(absl::string_view name, float fallback) const {
  const float* value = get<float>(name);
  return value == nullptr ? fallback : *value;
}

std::string KernelContext::string_attribute(absl::string_view name,
                                            absl::string_view fallback) const {
  const std::string* value = get<std::string>(name);
  return value == nullptr ? std::string(fallback) : *value;
}

std::optional<std::vector<int64_t>> KernelContext::ints_attribute(absl::string_view name) const {
  return copy_of<std::vector<int64_t>>(name);
}

std::optional<std::vector<float>> KernelContext::floats_attribute(absl::string_view name) const {
  return copy_of<std::vector<float>>(name);
}

std::optional<std::vector<std::string>> KernelContext::strings_attribute(
    absl::string_view name) const {
  return copy_of<std::vector<std::string>>(name);
}

const Tensor* KernelContext::tensor_attribute(absl::string_view name) const {
  return get<Tensor>(name);
}

bool KernelContext::within_budget(DataType dtype, int64_t count) const {
  const int64_t element_size = static_cast<int64_t>(ElementSize(dtype));
  return count >= 0 && (element_size == 0 || count <= call_.max_value_bytes / element_size);
}

absl::StatusOr<MutableTensor> KernelContext::allocate(DataType dtype,
                                                      absl::Span<const int64_t> shape) const {
  absl::StatusOr<int64_t> count = ElementCount(shape);
  if (!count.ok()) return absl::ResourceExhaustedError(count.status().message());
  if (!within_budget(dtype, *count)) {
    return absl::ResourceExhaustedError(
        absl::StrCat("a ", DataTypeName(dtype), " value of shape ", ShapeToString(shape),
                     " exceeds the value budget of ", call_.max_value_bytes, " bytes"));
  }
  absl::StatusOr<MutableTensor> out = MutableTensor::allocate(dtype, shape);
  if (!out.ok()) return absl::ResourceExhaustedError(out.status().message());
  return out;
}

absl::StatusOr<MutableTensor> KernelContext::allocate_output(int index) const {
  const OutputSpec& spec = output(index);
  if (!spec.shape.has_value()) return Decline("the output's rank is not known");
  for (int64_t dim : *spec.shape) {
    if (dim < 0) return Decline("the output's shape is not known");
  }
  return allocate(spec.dtype, *spec.shape);
}

absl::Status KernelContext::input_error(int index, absl::string_view why) const {
  return absl::InvalidArgumentError(absl::StrCat(input_label(index), ": ", why));
}

bool Fits(const Tensor& value, DataType dtype, const std::optional<Shape>& shape) {
  if (value.dtype() != dtype) return false;
  if (!shape.has_value()) return true;
  if (shape->size() != value.shape().size()) return false;
  for (size_t d = 0; d < shape->size(); ++d) {
    if ((*shape)[d] >= 0 && (*shape)[d] != value.shape()[d]) return false;
  }
  return true;
}

absl::Status Decline(absl::string_view why) { return absl::UnimplementedError(why); }

bool MeansNoValue(const absl::Status& status) {
  return absl::IsUnimplemented(status) || absl::IsResourceExhausted(status);
}

}  // namespace graphgc::kernels
