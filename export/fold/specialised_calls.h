// Specialised functions for the calls of a folded model whose inputs are partly known: a call of
// one of the model's functions (ModelProto.functions) in the model's graph, some of whose inputs
// are initializers, may call a copy of the function made for those inputs instead. The copy's
// body starts with the known inputs as Constant nodes, takes the call's attributes as values
// (attribute references resolved as ONNX's function semantics have them), and is folded
// (function_bodies.h); the call then passes only its unknown inputs, and no attributes.
//
// Calls of one function with the same known inputs (the same initializers in the same positions)
// and the same attributes share one copy, named after the function ("Layer_s1"). A copy is made
// only when its body then runs fewer nodes than the function's, and the model does not grow: the
// copy's bytes are no more than what its calls shed, the initializers only they read, and the
// function itself when no call of it is left. The calls of a function are first weighed together
// (when every call of it can be specialised, the function goes), then each set of them alone.
// Initializers and functions nothing reads any more are dropped. Internal to the fold;
// thread-compatible.
#ifndef GRAPHGC_EXPORT_FOLD_SPECIALISED_CALLS_H_
#define GRAPHGC_EXPORT_FOLD_SPECIALISED_CALLS_H_

#include <cstdint>

#include "onnx/onnx_pb.h"

namespace graphgc::internal {

struct SpecialisedCalls {
  int64_t calls = 0;      // calls now calling a specialised copy
  int64_t functions = 0;  // the copies made
};

// Specialises the calls of `model`'s graph that are worth it; a constant of a body is computed
// only when it is at most `max_fold_bytes`.
SpecialisedCalls SpecialiseCalls(onnx::ModelProto& model, int64_t max_fold_bytes);

}  // namespace graphgc::internal

#endif  // GRAPHGC_EXPORT_FOLD_SPECIALISED_CALLS_H_
