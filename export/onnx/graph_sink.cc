#include "graphgc/export/onnx/graph_sink.h"

#include <cstdint>
#include <cstring>

#include "google/protobuf/io/coded_stream.h"
#include "graphgc/valuestore/check.h"

namespace graphgc::internal {
namespace {

// GraphProto's field numbers (onnx.proto3).
constexpr int kNodeField = 1;
constexpr int kNameField = 2;
constexpr int kInitializerField = 5;
constexpr int kInputField = 11;
constexpr int kOutputField = 12;
constexpr int kValueInfoField = 13;
constexpr int kValueInfoNameField = 1;  // of ValueInfoProto
constexpr int kValueInfoTypeField = 2;
constexpr int kNodeInputField = 1;  // of NodeProto
constexpr int kNodeOutputField = 2;
constexpr int kNodeNameField = 3;
constexpr int kNodeOpTypeField = 4;
constexpr int kNodeDomainField = 7;

constexpr uint32_t kLengthDelimited = 2;

void AppendVarint(uint64_t value, std::string& out) {
  uint8_t bytes[10];  // the longest varint of 64 bits
  const uint8_t* end = google::protobuf::io::CodedOutputStream::WriteVarint64ToArray(value, bytes);
  out.append(reinterpret_cast<const char*>(bytes), static_cast<size_t>(end - bytes));
}

// The tag of length-delimited field `field_number`.
uint32_t TagOf(int field_number) {
  return (static_cast<uint32_t>(field_number) << 3) | kLengthDelimited;
}

void AppendTag(int field_number, std::string& out) { AppendVarint(TagOf(field_number), out); }

size_t VarintSize(uint64_t value) {
  return google::protobuf::io::CodedOutputStream::VarintSize64(value);
}

// A field's tag, length and bytes, for a field holding `size` bytes.
size_t FieldSize(int field_number, size_t size) {
  return VarintSize(TagOf(field_number)) + VarintSize(size) + size;
}

// Writes into room made for a message whose size is known beforehand: no append (and no size
// check) per field, which the small fields of a node and a value_info made the main cost.
class FieldWriter {
 public:
  // Makes room for `size` more bytes at the end of `out`; the writes must fill them exactly.
  FieldWriter(size_t size, std::string& out) {
    const size_t at = out.size();
    out.resize(at + size);
    next_ = reinterpret_cast<uint8_t*>(out.data() + at);
    end_ = next_ + size;
  }
  ~FieldWriter() { GRAPHGC_CHECK(next_ == end_, "a message's size did not match its fields"); }
  void Varint(uint64_t value) {
    next_ = google::protobuf::io::CodedOutputStream::WriteVarint64ToArray(value, next_);
  }
  void Tag(int field_number) { Varint(TagOf(field_number)); }
  void Bytes(int field_number, absl::string_view bytes) {
    Tag(field_number);
    Varint(bytes.size());
    std::memcpy(next_, bytes.data(), bytes.size());
    next_ += bytes.size();
  }

 private:
  uint8_t* next_;
  const uint8_t* end_;
};

}  // namespace

void AppendMessageField(int field_number, const google::protobuf::MessageLite& message,
                        std::string& out) {
  AppendTag(field_number, out);
  const size_t size = message.ByteSizeLong();
  AppendVarint(size, out);
  const size_t at = out.size();
  out.resize(at + size);
  message.SerializeWithCachedSizesToArray(reinterpret_cast<uint8_t*>(out.data() + at));
}

void AppendBytesField(int field_number, absl::string_view bytes, std::string& out) {
  AppendTag(field_number, out);
  AppendVarint(bytes.size(), out);
  out.append(bytes.data(), bytes.size());
}

void ProtoSink::SetName(absl::string_view name) { graph_->set_name(std::string(name)); }

void ProtoSink::AddValue(ValueField field, const onnx::TypeProto& type, NameWriter write_name) {
  onnx::ValueInfoProto* info = field == ValueField::kInput    ? graph_->add_input()
                               : field == ValueField::kOutput ? graph_->add_output()
                                                              : graph_->add_value_info();
  *info->mutable_type() = type;
  write_name(info->mutable_name());
}

void ProtoSink::AddPlainNode(const PlainNode& node) {
  onnx::NodeProto* proto = graph_->add_node();
  for (const std::string& input : node.inputs) proto->add_input(input);
  for (const std::string& output : node.outputs) proto->add_output(output);
  if (node.name != nullptr) proto->set_name(*node.name);
  proto->set_op_type(std::string(node.op_type));
  if (!node.domain.empty()) proto->set_domain(std::string(node.domain));
}

void ProtoSink::Reserve(int nodes, int value_infos) {
  graph_->mutable_node()->Reserve(graph_->node_size() + nodes);
  graph_->mutable_value_info()->Reserve(graph_->value_info_size() + value_infos);
}

void StreamSink::Reserve(int nodes, int value_infos) {
  // A node of a chain takes some 40 bytes, a value_info some 30: a guess that saves regrowth.
  nodes_.reserve(nodes_.size() + static_cast<size_t>(nodes) * 48);
  value_infos_.reserve(value_infos_.size() + static_cast<size_t>(value_infos) * 32);
}

void StreamSink::Flush() {
  if (pending_ == nullptr) return;
  AppendMessageField(pending_field_number_, *pending_, *pending_field_);
  pending_ = nullptr;
}

template <class Message>
Message* StreamSink::Next(Message& scratch, std::string& field, int field_number) {
  Flush();
  scratch.Clear();  // keeps its strings' and repeated fields' storage for the next message
  pending_ = &scratch;
  pending_field_ = &field;
  pending_field_number_ = field_number;
  return &scratch;
}

onnx::NodeProto* StreamSink::AddNode() { return Next(node_, nodes_, kNodeField); }
void StreamSink::AddPlainNode(const PlainNode& node) {
  Flush();
  // The NodeProto's fields in field-number order, as protobuf writes them (the fields of a
  // proto2 message are written when set, even if empty: the name is set whenever it is given).
  size_t size = 0;
  for (const std::string& input : node.inputs) size += FieldSize(kNodeInputField, input.size());
  for (const std::string& output : node.outputs) size += FieldSize(kNodeOutputField, output.size());
  if (node.name != nullptr) size += FieldSize(kNodeNameField, node.name->size());
  size += FieldSize(kNodeOpTypeField, node.op_type.size());
  if (!node.domain.empty()) size += FieldSize(kNodeDomainField, node.domain.size());
  FieldWriter writer(FieldSize(kNodeField, size), nodes_);
  writer.Tag(kNodeField);
  writer.Varint(size);
  for (const std::string& input : node.inputs) writer.Bytes(kNodeInputField, input);
  for (const std::string& output : node.outputs) writer.Bytes(kNodeOutputField, output);
  if (node.name != nullptr) writer.Bytes(kNodeNameField, *node.name);
  writer.Bytes(kNodeOpTypeField, node.op_type);
  if (!node.domain.empty()) writer.Bytes(kNodeDomainField, node.domain);
}

onnx::TensorProto* StreamSink::AddInitializer() {
  return Next(initializer_, initializers_, kInitializerField);
}
void StreamSink::AddValue(ValueField field, const onnx::TypeProto& type, NameWriter write_name) {
  Flush();
  auto [cached, inserted] = type_bytes_.try_emplace(&type);
  if (inserted) cached->second = type.SerializeAsString();
  value_name_.clear();
  write_name(&value_name_);
  std::string& out = field == ValueField::kInput    ? inputs_
                     : field == ValueField::kOutput ? outputs_
                                                    : value_infos_;
  const int field_number = field == ValueField::kInput    ? kInputField
                           : field == ValueField::kOutput ? kOutputField
                                                          : kValueInfoField;
  // A ValueInfoProto: its name (1), then its type (2).
  const size_t size = FieldSize(kValueInfoNameField, value_name_.size()) +
                      FieldSize(kValueInfoTypeField, cached->second.size());
  FieldWriter writer(FieldSize(field_number, size), out);
  writer.Tag(field_number);
  writer.Varint(size);
  writer.Bytes(kValueInfoNameField, value_name_);
  writer.Bytes(kValueInfoTypeField, cached->second);
}

void StreamSink::AppendGraphField(int field_number, std::string& out) {
  Flush();
  std::string name;
  if (!name_.empty()) AppendBytesField(kNameField, name_, name);
  // The graph's fields in field-number order.
  std::string* const fields[] = {&nodes_,  &name,     &initializers_,
                                 &inputs_, &outputs_, &value_infos_};
  size_t size = 0;
  for (const std::string* field : fields) size += field->size();
  AppendTag(field_number, out);
  AppendVarint(size, out);
  out.reserve(out.size() + size);
  for (std::string* field : fields) {
    out.append(*field);
    std::string().swap(*field);  // let go of each part as soon as it is copied
  }
}

}  // namespace graphgc::internal
