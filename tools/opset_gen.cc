// graphgc-opset-gen OUT_DIR: writes the typed op constructors of graphgc from ONNX's operator
// schemas into OUT_DIR, for each domain: each schema once, as a function object
// (onnx_schemas.h/.cc, ml_schemas.h/.cc); the opset namespaces that bind them to their version
// (graphgc::opset1 ... opset24 in opsetNN.h, graphgc::ml1 ... ml5 in mlN.h); and the newest
// opset's namespace (graphgc::op in onnx_ops.h, graphgc::ml in ml_ops.h).
//
// The output depends only on the installed ONNX's schema registry, so it is deterministic; the
// files are committed in opset/ and the opset_generated_up_to_date test checks they still match.
// A file whose contents are unchanged is not rewritten, which keeps regeneration from
// triggering rebuilds.
#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "generated_file.h"
#include "onnx/common/version.h"
#include "opset_gen_emit.h"
#include "opset_gen_model.h"

namespace graphgc::opset_gen {
namespace {

// In the order of ops.h, which declares them by hand in graphgc::op.
const std::vector<std::string>& HandwrittenOps() {
  static const std::vector<std::string>* const kOps =
      new std::vector<std::string>{"Constant", "Identity", "Add",    "Sub",     "Mul", "Div",
                                   "Neg",      "Relu",     "MatMul", "Reshape", "Cast"};
  return *kOps;
}

void PrintSummary(const std::string& name, const OpsetContents& contents) {
  std::printf("%-16s %3zu ops", name.c_str(), contents.ops.size());
  if (!contents.skipped.empty()) {
    std::printf(", not generated:");
    for (const SkippedOp& skipped : contents.skipped) std::printf(" %s", skipped.name.c_str());
  }
  std::printf("\n");
}

// The files of one domain, opsets `first` to `newest`.
void AddDomain(const DomainNames& names, int first, int newest,
               const std::vector<std::string>& handwritten, const std::string& onnx_version,
               std::vector<GeneratedFile>& files) {
  std::vector<OpsetContents> opsets;
  for (int version = first; version <= newest; ++version) {
    opsets.push_back(CollectOpset(names.domain, version));
    PrintSummary("graphgc::" + names.opset_prefix + std::to_string(version), opsets.back());
  }
  std::vector<OpSpec> schemas = DistinctSchemas(opsets);
  std::printf("%-16s %3zu schemas\n", ("graphgc::" + names.since_prefix + "*").c_str(),
              schemas.size());
  for (GeneratedFile& file : EmitSchemas(names, first, newest, schemas, onnx_version)) {
    files.push_back(std::move(file));
  }
  for (const OpsetContents& opset : opsets) files.push_back(EmitOpset(names, opset, onnx_version));
  files.push_back(EmitNewest(names, opsets.back(), handwritten, onnx_version));
}

// Every generated file.
std::vector<GeneratedFile> Files(const std::string& onnx_version) {
  std::vector<GeneratedFile> files;
  AddDomain(OnnxNames(), kFirstOnnxOpset, kNewestOnnxOpset, HandwrittenOps(), onnx_version, files);
  AddDomain(MlNames(), kFirstMlOpset, kNewestMlOpset, {}, onnx_version, files);
  return files;
}

}  // namespace
}  // namespace graphgc::opset_gen

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: graphgc-opset-gen OUT_DIR\n");
    return 2;
  }
  return graphgc::opset_gen::WriteGeneratedFiles(
      "graphgc-opset-gen", argv[1], graphgc::opset_gen::Files(onnx::LAST_RELEASE_VERSION));
}
