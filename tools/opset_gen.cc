// graphgc-opset-gen OUT_DIR: writes the typed op constructors of graphgc from ONNX's operator
// schemas into OUT_DIR: each ai.onnx schema once, as a function object (onnx_schemas.h/.cc);
// graphgc::opset13 ... opset17, which bind them to their version (opsetNN.h); graphgc::op
// (onnx_ops.h) and graphgc::ml (ml_ops.h/.cc).
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

// Every generated file.
std::vector<GeneratedFile> Files(const std::string& onnx_version) {
  std::vector<OpsetContents> opsets;
  for (int version = kFirstOnnxOpset; version <= kNewestOnnxOpset; ++version) {
    opsets.push_back(CollectOpset("", version));
    PrintSummary("graphgc::opset" + std::to_string(version), opsets.back());
  }
  std::vector<OpSpec> schemas = DistinctSchemas(opsets);
  std::printf("%-16s %3zu schemas\n", "graphgc::since*", schemas.size());
  std::vector<GeneratedFile> files = EmitSchemas(schemas, onnx_version);
  for (const OpsetContents& opset : opsets) files.push_back(EmitOpset(opset, onnx_version));
  files.push_back(EmitOp(opsets.back(), HandwrittenOps(), onnx_version));
  OpsetContents ml = CollectOpset("ai.onnx.ml", kNewestMlOpset);
  PrintSummary("graphgc::ml", ml);
  for (GeneratedFile& file : EmitMl(ml, onnx_version)) files.push_back(std::move(file));
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
