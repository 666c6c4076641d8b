// FunctionLibrary: the definitions of the functions a graph's call nodes call — today those of
// imported models (ModelProto.functions), kept so that an export writes them with the calls.
// A definition is held as the bytes of an ONNX FunctionProto: ir/ does not read ONNX's protos,
// the export module does. Keyed by the function's domain and name. Owned by the graph's core;
// thread-compatible, as the graph.
#ifndef GRAPHGC_FUNCTION_LIBRARY_H_
#define GRAPHGC_FUNCTION_LIBRARY_H_

#include <map>
#include <string>
#include <utility>

#include "absl/strings/string_view.h"

namespace graphgc::internal {

class FunctionLibrary {
 public:
  // Adds the definition of domain.name; false (and the library unchanged) when the library
  // already defines it with other bytes.
  bool Add(absl::string_view domain, absl::string_view name, std::string definition);
  // The definition of domain.name, or nullptr.
  const std::string* Find(absl::string_view domain, absl::string_view name) const;
  bool empty() const { return definitions_.empty(); }

 private:
  std::map<std::pair<std::string, std::string>, std::string, std::less<>> definitions_;
};

}  // namespace graphgc::internal

#endif  // GRAPHGC_FUNCTION_LIBRARY_H_
