// LocalFunctions: a model's own functions (ModelProto.functions, FunctionProto), as the importer
// builds their calls. A call is built by building the function's body for it: the body's inputs
// bound to the call's inputs, each attribute reference (ref_attr_name) replaced by the call's
// attribute of that name, or the function's default, or left out when neither is given (ONNX's
// semantics of an attribute the call does not set). Types and values then come from the body's
// nodes, made like any other, and the body's intermediate values are collected like any others.
//
// Checked before anything is built: two functions with one (domain, name, overload), a function
// whose opset import of a domain differs from the model's (ONNX's checker refuses it, and the
// body's ops would mean something else than the model's), a call with more inputs or outputs than
// the function has, a call attribute the function does not declare, and a reference to an
// attribute the function does not declare. A function that calls itself, directly or through
// others, is refused by the importer when the call is built (CallChain).
// Holds pointers into the model, which must outlive it. Internal to the export module;
// thread-compatible.
#ifndef GRAPHGC_LOCAL_FUNCTIONS_H_
#define GRAPHGC_LOCAL_FUNCTIONS_H_

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "onnx/onnx_pb.h"

namespace graphgc::internal {

class LocalFunctions {
 public:
  // Domain ("" for ai.onnx) -> opset version.
  using Opsets = std::map<std::string, int>;

  // The functions of `model`, whose opset imports are `model_opsets`.
  static absl::StatusOr<LocalFunctions> Index(const onnx::ModelProto& model,
                                              const Opsets& model_opsets);

  bool empty() const { return functions_.empty(); }
  // The function `call` calls, or nullptr when it calls none of the model's.
  const onnx::FunctionProto* Find(const onnx::NodeProto& call) const;
  // The opsets the function's body is built at: the model's, with the function's own imports of
  // domains the model does not import (checked to agree where both import a domain).
  Opsets OpsetsOf(const onnx::FunctionProto& function) const;

  // The function's body for `call`, as a graph: the function's inputs and outputs (untyped; a
  // call may leave trailing inputs out), its nodes with every attribute reference resolved
  // (inside graph attributes too), and its value_info.
  static absl::StatusOr<onnx::GraphProto> BodyFor(const onnx::FunctionProto& function,
                                                  const onnx::NodeProto& call);

  // Whether `call` may call `function`: no more inputs or outputs than it has, no attribute it
  // does not declare.
  static absl::Status CheckCall(const onnx::FunctionProto& function, const onnx::NodeProto& call);

  // "domain.name" (with ":overload" if any), as errors name a function.
  static std::string NameOf(const onnx::FunctionProto& function);

 private:
  using Key = std::tuple<std::string, std::string, std::string>;  // domain, name, overload
  // The calls the functions' bodies make (CheckCall), and no cycle among them.
  absl::Status CheckCallsBetweenFunctions() const;
  std::map<Key, const onnx::FunctionProto*> functions_;
  Opsets model_opsets_;
};

// The functions whose bodies are being built, outermost first: a call of one of them is a
// recursion, which is refused.
class CallChain {
 public:
  // Calls nest at most this deep: each level is a body built inside its caller's.
  static constexpr size_t kMaxDepth = 200;
  size_t depth() const { return active_.size(); }
  bool Contains(const onnx::FunctionProto* function) const;
  // "a -> b -> a": the chain, then `function`.
  std::string Describe(const onnx::FunctionProto* function) const;

  // Enters `function` for the scope's life.
  class Scope {
   public:
    Scope(CallChain& chain, const onnx::FunctionProto* function);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    CallChain& chain_;
  };

 private:
  std::vector<const onnx::FunctionProto*> active_;
};

}  // namespace graphgc::internal

#endif  // GRAPHGC_LOCAL_FUNCTIONS_H_
