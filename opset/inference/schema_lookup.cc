#include "graphgc/opset/inference/schema_lookup.h"

#include <string>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "absl/hash/hash.h"

namespace graphgc::internal {
namespace {

struct SchemaKey {
  absl::string_view op_type;
  absl::string_view domain;
  int version;
};

struct StoredKey {
  std::string op_type;
  std::string domain;
  int version;
};

// Hash and equality over both key forms, so that a lookup builds no strings.
struct KeyHash {
  using is_transparent = void;
  size_t operator()(const SchemaKey& key) const {
    return absl::HashOf(key.op_type, key.domain, key.version);
  }
  size_t operator()(const StoredKey& key) const {
    return (*this)(SchemaKey{key.op_type, key.domain, key.version});
  }
};

struct KeyEqual {
  using is_transparent = void;
  static SchemaKey View(const SchemaKey& key) { return key; }
  static SchemaKey View(const StoredKey& key) { return {key.op_type, key.domain, key.version}; }
  template <class A, class B>
  bool operator()(const A& a, const B& b) const {
    const SchemaKey x = View(a), y = View(b);
    return std::tie(x.op_type, x.domain, x.version) == std::tie(y.op_type, y.domain, y.version);
  }
};

// The last schemas found, one per slot of a small direct-mapped table in front of the map: a
// graph's ops repeat a few names, and a slot check (two short compares) costs a tenth of hashing
// both strings. A collision only replaces the slot.
struct RecentSchema {
  StoredKey key;
  const onnx::OpSchema* schema = nullptr;
};
constexpr size_t kRecentSlots = 64;

size_t RecentSlot(absl::string_view op_type, absl::string_view domain, int version) {
  const size_t size = op_type.size();
  const size_t mix = size * 31 +
                     (size > 0 ? static_cast<unsigned char>(op_type[0]) * 7 +
                                     static_cast<unsigned char>(op_type[size - 1])
                               : 0) +
                     static_cast<size_t>(version) * 13 + domain.size();
  return mix % kRecentSlots;
}

const onnx::OpSchema* FindInMap(const SchemaKey& key) {
  thread_local absl::flat_hash_map<StoredKey, const onnx::OpSchema*, KeyHash, KeyEqual> found;
  if (auto it = found.find(key); it != found.end()) return it->second;
  const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema(
      std::string(key.op_type), key.version, std::string(key.domain));
  if (schema != nullptr) {
    found.emplace(StoredKey{std::string(key.op_type), std::string(key.domain), key.version},
                  schema);
  }
  return schema;
}

}  // namespace

const onnx::OpSchema* FindSchema(absl::string_view op_type, int version, absl::string_view domain) {
  thread_local RecentSchema recent[kRecentSlots];
  const SchemaKey key{op_type, domain, version};
  RecentSchema& slot = recent[RecentSlot(op_type, domain, version)];
  if (slot.schema != nullptr && KeyEqual()(slot.key, key)) return slot.schema;
  const onnx::OpSchema* schema = FindInMap(key);
  if (schema != nullptr) {
    slot = RecentSchema{StoredKey{std::string(op_type), std::string(domain), version}, schema};
  }
  return schema;
}

}  // namespace graphgc::internal
