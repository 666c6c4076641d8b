// Writes the C++ of one generated namespace: a header of declarations and a source of bodies,
// each body a call of graphgc::make_node (see opset/generated_support.h for the shared helpers).
#ifndef GRAPHGC_TOOLS_OPSET_GEN_EMIT_H_
#define GRAPHGC_TOOLS_OPSET_GEN_EMIT_H_

#include <string>

#include "opset_gen_model.h"

namespace graphgc::opset_gen {

struct GeneratedFile {
  std::string name;  // a file name in opset/, e.g. "opset13.h"
  std::string contents;
};

// `onnx_version` names the ONNX release whose schemas the files come from, in their headers.
GeneratedFile EmitHeader(const NamespaceContents& contents, const std::string& onnx_version);
GeneratedFile EmitSource(const NamespaceContents& contents, const std::string& onnx_version);

}  // namespace graphgc::opset_gen

#endif  // GRAPHGC_TOOLS_OPSET_GEN_EMIT_H_
