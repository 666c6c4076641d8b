// graphgc-value-table: prints the README's table of which operators compute values (have a
// kernel, or a function body whose ops do) at the newest opset graphgc supports, from the kernel
// registry itself. `tools/value-table-check` compares it with the README.
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graphgc/graphgc.h"
#include "onnx/defs/schema.h"

namespace {

struct DomainOps {
  std::vector<std::string> with_values;
  std::vector<std::string> without_values;
};

DomainOps Classify(const std::string& domain) {
  const int version = graphgc::SupportedOpsetVersion(domain);
  std::set<std::string> names;
  for (const onnx::OpSchema& schema : onnx::OpSchemaRegistry::get_all_schemas_with_history()) {
    if (schema.domain() == domain) names.insert(schema.Name());
  }
  DomainOps ops;
  for (const std::string& name : names) {
    const onnx::OpSchema* schema = onnx::OpSchemaRegistry::Schema(name, version, domain);
    if (schema == nullptr || schema->Deprecated()) continue;  // not at this opset
    const bool values = graphgc::has_kernel(name, {.domain = domain, .version = version});
    (values ? ops.with_values : ops.without_values).push_back(name);
  }
  return ops;
}

std::string Row(const std::string& title, const DomainOps& ops) {
  return absl::StrCat("| ", title, " | ", ops.with_values.size(), ": ",
                      absl::StrJoin(ops.with_values, ", "), " | ", ops.without_values.size(),
                      ops.without_values.empty() ? "" : ": ",
                      absl::StrJoin(ops.without_values, ", "), " |\n");
}

}  // namespace

int main() {
  std::string table =
      "| Domain | Compute values | Typed only, no values |\n"
      "| --- | --- | --- |\n";
  table += Row(absl::StrCat("ai.onnx, opset ", graphgc::SupportedOpsetVersion("")), Classify(""));
  table += Row(absl::StrCat("ai.onnx.ml, opset ", graphgc::SupportedOpsetVersion("ai.onnx.ml")),
               Classify("ai.onnx.ml"));
  std::fputs(table.c_str(), stdout);
  return 0;
}
