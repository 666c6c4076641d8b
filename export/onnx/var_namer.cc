#include "graphgc/export/onnx/var_namer.h"

#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace graphgc::internal {
namespace {

bool IsOutputOf(const NamedVars& outputs, const std::string& name, VarId var) {
  for (const auto& output : outputs) {
    if (output.first == name && output.second.id() == var) return true;
  }
  return false;
}

// "_v<id>" into `out`.
void WriteGeneratedName(VarId var, std::string* out) {
  out->assign("_v");
  AppendNumber(var.value(), out);
}

bool LooksGenerated(const std::string& name) {
  if (name.size() < 3 || name[0] != '_' || name[1] != 'v') return false;
  for (size_t i = 2; i < name.size(); ++i) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(name[i]))) return false;
  }
  return true;
}

}  // namespace

void AppendNumber(uint32_t number, std::string* out) {
  char digits[absl::numbers_internal::kFastToBufferSize];
  const char* end = absl::numbers_internal::FastIntToBuffer(number, digits);
  out->append(digits, static_cast<size_t>(end - digits));
}

VarNamer::VarNamer(const Arena& arena, const NamedVars& outputs,
                   std::function<std::string(VarId)> name_of)
    : arena_(arena), name_of_(std::move(name_of)), naming_(arena.num_vars(), Naming::kNotYet) {
  for (const auto& output : outputs) Take(output.first);
}

absl::Status VarNamer::NameArgumentsAndOutputs(const std::vector<bool>& needed,
                                               const NamedVars& outputs) {
  for (size_t i = 0; i < needed.size(); ++i) {
    const VarId var(static_cast<uint32_t>(i));
    if (!needed[i] || arena_.var_kind(var) != VarKind::kArgument) continue;
    if (arena_.var_subgraph(var).valid()) continue;  // a body's argument: named like the rest
    std::string name(arena_.string(arena_.var_name(var)));
    if (taken_.contains(name) && !IsOutputOf(outputs, name, var)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "to_onnx: output name '", name, "' is the name of an argument the model uses"));
    }
    Take(name);
    Store(var, std::move(name));
  }
  for (const auto& [name, var] : outputs) {
    if (naming_[var.id().value()] == Naming::kNotYet) Store(var.id(), name);
  }
  return NameUserNamedVars(needed);
}

absl::Status VarNamer::NameUserNamedVars(const std::vector<bool>& needed) {
  for (const auto& [var, name_id] : arena_.user_named_vars()) {
    if (var.value() >= needed.size() || !needed[var.value()]) continue;
    if (naming_[var.value()] != Naming::kNotYet) continue;  // an output: named by the export
    std::string name(arena_.string(name_id));
    if (taken_.contains(name)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "to_onnx: output name '", name, "' is the name given to another var the model uses"));
    }
    Take(name);
    Store(var, std::move(name));
  }
  return absl::OkStatus();
}

void VarNamer::Write(VarId var, std::string* out) {
  if (naming_[var.value()] == Naming::kNotYet) Choose(var);
  if (naming_[var.value()] == Naming::kGenerated) {
    WriteGeneratedName(var, out);
  } else {
    out->assign(stored_.at(var));  // kStored is set only by Store, which inserts the name
  }
}

std::string VarNamer::NameOf(VarId var) {
  std::string name;
  Write(var, &name);
  return name;
}

void VarNamer::Choose(VarId var) {
  std::string preferred = name_of_ ? name_of_(var) : std::string();
  if (!preferred.empty()) {
    Store(var, Fresh(std::move(preferred)));
    return;
  }
  // Another var's generated name differs in its digits; only a taken name can clash.
  if (taken_looks_generated_) {
    std::string generated;
    WriteGeneratedName(var, &generated);
    if (taken_.contains(generated)) {
      Store(var, Fresh(std::move(generated)));
      return;
    }
  }
  naming_[var.value()] = Naming::kGenerated;
}

void VarNamer::Store(VarId var, std::string name) {
  naming_[var.value()] = Naming::kStored;
  stored_[var] = std::move(name);
}

void VarNamer::Take(const std::string& name) {
  taken_.insert(name);
  taken_looks_generated_ = taken_looks_generated_ || LooksGenerated(name);
}

std::string VarNamer::Fresh(std::string base) {
  while (taken_.contains(base) || IsGeneratedNameInUse(base)) absl::StrAppend(&base, "_");
  Take(base);
  return base;
}

bool VarNamer::IsGeneratedNameInUse(const std::string& name) const {
  uint32_t id = 0;
  if (!LooksGenerated(name) || !absl::SimpleAtoi(absl::string_view(name).substr(2), &id) ||
      id >= naming_.size() || naming_[id] != Naming::kGenerated) {
    return false;
  }
  return name == absl::StrCat("_v", id);  // not "_v007"
}

}  // namespace graphgc::internal
