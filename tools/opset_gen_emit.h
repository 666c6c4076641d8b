// Writes the generated files: the ai.onnx schemas, each once (onnx_schemas.h/.cc), the opset
// namespaces that bind them to their version (opset13.h ... opset17.h), graphgc::op
// (onnx_ops.h) and graphgc::ml (ml_ops.h/.cc).
#ifndef GRAPHGC_TOOLS_OPSET_GEN_EMIT_H_
#define GRAPHGC_TOOLS_OPSET_GEN_EMIT_H_

#include <string>
#include <vector>

#include "generated_file.h"
#include "opset_gen_model.h"

namespace graphgc::opset_gen {

// Every file below names `onnx_version`, the ONNX release whose schemas it comes from.

// onnx_schemas.h and .cc: each schema of `schemas` (sorted by since version, then name) as a
// function object in the namespace of its since version.
std::vector<GeneratedFile> EmitSchemas(const std::vector<OpSpec>& schemas,
                                       const std::string& onnx_version);

// opsetNN.h: the schemas' function objects bound to the opset's version, and their structs.
GeneratedFile EmitOpset(const OpsetContents& opset, const std::string& onnx_version);

// onnx_ops.h: graphgc::op, the ops of `newest` re-exported beside the `handwritten` ones of
// graphgc/opset/build/ops.h; the calling convention is written here.
GeneratedFile EmitOp(const OpsetContents& newest, const std::vector<std::string>& handwritten,
                     const std::string& onnx_version);

// ml_ops.h and .cc: graphgc::ml, a free function per op, building its nodes at `ml.version`.
std::vector<GeneratedFile> EmitMl(const OpsetContents& ml, const std::string& onnx_version);

}  // namespace graphgc::opset_gen

#endif  // GRAPHGC_TOOLS_OPSET_GEN_EMIT_H_
