// The C++ of one generated op: its documentation, attribute and output structs, its declaration
// and its definition (a call of graphgc::make_node through the helpers of
// opset/build/generated_support.h).
#ifndef GRAPHGC_TOOLS_OPSET_GEN_OP_H_
#define GRAPHGC_TOOLS_OPSET_GEN_OP_H_

#include <string>
#include <vector>

#include "opset_gen_model.h"

namespace graphgc::opset_gen {

std::string AttributesType(const OpSpec& op);  // "SoftmaxAttributes"
std::string OutputsType(const OpSpec& op);     // "TopKOutputs"
bool HasAttributesStruct(const OpSpec& op);
bool HasOutputsStruct(const OpSpec& op);

// Every op is a function object: a struct named by the op_type, holding `int opset` (the version
// its nodes are built at), whose const call operator builds the node; one per schema, bound to
// each opset that has the schema.

// For a header: the op's comment, its structs, and the function object.
std::string OpDeclarations(const OpSpec& op);

// For a source: the definition of the function object's call operator.
std::string OpDefinition(const OpSpec& op);

// The #include lines the declarations of `ops` need, and no more (generated headers are included
// by every user of the umbrella header): standard headers, a blank line, project headers.
std::vector<std::string> DeclarationIncludes(const std::vector<OpSpec>& ops);

}  // namespace graphgc::opset_gen

#endif  // GRAPHGC_TOOLS_OPSET_GEN_OP_H_
