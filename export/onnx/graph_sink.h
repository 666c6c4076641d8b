// GraphSink: where export writes the messages of one GraphProto, one at a time.
//
// A ProtoSink adds them to a GraphProto, as the ModelProto that to_onnx returns holds them. A
// StreamSink serializes each into the bytes of its field as soon as the next is asked for, reusing
// one scratch message per kind: a model written to bytes (to_onnx_bytes, save_onnx) never holds a
// message per node, only its bytes. Both give the same bytes: protobuf writes a graph's fields in
// field-number order and a repeated field's messages in order, as StreamSink lays them out.
// A message returned by a sink is valid until the sink is asked for the next one. Owned by one
// export; not thread-safe.
#ifndef GRAPHGC_GRAPH_SINK_H_
#define GRAPHGC_GRAPH_SINK_H_

#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/functional/function_ref.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "onnx/onnx_pb.h"

namespace graphgc::internal {

// The GraphProto fields of ValueInfoProtos.
enum class ValueField { kInput, kOutput, kValueInfo };

// Writes a name into the string it is given.
using NameWriter = absl::FunctionRef<void(std::string*)>;

// A node without attributes, its names written out already: most nodes of a model, which a
// StreamSink writes as bytes straight away, without a NodeProto in between.
struct PlainNode {
  absl::string_view op_type;
  absl::string_view domain;              // empty: ai.onnx
  const std::string* name = nullptr;     // nullptr: the node has no name
  absl::Span<const std::string> inputs;  // "" for an omitted optional input
  absl::Span<const std::string> outputs;
};

class GraphSink {
 public:
  virtual ~GraphSink() = default;
  virtual void SetName(absl::string_view name) = 0;
  // Room for this many more nodes and value_infos (a hint).
  virtual void Reserve(int nodes, int value_infos) = 0;
  virtual onnx::NodeProto* AddNode() = 0;
  virtual void AddPlainNode(const PlainNode& node) = 0;
  virtual onnx::TensorProto* AddInitializer() = 0;
  // A ValueInfoProto of `type` (which must outlive the sink: its bytes may be cached by address)
  // named by `write_name`.
  virtual void AddValue(ValueField field, const onnx::TypeProto& type, NameWriter write_name) = 0;
};

class ProtoSink final : public GraphSink {
 public:
  explicit ProtoSink(onnx::GraphProto* graph) : graph_(graph) {}
  void SetName(absl::string_view name) override;
  void Reserve(int nodes, int value_infos) override;
  onnx::NodeProto* AddNode() override { return graph_->add_node(); }
  void AddPlainNode(const PlainNode& node) override;
  onnx::TensorProto* AddInitializer() override { return graph_->add_initializer(); }
  void AddValue(ValueField field, const onnx::TypeProto& type, NameWriter write_name) override;

 private:
  onnx::GraphProto* graph_;
};

class StreamSink final : public GraphSink {
 public:
  void SetName(absl::string_view name) override { name_ = std::string(name); }
  void Reserve(int nodes, int value_infos) override;
  onnx::NodeProto* AddNode() override;
  // Written as bytes straight away, as protobuf would serialize the NodeProto.
  void AddPlainNode(const PlainNode& node) override;
  onnx::TensorProto* AddInitializer() override;
  // Written as bytes straight away: the type's bytes are serialized once per type.
  void AddValue(ValueField field, const onnx::TypeProto& type, NameWriter write_name) override;

  // Appends the GraphProto as field `field_number` of the message `out` holds (tag, length,
  // bytes), without a copy of it in between; the sink is spent.
  void AppendGraphField(int field_number, std::string& out);

 private:
  // Serializes the message handed out last into its field's bytes.
  void Flush();
  template <class Message>
  Message* Next(Message& scratch, std::string& field, int field_number);

  std::string name_;
  onnx::NodeProto node_;
  onnx::TensorProto initializer_;
  std::string value_name_;
  absl::flat_hash_map<const onnx::TypeProto*, std::string> type_bytes_;
  // Bytes of each repeated field, tags and lengths included.
  std::string nodes_, initializers_, inputs_, outputs_, value_infos_;
  const google::protobuf::MessageLite* pending_ = nullptr;
  std::string* pending_field_ = nullptr;
  int pending_field_number_ = 0;
};

// Appends field `field_number` holding `message` (tag, length, bytes) to `out`.
void AppendMessageField(int field_number, const google::protobuf::MessageLite& message,
                        std::string& out);
// Appends a length-delimited field holding `bytes` (a string, or a message serialized already).
void AppendBytesField(int field_number, absl::string_view bytes, std::string& out);

}  // namespace graphgc::internal

#endif  // GRAPHGC_GRAPH_SINK_H_
