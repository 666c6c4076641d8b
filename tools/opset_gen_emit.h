// Writes the generated files of one domain: its schemas, each once (onnx_schemas.h/.cc,
// ml_schemas.h/.cc), the opset namespaces that bind them to their version (opset1.h ...
// opset24.h, ml1.h ... ml5.h), and the namespace of the newest (graphgc::op in onnx_ops.h,
// graphgc::ml in ml_ops.h).
#ifndef GRAPHGC_TOOLS_OPSET_GEN_EMIT_H_
#define GRAPHGC_TOOLS_OPSET_GEN_EMIT_H_

#include <string>
#include <vector>

#include "generated_file.h"
#include "opset_gen_model.h"

namespace graphgc::opset_gen {

// How one domain's generated files and namespaces are named.
struct DomainNames {
  std::string domain;        // "" (ai.onnx) or "ai.onnx.ml"
  std::string schemas_stem;  // "onnx_schemas": the file of its schemas
  std::string since_prefix;  // "since": graphgc::since13 holds the schemas introduced at 13
  std::string opset_prefix;  // "opset": graphgc::opset15 binds them to opset 15, in opset15.h
  std::string newest;        // "op": the namespace of the newest opset
  std::string newest_stem;   // "onnx_ops": its file
};
const DomainNames& OnnxNames();
const DomainNames& MlNames();

// Every file below names `onnx_version`, the ONNX release whose schemas it comes from.

// <schemas_stem>.h and .cc: each schema of `schemas` (sorted by since version, then name) as a
// function object in the namespace of its since version; `first` and `newest` are the opsets
// that use them.
std::vector<GeneratedFile> EmitSchemas(const DomainNames& names, int first, int newest,
                                       const std::vector<OpSpec>& schemas,
                                       const std::string& onnx_version);

// <opset_prefix>NN.h: the schemas' function objects bound to the opset's version, and their
// structs.
GeneratedFile EmitOpset(const DomainNames& names, const OpsetContents& opset,
                        const std::string& onnx_version);

// <newest_stem>.h: the ops of `newest` re-exported in graphgc::<newest>, beside the
// `handwritten` ones of graphgc/opset/build/ops.h; the calling convention is written in
// onnx_ops.h.
GeneratedFile EmitNewest(const DomainNames& names, const OpsetContents& newest,
                         const std::vector<std::string>& handwritten,
                         const std::string& onnx_version);

}  // namespace graphgc::opset_gen

#endif  // GRAPHGC_TOOLS_OPSET_GEN_EMIT_H_
