#include "graphgc/export/graph_sink.h"

#include <cstdint>

#include "google/protobuf/io/coded_stream.h"

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

constexpr uint32_t kLengthDelimited = 2;

void AppendVarint(uint64_t value, std::string& out) {
  uint8_t bytes[10];  // the longest varint of 64 bits
  const uint8_t* end = google::protobuf::io::CodedOutputStream::WriteVarint64ToArray(value, bytes);
  out.append(reinterpret_cast<const char*>(bytes), static_cast<size_t>(end - bytes));
}

void AppendTag(int field_number, std::string& out) {
  AppendVarint((static_cast<uint32_t>(field_number) << 3) | kLengthDelimited, out);
}

// The bytes of a length-delimited field of a number below 16 (a one-byte tag).
size_t BytesFieldSize(absl::string_view bytes) {
  return 1 + google::protobuf::io::CodedOutputStream::VarintSize64(bytes.size()) + bytes.size();
}

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
  AppendTag(field == ValueField::kInput    ? kInputField
            : field == ValueField::kOutput ? kOutputField
                                           : kValueInfoField,
            out);
  // A ValueInfoProto: its name (1), then its type (2).
  AppendVarint(BytesFieldSize(value_name_) + BytesFieldSize(cached->second), out);
  AppendBytesField(kValueInfoNameField, value_name_, out);
  AppendBytesField(kValueInfoTypeField, cached->second, out);
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
