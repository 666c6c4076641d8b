// Arena: the append-only store of a graph's nodes, vars, attributes, names and constant tensors.
//
// Everything is addressed by strong IDs (NodeId, VarId, StringId, OpKindId) and nothing is ever
// erased, so an ID stays valid for the life of the graph. Records are small and fixed-size:
//
//   NodeRecord (20 B): op kind | #inputs | #outputs | #attrs | inputs@pool | first output |
//   attrs@pool VarRecord  (16 B): producer | shape@dims pool | name | dtype | kind | rank
//                      (a sequence, optional or map var: dtype kNotATensor, shape@interned types)
//
// A node's outputs are consecutive VarIds starting at first_output. Input lists, dims and attribute
// records live in ChunkedVector pools; shapes are interned, so vars of equal shape share one copy.
// Constant tensors (the arena's only large payloads) are held by the arena and never freed while
// the graph lives. Accessors copy values out: no pointer into the pools leaves the arena.
// Threading: thread-compatible, owned by one Graph.
#ifndef GRAPHGC_ARENA_H_
#define GRAPHGC_ARENA_H_

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graphgc/ir/attribute.h"
#include "graphgc/ir/chunked_vector.h"
#include "graphgc/ir/ids.h"
#include "graphgc/ir/subgraph_table.h"
#include "graphgc/ir/var_type.h"
#include "graphgc/valuestore/data_type.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc {
namespace internal {

// What the opset module resolves once per op kind (its kernel, the schema's defaults), defined
// there (opset/values/kernel_registry.h); ir only keeps a pointer to it per op kind.
struct ResolvedOp;

enum class VarKind : uint8_t {
  kNodeOutput = 0,  // produced by a node
  kArgument = 1,    // a graph input, created by Graph::argument
  kConstant = 2,    // the output of an ai.onnx Constant node: its value is the node's tensor
};

struct OpKind {
  std::string op_type;
  std::string domain;  // "" is ai.onnx
  int version = 0;
  bool is_constant = false;  // ai.onnx Constant
};

using VarIdList = absl::InlinedVector<VarId, 4>;

// Identifies a var's type within one arena: shapes and non-tensor types are interned, so two vars
// with equal keys have equal types. Lets a caller convert each distinct type once (export does).
struct TypeKey {
  int8_t dtype;    // the element type, or the arena's marker of a non-tensor type
  int16_t rank;    // -1: unknown
  uint32_t index;  // where the interned shape or non-tensor type lives

  friend bool operator==(const TypeKey& a, const TypeKey& b) {
    return a.dtype == b.dtype && a.rank == b.rank && a.index == b.index;
  }
  template <typename H>
  friend H AbslHashValue(H h, const TypeKey& key) {
    return H::combine(std::move(h), key.dtype, key.rank, key.index);
  }
};

class Arena {
 public:
  Arena();
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;

  StringId intern(absl::string_view text);
  // Stable for the life of the arena (strings live in a deque, which never relocates).
  absl::string_view string(StringId id) const;
  // The ID of `text` if it was ever interned.
  std::optional<StringId> find_string(absl::string_view text) const;
  // Names as the arena keeps them (dim names): an invalid ID for "", and back.
  std::vector<StringId> intern_names(absl::Span<const std::string> names);
  std::vector<std::string> names(absl::Span<const StringId> ids) const;

  // An invalid ID once the graph holds kMaxOpKinds distinct kinds and this is a new one. (Not an
  // optional: GCC builds that in memory and reads it back wider than it wrote it, which stalls
  // the hot path of every op.)
  OpKindId intern_op(absl::string_view op_type, absl::string_view domain, int version);
  const OpKind& op_kind(OpKindId id) const;  // stable: op kinds live in a deque
  // A slot per op kind for what the opset module resolves once (its kernel); null until then.
  const ResolvedOp* op_resolution(OpKindId id) const { return op_resolutions_[id.value()]; }
  void set_op_resolution(OpKindId id, const ResolvedOp* resolution) {
    op_resolutions_[id.value()] = resolution;
  }

  // Appends a node and its `num_outputs` output vars (typed later with set_var_type). An invalid
  // VarId in `inputs` stands for an omitted optional input.
  NodeId add_node(OpKindId op, absl::Span<const VarId> inputs, absl::Span<const Attribute> attrs,
                  int num_outputs);
  VarId add_argument(StringId name, DataType dtype, std::optional<absl::Span<const int64_t>> shape);
  bool is_argument_name(StringId name) const { return argument_names_.contains(name); }
  // Names users gave vars (Graph::name) for the export; the graph keeps them unique among
  // themselves and the arguments' names. Setting one replaces the var's earlier name.
  void set_var_user_name(VarId var, StringId name);
  std::optional<StringId> var_user_name(VarId var) const;
  std::optional<VarId> var_with_user_name(StringId name) const;
  const absl::flat_hash_map<VarId, StringId>& user_named_vars() const { return user_names_; }
  // The names of a var's symbolic dims (an argument's Dims, and what ONNX's inference derives
  // from them through the ops), an invalid StringId for a dim without one; nullptr for a var
  // without any. Kept for the arena's life, as the var's other metadata.
  void set_dim_names(VarId var, std::vector<StringId> names);
  const std::vector<StringId>* dim_names(VarId var) const;
  bool has_dim_names() const { return !dim_names_.empty(); }
  // In a function's body: the node's attributes that take the function's attributes (ONNX's
  // ref_attr_name), as (the node's attribute, the function's); nullptr for a node without any.
  // The node holds the value it was traced with as well.
  void set_attribute_refs(NodeId node, std::vector<std::pair<StringId, StringId>> refs);
  const std::vector<std::pair<StringId, StringId>>* attribute_refs(NodeId node) const;
  bool has_attribute_refs() const { return !attribute_refs_.empty(); }
  // Likewise for the unknown elements of a shape computation (var_shape_data): element i of
  // Shape(x) is named as x's dim i is, and Gather, Concat, ... carry the name on.
  void set_element_names(VarId var, std::vector<StringId> names);
  const std::vector<StringId>* element_names(VarId var) const;
  void set_var_type(VarId var, DataType dtype, std::optional<absl::Span<const int64_t>> shape);
  // A tensor of known rank: the same as set_var_type with a shape, the span passed in registers
  // (an optional span goes through memory, which the hot path of every op paid for).
  void set_ranked_var_type(VarId var, DataType dtype, absl::Span<const int64_t> shape);
  // Any type: a tensor goes into the var record, a sequence, optional or map is interned.
  void set_var_type(VarId var, const VarType& type);

  // Partly known values of shape computations (ONNX's data propagation): the elements of a small
  // int64 tensor, kUnknownElement where unknown. Kept for vars whose value is not fully known.
  static constexpr int64_t kUnknownElement = INT64_MIN;
  void set_var_shape_data(VarId var, absl::Span<const int64_t> elements);
  std::optional<Shape> var_shape_data(VarId var) const;
  // False while no var has shape data (most graphs): callers skip the lookup.
  bool has_shape_data() const { return !shape_data_.empty(); }

  // Subgraphs (see subgraph_table.h): nodes appended between begin_subgraph and end_subgraph
  // belong to the subgraph; its arguments are unnamed argument vars.
  SubgraphId begin_subgraph() { return subgraphs_.open(static_cast<uint32_t>(nodes_.size())); }
  VarId add_subgraph_argument(SubgraphId subgraph, DataType dtype,
                              std::optional<absl::Span<const int64_t>> shape);
  void end_subgraph(SubgraphId subgraph, absl::Span<const VarId> results) {
    subgraphs_.close(subgraph, static_cast<uint32_t>(nodes_.size()), results);
  }
  const SubgraphTable& subgraphs() const { return subgraphs_; }
  // The subgraph a var belongs to; SubgraphId() for the main graph.
  SubgraphId var_subgraph(VarId var) const;

  // True once any of the arena's tables holds kMaxArenaEntries: callers refuse new nodes and vars
  // then, so that no table can reach its 32-bit index limit (one node adds far fewer entries).
  bool full() const;
  size_t num_nodes() const { return nodes_.size(); }
  size_t num_vars() const { return vars_.size(); }

  // Nodes.
  OpKindId node_op(NodeId node) const { return OpKindId(nodes_[node.value()].op); }
  int node_num_inputs(NodeId node) const { return nodes_[node.value()].num_inputs; }
  VarId node_input(NodeId node, int index) const;
  VarIdList node_inputs(NodeId node) const;
  int node_num_outputs(NodeId node) const { return nodes_[node.value()].num_outputs; }
  int node_num_attributes(NodeId node) const { return nodes_[node.value()].num_attrs; }
  VarId node_output(NodeId node, int index) const;
  std::vector<Attribute> node_attributes(NodeId node) const;
  std::optional<AttributeValue> node_attribute(NodeId node, absl::string_view name) const;
  // The tensor of the node's `value` attribute (a Constant's), if it has one: node_attribute's
  // answer without building an AttributeValue, for every read of a constant operand.
  std::optional<Tensor> node_value_tensor(NodeId node) const;

  // Vars.
  VarKind var_kind(VarId var) const { return static_cast<VarKind>(vars_[var.value()].kind); }
  // A tensor's element type; kUndefined for a var of another kind (see var_type).
  DataType var_dtype(VarId var) const {
    const int8_t dtype = vars_[var.value()].dtype;
    return dtype == kNotATensor ? DataType::kUndefined : static_cast<DataType>(dtype);
  }
  bool var_is_tensor(VarId var) const { return vars_[var.value()].dtype != kNotATensor; }
  VarType var_type(VarId var) const;
  TypeKey var_type_key(VarId var) const {
    const VarRecord& record = vars_[var.value()];
    return TypeKey{record.dtype, record.rank, record.shape_begin};
  }
  // nullopt when the rank is unknown; -1 marks an unknown dim.
  std::optional<Shape> var_shape(VarId var) const;
  // var_shape, written into `shape` in place: the hot path of every op reads its operands' shapes
  // this way, without a copy whose 16-byte loads would wait on the fill's 8-byte stores.
  void read_var_shape(VarId var, std::optional<Shape>& shape) const;
  std::optional<int64_t> var_rank(VarId var) const;
  NodeId var_producer(VarId var) const { return NodeId(vars_[var.value()].producer); }
  int var_output_index(VarId var) const;
  StringId var_name(VarId var) const { return StringId(vars_[var.value()].name); }

  // Bytes held: capacity of every record table, pool and index, plus constant tensor buffers.
  int64_t bytes() const;
  // The constant tensor buffers held in memory (not views of mapped files), each counted once.
  int64_t owned_tensor_bytes() const { return owned_tensor_bytes_; }

 private:
  struct NodeRecord {
    uint16_t op;
    uint16_t num_inputs;
    uint16_t num_outputs;
    uint16_t num_attrs;
    uint32_t inputs_begin;
    uint32_t first_output;
    uint32_t attrs_begin;
  };
  struct VarRecord {
    uint32_t producer;     // NodeId value, invalid for arguments
    uint32_t shape_begin;  // dims pool index
    uint32_t name;         // StringId value, 0 ("") when unnamed
    int8_t dtype;
    uint8_t kind;
    int16_t rank;  // -1: unknown rank
  };
  enum class AttrType : uint8_t {
    kInt,
    kFloat,
    kString,
    kTensor,
    kInts,
    kFloats,
    kStrings,
    kGraph,
    kType
  };
  struct AttrRecord {
    uint32_t name;
    AttrType type;
    uint32_t count;  // list length
    uint64_t
        payload;  // int64 bits, float bits, StringId, tensor index, list begin index, or SubgraphId
  };
  // VarRecord::dtype of a sequence, optional or map var, whose shape_begin indexes other_types_.
  static constexpr int8_t kNotATensor = -1;
  static_assert(sizeof(NodeRecord) == 20, "NodeRecord layout");
  static_assert(sizeof(VarRecord) == 16, "VarRecord layout");

  OpKindId intern_op_slow(absl::string_view op_type, absl::string_view domain, int version);
  uint32_t intern_shape(absl::Span<const int64_t> shape);
  bool IsLastShape(absl::Span<const int64_t> shape) const;
  AttrRecord store_attribute(const Attribute& attr);
  AttributeValue load_attribute(const AttrRecord& record) const;
  uint32_t new_var(VarRecord record);

  ChunkedVector<NodeRecord> nodes_;
  ChunkedVector<VarRecord> vars_;
  ChunkedVector<VarId> input_pool_;
  ChunkedVector<int64_t> dims_pool_;
  ChunkedVector<AttrRecord, 8> attr_pool_;
  ChunkedVector<int64_t, 8> int_list_pool_;
  ChunkedVector<float, 8> float_list_pool_;
  ChunkedVector<uint32_t, 8> string_list_pool_;
  absl::flat_hash_map<Shape, uint32_t> shape_index_;
  // The shape interned last: a chain of ops repeats one shape, and comparing a few dims is cheaper
  // than hashing them. Rank -1: none yet.
  uint32_t last_shape_begin_ = 0;
  int64_t last_shape_rank_ = -1;
  std::deque<std::string> strings_;
  absl::flat_hash_map<std::string, uint32_t> string_index_;
  int64_t string_bytes_ = 0;
  std::deque<OpKind> op_kinds_;
  std::vector<const ResolvedOp*> op_resolutions_;             // parallel to op_kinds_
  absl::flat_hash_map<std::string, uint16_t> op_kind_index_;  // key: domain \0 type \0 version
  // Op constructors pass literals: remembering the last kind per literal address skips building
  // the key (the entry is verified against the text, so a reused address or two addresses sharing
  // a slot are harmless). A direct-mapped table: a slot costs a multiply, not a hash.
  struct OpKindByAddress {
    const char* address = nullptr;
    uint16_t kind = 0;
  };
  static constexpr int kOpKindCacheBits = 6;
  static size_t AddressSlot(const char* address);
  std::array<OpKindByAddress, size_t{1} << kOpKindCacheBits> op_kind_by_address_{};
  std::vector<Tensor> tensors_;
  absl::flat_hash_set<const Buffer*> tensor_buffers_;  // counted once each
  int64_t tensor_bytes_ = 0;
  int64_t owned_tensor_bytes_ = 0;  // of those, not views of mapped files
  absl::flat_hash_set<StringId> argument_names_;
  absl::flat_hash_map<VarId, StringId> user_names_;
  absl::flat_hash_map<StringId, VarId> vars_by_user_name_;
  absl::flat_hash_map<VarId, std::vector<StringId>> dim_names_;
  absl::flat_hash_map<NodeId, std::vector<std::pair<StringId, StringId>>> attribute_refs_;
  absl::flat_hash_map<VarId, std::vector<StringId>> element_names_;
  SubgraphTable subgraphs_;
  std::deque<VarType> other_types_;      // interned non-tensor types
  std::deque<VarType> attribute_types_;  // TYPE_PROTO attributes
  absl::flat_hash_map<VarId, std::pair<uint32_t, uint32_t>> shape_data_;  // dims pool begin, size
  absl::flat_hash_map<std::string, uint32_t> other_type_index_;           // VarType::Key -> index
};

}  // namespace internal
}  // namespace graphgc

#endif  // GRAPHGC_ARENA_H_
