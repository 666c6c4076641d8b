// graphgc-opset-gen OUT_DIR: writes the typed op constructors of graphgc from ONNX's operator
// schemas — graphgc::opset13 ... opset17 (opsetNN.h/.cc), graphgc::op (onnx_ops.h/.cc) and
// graphgc::ml (ml_ops.h/.cc) — into OUT_DIR.
//
// The output depends only on the installed ONNX's schema registry, so it is deterministic; the
// files are committed in opset/ and the opset_generated_up_to_date test checks they still match.
// A file whose contents are unchanged is not rewritten, which keeps regeneration from
// triggering rebuilds.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

#include "onnx/common/version.h"
#include "opset_gen_emit.h"
#include "opset_gen_model.h"

namespace graphgc::opset_gen {
namespace {

constexpr int kFirstOnnxOpset = 13;
constexpr int kNewestOnnxOpset = 17;
constexpr int kNewestMlOpset = 3;

std::vector<NamespaceSpec> Namespaces() {
  std::vector<NamespaceSpec> specs;
  for (int version = kFirstOnnxOpset; version <= kNewestOnnxOpset; ++version) {
    const std::string v = std::to_string(version);
    specs.push_back({.file_stem = "opset" + v,
                     .cpp_namespace = "graphgc::opset" + v,
                     .title = "the ai.onnx operators as of opset " + v +
                              ", one function each; every node is built at opset " + v + ".",
                     .domain = "",
                     .version = version,
                     .handwritten = {},
                     .alias_of = ""});
  }
  const std::string newest = std::to_string(kNewestOnnxOpset);
  specs.push_back({.file_stem = "onnx_ops",
                   .cpp_namespace = "graphgc::op",
                   .title = "the ai.onnx operators at opset " + newest +
                            ", one function each, named by ONNX's op_type.",
                   .domain = "",
                   .version = kNewestOnnxOpset,
                   // In the order of ops.h, which keeps their hand-written signatures.
                   .handwritten = {"Constant", "Identity", "Add", "Sub", "Mul", "Div", "Neg",
                                   "Relu", "MatMul", "Reshape", "Cast"},
                   .alias_of = "opset" + newest});
  specs.push_back({.file_stem = "ml_ops",
                   .cpp_namespace = "graphgc::ml",
                   .title = "the ai.onnx.ml operators at ai.onnx.ml opset " +
                            std::to_string(kNewestMlOpset) + ", one function each.",
                   .domain = "ai.onnx.ml",
                   .version = kNewestMlOpset,
                   .handwritten = {},
                   .alias_of = ""});
  return specs;
}

bool SameContents(const std::filesystem::path& path, const std::string& contents) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::string existing((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return existing == contents;
}

bool WriteFile(const std::filesystem::path& path, const std::string& contents) {
  if (SameContents(path, contents)) return true;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << contents;
  out.close();
  if (!out) {
    std::fprintf(stderr, "graphgc-opset-gen: cannot write %s\n", path.c_str());
    return false;
  }
  return true;
}

void PrintSummary(const NamespaceContents& contents) {
  std::printf("%-16s %3zu ops", contents.spec.cpp_namespace.c_str(), contents.ops.size());
  if (!contents.skipped.empty()) {
    std::printf(", not generated:");
    for (const SkippedOp& skipped : contents.skipped) std::printf(" %s", skipped.name.c_str());
  }
  std::printf("\n");
}

int Run(const std::filesystem::path& out_dir) {
  std::error_code error;
  std::filesystem::create_directories(out_dir, error);
  if (error) {
    std::fprintf(stderr, "graphgc-opset-gen: cannot create %s: %s\n", out_dir.c_str(),
                 error.message().c_str());
    return 1;
  }
  const std::string onnx_version = onnx::LAST_RELEASE_VERSION;
  for (const NamespaceSpec& spec : Namespaces()) {
    NamespaceContents contents = CollectNamespace(spec);
    std::vector<GeneratedFile> files = {EmitHeader(contents, onnx_version)};
    if (spec.alias_of.empty()) files.push_back(EmitSource(contents, onnx_version));
    for (const GeneratedFile& file : files) {
      if (!WriteFile(out_dir / file.name, file.contents)) return 1;
    }
    PrintSummary(contents);
  }
  return 0;
}

}  // namespace
}  // namespace graphgc::opset_gen

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: graphgc-opset-gen OUT_DIR\n");
    return 2;
  }
  return graphgc::opset_gen::Run(argv[1]);
}
