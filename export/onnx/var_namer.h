// VarNamer: the name each var of an exported model gets, unique within the model.
//
// Arguments keep their names, an output var takes its (first) output name, and a var a user
// named (Var::set_name) its name; they are fixed first. Every other var takes what
// ExportOptions::name_of prefers, or "_v<id>", suffixed with
// "_" until unique. A generated name is never stored: it is written straight into the proto's
// string wherever the var is named, and it is unique among generated names by construction, so
// only a taken name of the same form can clash with it (checked once per var, and only if such a
// name was ever taken). A million vars thus cost no string table and no million hash insertions.
// Owned by one export; not thread-safe.
#ifndef GRAPHGC_VAR_NAMER_H_
#define GRAPHGC_VAR_NAMER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "graphgc/export/onnx/to_onnx.h"
#include "graphgc/ir/arena.h"

namespace graphgc::internal {

// Appends `number` in decimal, without a formatting pass or a temporary: names with numbers are
// written once or more per var and node of an export, where absl::StrAppend measured slower.
void AppendNumber(uint32_t number, std::string* out);

class VarNamer {
 public:
  VarNamer(const Arena& arena, const NamedVars& outputs, std::function<std::string(VarId)> name_of);

  // Fixes the names of the `needed` arguments of the main graph and of the outputs; an error if
  // an output takes the name of an argument that is not that output.
  absl::Status NameArgumentsAndOutputs(const std::vector<bool>& needed, const NamedVars& outputs);

  // Writes the var's name into `out` (a proto's field), choosing the name on first use.
  void Write(VarId var, std::string* out);
  // The var's name, chosen on first use.
  std::string NameOf(VarId var);

  // A name no var has or will get: `base`, suffixed until unique.
  std::string Fresh(std::string base);

 private:
  enum class Naming : uint8_t { kNotYet, kGenerated, kStored };

  // Fixes the names users gave the needed vars that are not outputs.
  absl::Status NameUserNamedVars(const std::vector<bool>& needed);

  void Choose(VarId var);
  void Store(VarId var, std::string name);
  void Take(const std::string& name);
  // Whether `name` is "_v<id>" and var <id> has that generated name.
  bool IsGeneratedNameInUse(const std::string& name) const;

  const Arena& arena_;
  std::function<std::string(VarId)> name_of_;
  std::vector<Naming> naming_;                      // by var id
  absl::flat_hash_map<VarId, std::string> stored_;  // every name that is not generated
  absl::flat_hash_set<std::string> taken_;          // the same names, and Fresh ones
  bool taken_looks_generated_ = false;              // some taken name has the form "_v<digits>"
};

}  // namespace graphgc::internal

#endif  // GRAPHGC_VAR_NAMER_H_
