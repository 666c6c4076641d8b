// The Python op modules of the graphgc package, written by graphgc-python-gen from the same op
// model as the C++ opset (opset_gen_model.h). As in C++, each schema is written once: in
// _schemas.py as a factory of its op function (which builds nodes through
// graphgc._graphgc.make_node), and in _signatures.pyi as its typed signature with the schema's
// summary. Each opset module (opsetNN.py, ml.py) binds the factories to its version, and its stub
// (.pyi) imports the signatures under the ops' names, so editors complete op names and attributes.
#ifndef GRAPHGC_TOOLS_PYTHON_GEN_EMIT_H_
#define GRAPHGC_TOOLS_PYTHON_GEN_EMIT_H_

#include <string>
#include <vector>

#include "opset_gen_emit.h"
#include "opset_gen_model.h"

namespace graphgc::opset_gen {

// spox's op function name: snake case ("ReduceSum" -> reduce_sum, "GatherND" -> gather_nd,
// "MatMul" -> matmul), with a trailing '_' on a Python keyword ("If" -> if_).
std::string PythonOpName(const std::string& op_type);

// _schemas.py and _signatures.pyi for `schemas` (each once).
std::vector<GeneratedFile> EmitPythonSchemas(const std::vector<OpSpec>& schemas,
                                             const std::string& onnx_version);

// `module`.py and `module`.pyi for the ops of `opset` (ai.onnx or ai.onnx.ml).
std::vector<GeneratedFile> EmitPythonOpset(const OpsetContents& opset, const std::string& module,
                                           const std::string& onnx_version);

// <alias>.py and .pyi: graphgc.op (or graphgc.ml), the newest opset's module re-exported.
std::vector<GeneratedFile> EmitPythonNewest(const OpsetContents& newest, const std::string& alias,
                                            const std::string& newest_module,
                                            const std::string& onnx_version);

}  // namespace graphgc::opset_gen

#endif  // GRAPHGC_TOOLS_PYTHON_GEN_EMIT_H_
