#include "graphgc/ir/arena.h"

#include <cstring>
#include <type_traits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "graphgc/ir/limits.h"
#include "graphgc/valuestore/check.h"

namespace graphgc {
namespace internal {
namespace {

template <class Map>
int64_t MapBytes(const Map& map) {
  return static_cast<int64_t>(map.capacity() * (sizeof(typename Map::value_type) + 1));
}

}  // namespace

Arena::Arena() {
  strings_.emplace_back();  // StringId 0 is ""
  string_index_.emplace("", 0);
}

StringId Arena::intern(absl::string_view text) {
  auto it = string_index_.find(text);
  if (it != string_index_.end()) return StringId(it->second);
  const uint32_t id = static_cast<uint32_t>(strings_.size());
  strings_.emplace_back(text);
  string_index_.emplace(std::string(text), id);
  // The deque's copy and the index's key: each a std::string, plus a heap block past the
  // small-string buffer (the index's slots themselves are counted with its capacity).
  const std::string& stored = strings_.back();
  const bool on_heap = stored.capacity() > std::string().capacity();
  string_bytes_ += static_cast<int64_t>(sizeof(std::string)) +
                   (on_heap ? 2 * static_cast<int64_t>(stored.capacity() + 1) : 0);
  return StringId(id);
}

// IDs come only from intern(), so every one indexes the deque.
absl::string_view Arena::string(StringId id) const {
  GRAPHGC_CHECK(id.value() < strings_.size(), "a StringId this arena never made");
  return strings_[id.value()];
}

std::vector<StringId> Arena::intern_names(absl::Span<const std::string> names) {
  std::vector<StringId> ids;
  ids.reserve(names.size());
  for (const std::string& name : names) ids.push_back(name.empty() ? StringId() : intern(name));
  return ids;
}

std::vector<std::string> Arena::names(absl::Span<const StringId> ids) const {
  std::vector<std::string> names;
  names.reserve(ids.size());
  for (StringId id : ids) names.emplace_back(id.valid() ? string(id) : "");
  return names;
}

std::optional<StringId> Arena::find_string(absl::string_view text) const {
  auto it = string_index_.find(text);
  if (it == string_index_.end()) return std::nullopt;
  return StringId(it->second);
}

namespace {
// A loop rather than operator==, whose memcmp call costs more than comparing an op's few letters.
bool SameText(absl::string_view a, absl::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}
}  // namespace

size_t Arena::AddressSlot(const char* address) {
  // Fibonacci hashing: the top bits of the product mix every bit of the address.
  constexpr uint64_t kGoldenRatio = 0x9E3779B97F4A7C15ull;
  const uint64_t mixed = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(address)) * kGoldenRatio;
  return static_cast<size_t>(mixed >> (64 - kOpKindCacheBits));
}

OpKindId Arena::intern_op(absl::string_view op_type, absl::string_view domain, int version) {
  // Two ways per set, the newer first: two hot op types whose addresses share a set (the linker
  // places them) would otherwise evict each other on every node.
  OpKindByAddress* set = &op_kind_by_address_[AddressSlot(op_type.data()) & ~size_t{1}];
  for (int way = 0; way < 2; ++way) {
    const OpKindByAddress& cached = set[way];
    if (cached.address != op_type.data()) continue;
    const OpKind& kind = op_kinds_[cached.kind];
    if (kind.version == version && SameText(kind.op_type, op_type) &&
        SameText(kind.domain, domain)) {
      return OpKindId(cached.kind);
    }
  }
  const OpKindId id = intern_op_slow(op_type, domain, version);
  if (id.valid()) {
    set[1] = set[0];
    set[0] = {op_type.data(), static_cast<uint16_t>(id.value())};
  }
  return id;
}

OpKindId Arena::intern_op_slow(absl::string_view op_type, absl::string_view domain, int version) {
  std::string key = absl::StrCat(domain, absl::string_view("\0", 1), op_type,
                                 absl::string_view("\0", 1), version);
  auto it = op_kind_index_.find(key);
  if (it != op_kind_index_.end()) return OpKindId(it->second);
  if (op_kinds_.size() >= kMaxOpKinds) return OpKindId();
  const uint16_t id = static_cast<uint16_t>(op_kinds_.size());
  op_kinds_.push_back(OpKind{std::string(op_type), std::string(domain), version,
                             op_type == "Constant" && domain.empty()});
  op_resolutions_.push_back(nullptr);
  op_kind_index_.emplace(std::move(key), id);
  return OpKindId(id);
}

// IDs come only from intern_op(), so every one indexes the deque.
const OpKind& Arena::op_kind(OpKindId id) const {
  GRAPHGC_CHECK(id.value() < op_kinds_.size(), "an OpKindId this arena never made");
  return op_kinds_[id.value()];
}

bool Arena::IsLastShape(absl::Span<const int64_t> shape) const {
  if (last_shape_rank_ != static_cast<int64_t>(shape.size())) return false;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (dims_pool_[last_shape_begin_ + i] != shape[i]) return false;
  }
  return true;
}

uint32_t Arena::intern_shape(absl::Span<const int64_t> shape) {
  if (IsLastShape(shape)) return last_shape_begin_;
  Shape key(shape.begin(), shape.end());
  auto it = shape_index_.find(key);
  uint32_t begin;
  if (it != shape_index_.end()) {
    begin = it->second;
  } else {
    begin = static_cast<uint32_t>(dims_pool_.size());
    for (int64_t dim : shape) dims_pool_.push_back(dim);
    shape_index_.emplace(std::move(key), begin);
  }
  last_shape_begin_ = begin;
  last_shape_rank_ = static_cast<int64_t>(shape.size());
  return begin;
}

bool Arena::full() const {
  for (size_t size :
       {nodes_.size(), vars_.size(), input_pool_.size(), dims_pool_.size(), attr_pool_.size(),
        int_list_pool_.size(), float_list_pool_.size(), string_list_pool_.size(), strings_.size(),
        other_types_.size(), subgraphs_.size()}) {
    if (size >= kMaxArenaEntries) return true;
  }
  return false;
}

uint32_t Arena::new_var(VarRecord record) { return vars_.push_back(record); }

NodeId Arena::add_node(OpKindId op, absl::Span<const VarId> inputs,
                       absl::Span<const Attribute> attrs, int num_outputs) {
  // Graph::constant and BuildNode run CheckNodeArity before they make a node.
  GRAPHGC_CHECK(NodeArityFits(inputs.size(), attrs.size(), num_outputs),
                "node arity out of range (callers validate it)");
  NodeRecord node{};
  node.op = static_cast<uint16_t>(op.value());
  node.num_inputs = static_cast<uint16_t>(inputs.size());
  node.num_outputs = static_cast<uint16_t>(num_outputs);
  node.num_attrs = static_cast<uint16_t>(attrs.size());
  node.inputs_begin = static_cast<uint32_t>(input_pool_.size());
  for (VarId input : inputs) input_pool_.push_back(input);
  node.attrs_begin = static_cast<uint32_t>(attr_pool_.size());
  for (const Attribute& attr : attrs) attr_pool_.push_back(store_attribute(attr));
  const uint32_t node_index = static_cast<uint32_t>(nodes_.size());
  node.first_output = static_cast<uint32_t>(vars_.size());
  const VarKind output_kind =
      op_kinds_[op.value()].is_constant ? VarKind::kConstant : VarKind::kNodeOutput;
  for (int i = 0; i < num_outputs; ++i) {
    new_var(VarRecord{node_index, 0, 0, static_cast<int8_t>(DataType::kUndefined),
                      static_cast<uint8_t>(output_kind), -1});
  }
  return NodeId(nodes_.push_back(node));
}

VarId Arena::add_argument(StringId name, DataType dtype,
                          std::optional<absl::Span<const int64_t>> shape) {
  const VarId var(new_var(VarRecord{NodeId::kInvalidValue, 0, name.value(),
                                    static_cast<int8_t>(DataType::kUndefined),
                                    static_cast<uint8_t>(VarKind::kArgument), -1}));
  set_var_type(var, dtype, shape);
  argument_names_.insert(name);
  return var;
}

void Arena::set_var_user_name(VarId var, StringId name) {
  auto [it, inserted] = user_names_.try_emplace(var, name);
  if (!inserted) {
    vars_by_user_name_.erase(it->second);
    it->second = name;
  }
  vars_by_user_name_[name] = var;
}

std::optional<StringId> Arena::var_user_name(VarId var) const {
  auto it = user_names_.find(var);
  if (it == user_names_.end()) return std::nullopt;
  return it->second;
}

std::optional<VarId> Arena::var_with_user_name(StringId name) const {
  auto it = vars_by_user_name_.find(name);
  if (it == vars_by_user_name_.end()) return std::nullopt;
  return it->second;
}

void Arena::set_attribute_refs(NodeId node, std::vector<std::pair<StringId, StringId>> refs) {
  attribute_refs_[node] = std::move(refs);
}

const std::vector<std::pair<StringId, StringId>>* Arena::attribute_refs(NodeId node) const {
  auto it = attribute_refs_.find(node);
  return it == attribute_refs_.end() ? nullptr : &it->second;
}

void Arena::set_dim_names(VarId var, std::vector<StringId> names) {
  dim_names_[var] = std::move(names);
}

const std::vector<StringId>* Arena::dim_names(VarId var) const {
  auto it = dim_names_.find(var);
  return it == dim_names_.end() ? nullptr : &it->second;
}

void Arena::set_element_names(VarId var, std::vector<StringId> names) {
  element_names_[var] = std::move(names);
}

const std::vector<StringId>* Arena::element_names(VarId var) const {
  auto it = element_names_.find(var);
  return it == element_names_.end() ? nullptr : &it->second;
}

VarId Arena::add_subgraph_argument(SubgraphId subgraph, DataType dtype,
                                   std::optional<absl::Span<const int64_t>> shape) {
  const VarId var(
      new_var(VarRecord{NodeId::kInvalidValue, 0, 0, static_cast<int8_t>(DataType::kUndefined),
                        static_cast<uint8_t>(VarKind::kArgument), -1}));
  set_var_type(var, dtype, shape);
  subgraphs_.add_argument(subgraph, var);
  return var;
}

SubgraphId Arena::var_subgraph(VarId var) const {
  if (subgraphs_.empty()) return SubgraphId();
  const NodeId producer = var_producer(var);
  return producer.valid() ? subgraphs_.of_node(producer) : subgraphs_.of_argument(var);
}

void Arena::set_var_type(VarId var, DataType dtype,
                         std::optional<absl::Span<const int64_t>> shape) {
  if (shape.has_value()) {
    set_ranked_var_type(var, dtype, *shape);
    return;
  }
  VarRecord& record = vars_[var.value()];
  record.dtype = static_cast<int8_t>(dtype);
  record.rank = -1;
  record.shape_begin = 0;
}

void Arena::set_ranked_var_type(VarId var, DataType dtype, absl::Span<const int64_t> shape) {
  // Every public way to a type checks its rank first (CheckRank, CheckTypeLimits).
  GRAPHGC_CHECK(shape.size() <= kMaxRank, "rank out of range (callers validate it)");
  const uint32_t shape_begin = intern_shape(shape);
  VarRecord& record = vars_[var.value()];
  record.dtype = static_cast<int8_t>(dtype);
  record.rank = static_cast<int16_t>(shape.size());
  record.shape_begin = shape_begin;
}

void Arena::set_var_type(VarId var, const VarType& type) {
  if (type.is_tensor()) {
    if (type.shape().has_value()) {
      set_var_type(var, type.dtype(), absl::Span<const int64_t>(*type.shape()));
    } else {
      set_var_type(var, type.dtype(), std::nullopt);
    }
    return;
  }
  std::string key = type.Key();
  auto it = other_type_index_.find(key);
  if (it == other_type_index_.end()) {
    it =
        other_type_index_.emplace(std::move(key), static_cast<uint32_t>(other_types_.size())).first;
    other_types_.push_back(type);
  }
  VarRecord& record = vars_[var.value()];
  record.dtype = kNotATensor;
  record.rank = -1;
  record.shape_begin = it->second;
}

void Arena::set_var_shape_data(VarId var, absl::Span<const int64_t> elements) {
  GRAPHGC_CHECK(elements.size() <= UINT32_MAX, "shape data too long");
  shape_data_[var] = {intern_shape(elements), static_cast<uint32_t>(elements.size())};
}

std::optional<Shape> Arena::var_shape_data(VarId var) const {
  if (shape_data_.empty()) return std::nullopt;
  auto it = shape_data_.find(var);
  if (it == shape_data_.end()) return std::nullopt;
  Shape elements;
  for (uint32_t i = 0; i < it->second.second; ++i)
    elements.push_back(dims_pool_[it->second.first + i]);
  return elements;
}

VarType Arena::var_type(VarId var) const {
  const VarRecord& record = vars_[var.value()];
  if (record.dtype == kNotATensor) return other_types_[record.shape_begin];
  std::optional<std::vector<int64_t>> shape;
  if (record.rank >= 0) {
    shape.emplace();
    for (int i = 0; i < record.rank; ++i) shape->push_back(dims_pool_[record.shape_begin + i]);
  }
  return VarType::Tensor(static_cast<DataType>(record.dtype), std::move(shape));
}

VarId Arena::node_input(NodeId node, int index) const {
  const NodeRecord& record = nodes_[node.value()];
  GRAPHGC_CHECK(index >= 0 && index < record.num_inputs, "node input index out of range");
  return input_pool_[record.inputs_begin + index];
}

VarIdList Arena::node_inputs(NodeId node) const {
  const NodeRecord& record = nodes_[node.value()];
  VarIdList inputs;
  for (int i = 0; i < record.num_inputs; ++i)
    inputs.push_back(input_pool_[record.inputs_begin + i]);
  return inputs;
}

VarId Arena::node_output(NodeId node, int index) const {
  const NodeRecord& record = nodes_[node.value()];
  GRAPHGC_CHECK(index >= 0 && index < record.num_outputs, "node output index out of range");
  return VarId(record.first_output + index);
}

int Arena::var_output_index(VarId var) const {
  const NodeId producer = var_producer(var);
  if (!producer.valid()) return -1;
  return static_cast<int>(var.value() - nodes_[producer.value()].first_output);
}

std::optional<Shape> Arena::var_shape(VarId var) const {
  std::optional<Shape> shape;
  read_var_shape(var, shape);
  return shape;
}

void Arena::read_var_shape(VarId var, std::optional<Shape>& shape) const {
  const VarRecord& record = vars_[var.value()];
  if (record.rank < 0 || record.dtype == kNotATensor) {
    shape.reset();
    return;
  }
  const size_t rank = static_cast<size_t>(record.rank);
  if (const int64_t* dims = dims_pool_.run(record.shape_begin, rank)) {
    shape.emplace(dims, dims + rank);  // the common case: copied at once, not zeroed first
    return;
  }
  shape.emplace(rank);
  for (size_t i = 0; i < rank; ++i) (*shape)[i] = dims_pool_[record.shape_begin + i];
}

std::optional<int64_t> Arena::var_rank(VarId var) const {
  const VarRecord& record = vars_[var.value()];
  if (record.rank < 0 || record.dtype == kNotATensor) return std::nullopt;
  return record.rank;
}

Arena::AttrRecord Arena::store_attribute(const Attribute& attr) {
  AttrRecord record{};
  record.name = intern(attr.name).value();
  std::visit(
      [&](const auto& value) {
        using T = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<T, int64_t>) {
          record.type = AttrType::kInt;
          record.payload = static_cast<uint64_t>(value);
        } else if constexpr (std::is_same_v<T, float>) {
          record.type = AttrType::kFloat;
          uint32_t bits;
          std::memcpy(&bits, &value, sizeof bits);
          record.payload = bits;
        } else if constexpr (std::is_same_v<T, std::string>) {
          record.type = AttrType::kString;
          record.payload = intern(value).value();
        } else if constexpr (std::is_same_v<T, Tensor>) {
          record.type = AttrType::kTensor;
          record.payload = tensors_.size();
          if (value.buffer() != nullptr && tensor_buffers_.insert(value.buffer()).second) {
            tensor_bytes_ += static_cast<int64_t>(value.buffer_bytes());
            if (!value.is_external_view()) {
              owned_tensor_bytes_ += static_cast<int64_t>(value.buffer_bytes());
            }
          }
          tensors_.push_back(value);
        } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
          record.type = AttrType::kInts;
          record.payload = int_list_pool_.size();
          for (int64_t v : value) int_list_pool_.push_back(v);
        } else if constexpr (std::is_same_v<T, SubgraphId>) {
          GRAPHGC_CHECK(subgraphs_.closed(value), "a graph attribute names a built subgraph");
          record.type = AttrType::kGraph;
          record.payload = value.value();
        } else if constexpr (std::is_same_v<T, VarType>) {
          record.type = AttrType::kType;
          record.payload = attribute_types_.size();
          attribute_types_.push_back(value);
        } else if constexpr (std::is_same_v<T, Subgraph>) {
          GRAPHGC_CHECK(false, "op constructors build a Subgraph before making its node");
        } else if constexpr (std::is_same_v<T, std::vector<float>>) {
          record.type = AttrType::kFloats;
          record.payload = float_list_pool_.size();
          for (float v : value) float_list_pool_.push_back(v);
        } else {
          static_assert(std::is_same_v<T, std::vector<std::string>>);
          record.type = AttrType::kStrings;
          record.payload = string_list_pool_.size();
          for (const std::string& v : value) string_list_pool_.push_back(intern(v).value());
        }
        if constexpr (!std::is_arithmetic_v<T> && !std::is_same_v<T, std::string> &&
                      !std::is_same_v<T, Tensor> && !std::is_same_v<T, SubgraphId> &&
                      !std::is_same_v<T, VarType> && !std::is_same_v<T, Subgraph>) {
          record.count = static_cast<uint32_t>(value.size());
        }
      },
      attr.value);
  return record;
}

AttributeValue Arena::load_attribute(const AttrRecord& record) const {
  switch (record.type) {
    case AttrType::kInt:
      return static_cast<int64_t>(record.payload);
    case AttrType::kFloat: {
      const uint32_t bits = static_cast<uint32_t>(record.payload);
      float value;
      std::memcpy(&value, &bits, sizeof value);
      return value;
    }
    case AttrType::kString:
      return std::string(string(StringId(static_cast<uint32_t>(record.payload))));
    case AttrType::kTensor:
      return tensors_[record.payload];
    case AttrType::kInts: {
      std::vector<int64_t> values;
      for (uint32_t i = 0; i < record.count; ++i)
        values.push_back(int_list_pool_[record.payload + i]);
      return values;
    }
    case AttrType::kFloats: {
      std::vector<float> values;
      for (uint32_t i = 0; i < record.count; ++i)
        values.push_back(float_list_pool_[record.payload + i]);
      return values;
    }
    case AttrType::kType:
      return attribute_types_[record.payload];
    case AttrType::kGraph:
      return SubgraphId(static_cast<uint32_t>(record.payload));
    case AttrType::kStrings: {
      std::vector<std::string> values;
      for (uint32_t i = 0; i < record.count; ++i) {
        values.emplace_back(string(StringId(string_list_pool_[record.payload + i])));
      }
      return values;
    }
  }
  GRAPHGC_CHECK(false, "corrupt attribute record");
  return int64_t{0};
}

std::vector<Attribute> Arena::node_attributes(NodeId node) const {
  const NodeRecord& record = nodes_[node.value()];
  std::vector<Attribute> attrs;
  for (int i = 0; i < record.num_attrs; ++i) {
    const AttrRecord& attr = attr_pool_[record.attrs_begin + i];
    attrs.push_back(Attribute{std::string(string(StringId(attr.name))), load_attribute(attr)});
  }
  return attrs;
}

std::optional<AttributeValue> Arena::node_attribute(NodeId node, absl::string_view name) const {
  const std::optional<StringId> name_id = find_string(name);
  if (!name_id.has_value()) return std::nullopt;
  const NodeRecord& record = nodes_[node.value()];
  for (int i = 0; i < record.num_attrs; ++i) {
    const AttrRecord& attr = attr_pool_[record.attrs_begin + i];
    if (attr.name == name_id->value()) return load_attribute(attr);
  }
  return std::nullopt;
}

std::optional<Tensor> Arena::node_value_tensor(NodeId node) const {
  const NodeRecord& record = nodes_[node.value()];
  for (int i = 0; i < record.num_attrs; ++i) {
    const AttrRecord& attr = attr_pool_[record.attrs_begin + i];
    if (string(StringId(attr.name)) != "value") continue;
    if (attr.type != AttrType::kTensor) return std::nullopt;
    return tensors_[attr.payload];
  }
  return std::nullopt;
}

int64_t Arena::bytes() const {
  int64_t total = 0;
  total += static_cast<int64_t>(
      nodes_.capacity_bytes() + vars_.capacity_bytes() + input_pool_.capacity_bytes() +
      dims_pool_.capacity_bytes() + attr_pool_.capacity_bytes() + int_list_pool_.capacity_bytes() +
      float_list_pool_.capacity_bytes() + string_list_pool_.capacity_bytes());
  total += MapBytes(shape_index_) + MapBytes(string_index_) + MapBytes(op_kind_index_);
  total += string_bytes_;
  total += static_cast<int64_t>(op_kinds_.size() * sizeof(OpKind));
  total += static_cast<int64_t>(op_resolutions_.capacity() * sizeof(const ResolvedOp*));
  total += static_cast<int64_t>(tensors_.capacity() * sizeof(Tensor)) + tensor_bytes_ +
           MapBytes(tensor_buffers_);
  total += MapBytes(argument_names_) + MapBytes(user_names_) + MapBytes(vars_by_user_name_) +
           MapBytes(dim_names_) + MapBytes(element_names_) + MapBytes(attribute_refs_);
  total += subgraphs_.bytes();
  total += MapBytes(shape_data_);
  total += MapBytes(other_type_index_) +
           static_cast<int64_t>(other_types_.size() * (sizeof(VarType) + sizeof(std::string)) +
                                attribute_types_.size() * sizeof(VarType));
  return total;
}

}  // namespace internal
}  // namespace graphgc
