// The op model of graphgc-opset-gen: what one generated op looks like, derived from an ONNX
// OpSchema, and which ops (each with the schema it has there) one opset holds.
#ifndef GRAPHGC_TOOLS_OPSET_GEN_MODEL_H_
#define GRAPHGC_TOOLS_OPSET_GEN_MODEL_H_

#include <string>
#include <vector>

namespace graphgc::opset_gen {

// The opsets the generators write: every version of ai.onnx (1 to 24) and of ai.onnx.ml (1 to 5)
// that the ONNX release graphgc builds against defines.
inline constexpr int kFirstOnnxOpset = 1;
inline constexpr int kNewestOnnxOpset = 24;
inline constexpr int kFirstMlOpset = 1;
inline constexpr int kNewestMlOpset = 5;

enum class Arity { kSingle, kOptional, kVariadic };

struct InputSpec {
  std::string onnx_name;
  std::string identifier;
  Arity arity = Arity::kSingle;
  std::string type_str;      // the type constraint's name (T) or a type (tensor(int64))
  std::string description;   // the schema's words for it
  bool has_default = false;  // an optional input followed only by optional inputs
};

// The ONNX attribute types a generated attribute struct can carry.
enum class AttributeKind {
  kInt,
  kFloat,
  kString,
  kInts,
  kFloats,
  kStrings,
  kTensor,
  kGraph,
  kType
};

struct AttributeSpec {
  std::string onnx_name;
  std::string identifier;
  AttributeKind kind = AttributeKind::kInt;
  std::string note;  // "required", "default: 1", or empty
  std::string description;
};

struct OutputSpec {
  std::string onnx_name;
  std::string identifier;
  Arity arity = Arity::kSingle;
  std::string type_str;
  std::string description;
};

struct TypeConstraintSpec {
  std::string name;                        // T
  std::vector<std::string> allowed_types;  // tensor(float), ...
  std::string description;
};

// How a function hands back its outputs.
enum class Returns {
  kVar,     // one output
  kStruct,  // several fixed outputs, possibly with optional trailing ones: <Op>Outputs
  kVector,  // a variadic output: std::vector<Var>, sized by a required num_outputs parameter
};

// One schema of one op: the same for every opset from since_version until the op changes again.
struct OpSpec {
  std::string name;
  std::string domain;
  int since_version = 0;  // the version that introduced this schema
  std::string summary;    // the first sentence of the schema's doc
  std::string doc;        // the whole of it (Python docstrings)
  std::vector<TypeConstraintSpec> type_constraints;
  std::vector<InputSpec> inputs;
  // No inputs to find the graph through: the function takes a `Graph& graph` first.
  bool takes_graph = false;
  std::vector<AttributeSpec> attributes;
  std::vector<std::string> unsupported_attributes;  // "body (GRAPH)", optional ones only
  // SPARSE_TENSOR attributes (Constant's sparse_value): unsupported in C++, but Python takes an
  // onnx.SparseTensorProto there (as the dense tensor it stands for).
  std::vector<AttributeSpec> sparse_attributes;
  std::vector<std::string> renames;  // names that clash with C++ keywords and got an underscore
  std::vector<OutputSpec> outputs;
  Returns returns = Returns::kVar;
  // For kStruct with optional outputs: the default of the trailing num_outputs parameter (the
  // number of required outputs, at least one); 0 when the function has no such parameter.
  int default_num_outputs = 0;
  // A kVector op with a graph attribute (If, Loop, Scan): num_outputs defaults to -1, as many as
  // the body gives.
  bool outputs_from_body = false;
};

struct SkippedOp {
  std::string name;
  std::string reason;
};

// The operators of one domain at one opset version, each with the schema it has there.
struct OpsetContents {
  std::string domain;  // "" (ai.onnx) or "ai.onnx.ml"
  int version = 0;
  std::vector<OpSpec> ops;  // sorted by name
  std::vector<SkippedOp> skipped;
};

// Every operator of `domain` that exists (and is not deprecated) at `version`, in name order,
// less those named in `excluded`; ops no generated code can build are in `skipped`.
OpsetContents CollectOpset(const std::string& domain, int version,
                           const std::vector<std::string>& excluded = {});

// The schemas the ops of `opsets` have, each once, sorted by since version, then name.
std::vector<OpSpec> DistinctSchemas(const std::vector<OpsetContents>& opsets);

}  // namespace graphgc::opset_gen

#endif  // GRAPHGC_TOOLS_OPSET_GEN_MODEL_H_
