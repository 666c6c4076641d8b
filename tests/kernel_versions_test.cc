// The version ranges kernels are registered for, checked against ONNX's schemas for the opsets
// newer than the ones the kernels were written against (opset/kernels/kernel_table.h,
// kLastKnownOpset): a range may run past a schema version only when that version changed
// nothing but the element types its kernel declares, and a range ending at kLastKnownOpset
// must not stop before a version it could have covered.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graphgc/graphgc.h"
#include "graphgc/opset/kernels/kernel_table.h"
#include "graphgc/opset/values/kernel_registry.h"
#include "onnx/defs/schema.h"

namespace graphgc {
namespace {

// Versions whose schemas read as before but whose attributes take new values, which a kernel of
// the earlier version would refuse or misread.
const std::set<std::pair<std::string, int>>& ValueOnlyChanges() {
  static const auto* const kChanges = new std::set<std::pair<std::string, int>>{
      {"OptionalGetElement", 18},  // a tensor or sequence input is its own element
      {"Pad", 19},                 // mode "wrap"
      {"Resize", 19},              // coordinate_transformation_mode "half_pixel_symmetric"
      {"ScatterElements", 18},     // reduction "max", "min"
      {"ScatterND", 18},           // reduction "max", "min"
  };
  return *kChanges;
}

std::string ParameterText(const onnx::OpSchema::FormalParameter& parameter) {
  return absl::StrCat(parameter.GetName(), ":", parameter.GetTypeStr(), ":",
                      static_cast<int>(parameter.GetOption()));
}

// What a schema version says beyond the types it admits: its inputs, outputs and attributes.
std::string Signature(const onnx::OpSchema& schema) {
  std::vector<std::string> parts;
  for (const auto& input : schema.inputs()) parts.push_back("in " + ParameterText(input));
  for (const auto& output : schema.outputs()) parts.push_back("out " + ParameterText(output));
  std::map<std::string, std::string> attributes;
  for (const auto& [name, attribute] : schema.attributes()) {
    attributes[name] = absl::StrCat(static_cast<int>(attribute.type), ":", attribute.required, ":",
                                    attribute.default_value.SerializeAsString());
  }
  for (const auto& [name, text] : attributes)
    parts.push_back(absl::StrCat("attr ", name, " ", text));
  return absl::StrJoin(parts, "\n");
}

std::map<std::string, std::set<std::string>> AllowedTypes(const onnx::OpSchema& schema) {
  std::map<std::string, std::set<std::string>> allowed;
  for (const auto& constraint : schema.typeConstraintParams()) {
    allowed[constraint.type_param_str].insert(constraint.allowed_type_strs.begin(),
                                              constraint.allowed_type_strs.end());
  }
  return allowed;
}

// Why a kernel of `before` may not compute `after` (its next version), or empty when it may.
std::string Change(const onnx::OpSchema& before, const onnx::OpSchema& after,
                   const kernels::KernelTypes& declared) {
  if (ValueOnlyChanges().count({after.Name(), after.SinceVersion()}) > 0) {
    return "its attributes take new values";
  }
  if (Signature(before) != Signature(after)) return "its inputs, outputs or attributes changed";
  if (declared.constraints().empty()) return "";  // the kernel takes every type (moves values)
  const auto types_before = AllowedTypes(before);
  for (const auto& [param, types] : AllowedTypes(after)) {
    auto old = types_before.find(param);
    if (old != types_before.end() && old->second == types) continue;
    bool bounded = false;
    for (const kernels::TypeConstraint& constraint : declared.constraints()) {
      bounded = bounded || constraint.type_param == param;
    }
    if (!bounded) return absl::StrCat("type parameter ", param, " changed and is not declared");
  }
  return "";
}

// Every schema version of an op in `domain`, oldest first.
std::vector<const onnx::OpSchema*> Versions(const std::string& domain, const std::string& op) {
  std::vector<const onnx::OpSchema*> versions;
  const int newest = SupportedOpsetVersion(domain);
  for (int version = 1; version <= newest; ++version) {
    const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema(op, version, domain);
    if (schema != nullptr && (versions.empty() || versions.back() != schema)) {
      versions.push_back(schema);
    }
  }
  return versions;
}

struct Problems {
  std::vector<std::string> covers_changed;  // a range runs past a version it cannot compute
  std::vector<std::string> stops_early;     // a range stops before a version it could compute
};

Problems CheckRanges() {
  Problems problems;
  internal::VisitKernelDeclarations([&](absl::string_view domain_view, absl::string_view op_view,
                                        int first, int last, const kernels::KernelTypes& types) {
    const std::string domain(domain_view);
    const std::string op(op_view);
    if (!domain.empty() && domain != "ai.onnx.ml") return;
    const int known = domain.empty() ? kernels::kLastKnownOpset : 3;
    const std::vector<const onnx::OpSchema*> versions = Versions(domain, op);
    for (size_t i = 1; i < versions.size(); ++i) {
      const onnx::OpSchema& before = *versions[i - 1];
      const onnx::OpSchema& after = *versions[i];
      if (after.SinceVersion() <= known || after.Deprecated()) continue;
      if (before.SinceVersion() < first || before.SinceVersion() > last) continue;
      const std::string where = absl::StrCat(domain, domain.empty() ? "" : ".", op, "-",
                                             after.SinceVersion(), " (kernel from ", first, ")");
      const std::string change = Change(before, after, types);
      const bool covered = after.SinceVersion() <= last;
      if (covered && !change.empty()) problems.covers_changed.push_back(where + ": " + change);
      if (!covered && change.empty() && last == known) problems.stops_early.push_back(where);
    }
  });
  return problems;
}

TEST(KernelVersionsTest, NoRangeCoversAVersionWhoseSchemaChangedMoreThanItsTypes) {
  const Problems problems = CheckRanges();
  EXPECT_THAT(problems.covers_changed, ::testing::IsEmpty())
      << "end these ranges at kLastKnownOpset or register a kernel for the new version:\n"
      << absl::StrJoin(problems.covers_changed, "\n");
}

TEST(KernelVersionsTest, NoRangeStopsBeforeAVersionThatOnlyAdmitsMoreTypes) {
  const Problems problems = CheckRanges();
  EXPECT_THAT(problems.stops_early, ::testing::IsEmpty())
      << "these versions changed only types the kernel declares; extend the range to kLatest:\n"
      << absl::StrJoin(problems.stops_early, "\n");
}

// The check itself: Split-18 (num_outputs) and Pad-19 ("wrap") are changes, Sin-22 (bfloat16)
// is not, and QLinearMatMul-21 changed its scales' types through an input's type string.
TEST(KernelVersionsTest, TellsAChangedSchemaFromAWiderOne) {
  auto schema = [](const char* op, int version) {
    return onnx::OpSchemaRegistry::Schema(op, version, "");
  };
  const kernels::KernelTypes floats = {{"T", data_types::kFloatingPoint}};
  EXPECT_EQ(Change(*schema("Sin", 7), *schema("Sin", 22), floats), "");
  EXPECT_THAT(Change(*schema("Split", 13), *schema("Split", 18), {{"T", data_types::kAll}}),
              ::testing::HasSubstr("attributes changed"));
  EXPECT_THAT(Change(*schema("Pad", 18), *schema("Pad", 19), {{"T", data_types::kAll}}),
              ::testing::HasSubstr("new values"));
  EXPECT_THAT(Change(*schema("Sin", 7), *schema("Sin", 22), {{"X", data_types::kAll}}),
              ::testing::HasSubstr("T changed and is not declared"));
  EXPECT_NE(Change(*schema("QLinearMatMul", 10), *schema("QLinearMatMul", 21), floats), "");
}

}  // namespace
}  // namespace graphgc
