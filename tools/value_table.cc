// graphgc-value-table: prints the README's table of which operators compute values (have a
// kernel, or a function body whose ops do) at the newest opset graphgc supports, and of those
// that compute for only some of the element types their schema admits, from the kernel registry
// itself (the types each kernel declares). tests/readme_value_table_test.sh compares it with the
// README.
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graphgc/graphgc.h"
#include "graphgc/opset/values/kernel_registry.h"
#include "graphgc/valuestore/data_type_set.h"
#include "onnx/defs/schema.h"

namespace {

struct DomainOps {
  std::vector<std::string> with_values;
  std::vector<std::string> without_values;
  // "| Conv | T: double, float, float16 | bfloat16 |" for ops computing some admitted types only.
  std::vector<std::string> partial_rows;
};

std::string TypeNames(graphgc::DataTypeSet types) {
  std::string text = types.ToString();
  return text.substr(1, text.size() - 2);  // without the braces
}

// The row of an op whose kernel computes fewer element types than its schema admits; "" if none.
std::string PartialRow(const std::string& domain, const onnx::OpSchema& schema) {
  const graphgc::internal::ResolvedOp* op =
      graphgc::internal::ResolveOp(domain, schema.Name(), schema.since_version());
  if (op->kernel == nullptr && op->value_kernel == nullptr) return "";
  const graphgc::DataTypeSet missing = op->admitted_types.without(op->computed_types);
  if (missing.empty()) return "";
  const std::string param = op->primary_type_param.empty() ? "" : op->primary_type_param + ": ";
  return absl::StrCat("| ", domain.empty() ? "" : domain + ".", schema.Name(), " | ", param,
                      TypeNames(op->computed_types), " | ", TypeNames(missing), " |\n");
}

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
    if (values) {
      if (std::string row = PartialRow(domain, *schema); !row.empty()) {
        ops.partial_rows.push_back(std::move(row));
      }
    }
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
  const DomainOps onnx_ops = Classify("");
  const DomainOps ml_ops = Classify("ai.onnx.ml");
  std::string table =
      "| Domain | Compute values | Typed only, no values |\n"
      "| --- | --- | --- |\n";
  table += Row(absl::StrCat("ai.onnx, opset ", graphgc::SupportedOpsetVersion("")), onnx_ops);
  table +=
      Row(absl::StrCat("ai.onnx.ml, opset ", graphgc::SupportedOpsetVersion("ai.onnx.ml")), ml_ops);
  table +=
      "\nOps that compute values for some of the element types their schema admits (of the "
      "type\nparameter `has_kernel(op, options, dtype)` answers for); the others get no value:\n\n"
      "| Op | Computes for | Schema also admits, no values |\n"
      "| --- | --- | --- |\n";
  for (const DomainOps* ops : {&onnx_ops, &ml_ops}) {
    for (const std::string& row : ops->partial_rows) table += row;
  }
  std::fputs(table.c_str(), stdout);
  return 0;
}
