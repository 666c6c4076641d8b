// graphgc-python-gen OUT_DIR: writes the Python op modules of the graphgc package from ONNX's
// operator schemas into OUT_DIR (export/python/graphgc): each schema once (_schemas.py, and its
// typed signature in _signatures.pyi), opset13.py ... opset17.py and ml.py, which bind them to
// their version, each with its stub (.pyi), and op.py/op.pyi (the newest opset). The files are
// committed; the python_generated_up_to_date test checks they still match, and the
// `regenerate-opset` target rewrites them with the C++ opset.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "generated_file.h"
#include "onnx/common/version.h"
#include "opset_gen_model.h"
#include "python_gen_emit.h"

namespace graphgc::opset_gen {
namespace {

std::vector<GeneratedFile> Files(const std::string& onnx_version) {
  std::vector<GeneratedFile> files;
  auto add = [&files](std::vector<GeneratedFile> more) {
    for (GeneratedFile& file : more) files.push_back(std::move(file));
  };
  std::vector<OpsetContents> opsets;
  for (int version = kFirstOnnxOpset; version <= kNewestOnnxOpset; ++version) {
    opsets.push_back(CollectOpset("", version));
  }
  opsets.push_back(CollectOpset("ai.onnx.ml", kNewestMlOpset));
  add(EmitPythonSchemas(DistinctSchemas(opsets), onnx_version));
  for (const OpsetContents& opset : opsets) {
    const bool ml = opset.domain == "ai.onnx.ml";
    const std::string module = ml ? "ml" : "opset" + std::to_string(opset.version);
    add(EmitPythonOpset(opset, module, onnx_version));
    if (opset.version == kNewestOnnxOpset && !ml) add(EmitPythonOp(opset, module, onnx_version));
  }
  return files;
}

}  // namespace
}  // namespace graphgc::opset_gen

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: graphgc-python-gen OUT_DIR\n");
    return 2;
  }
  return graphgc::opset_gen::WriteGeneratedFiles(
      "graphgc-python-gen", argv[1], graphgc::opset_gen::Files(onnx::LAST_RELEASE_VERSION));
}
