// Var: the user's handle to one var of a Graph, and a root of the value collector.
//
// Ownership (RAII, like cppgc's Persistent): constructing or copying a Var adds a root to its var,
// destroying it removes one, moving transfers it and leaves the source empty. While any Var refers
// to a var, that var's propagated value is kept; once none does, Graph::collect() may free it. The
// arena record of the var is never freed, so the graph still exports it.
//
// A Var keeps its graph's core alive, never its data: if the Graph is destroyed first, the Var
// reports an error (status() is FailedPrecondition) and holds no memory of the graph.
//
// A Var can be failed (ok() == false): the result of an op given bad input. Its status names the
// op, the input and the types; ops given a failed Var fail in turn. A failed Var holds only its
// status, nothing in any graph, so a failed op leaves its graph exactly as it was. A
// default-constructed Var is empty and not ok. Threading: as its Graph (thread-compatible).
#ifndef GRAPHGC_VAR_H_
#define GRAPHGC_VAR_H_

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "graphgc/ir/dim.h"
#include "graphgc/ir/ids.h"
#include "graphgc/ir/var_type.h"
#include "graphgc/valuestore/data_type.h"
#include "graphgc/valuestore/tensor.h"
#include "graphgc/valuestore/value.h"

namespace graphgc {

namespace internal {
class GraphCore;
}  // namespace internal

class Var {
 public:
  Var() = default;  // empty
  Var(const Var& other);
  Var(Var&& other) noexcept;
  Var& operator=(const Var& other);
  Var& operator=(Var&& other) noexcept;
  ~Var();

  bool ok() const;
  absl::Status status() const;
  DataType dtype() const;
  // nullopt if the rank is unknown; -1 for an unknown dim.
  std::optional<std::vector<int64_t>> shape() const;
  std::optional<int64_t> rank() const;
  // The full type: a tensor (dtype and shape as above), or a sequence, optional or map, for which
  // dtype() is kUndefined and shape() nullopt. A Var that is not ok() has an undefined tensor type.
  // Named dims (symbolic, as an argument declared {"N", 4}, and the dims ONNX's inference
  // derives from it) are -1 in shape(); type() and dims() give their names too.
  VarType type() const;
  // The shape with the names of its symbolic dims: {"N", 4}. nullopt if the rank is unknown.
  std::optional<std::vector<Dim>> dims() const;
  // The propagated value, when every input of its node had one (and propagation is on).
  // A tensor only: see any_value() for the others. Under OnBudget::kEvictAndRecompute a value
  // that was evicted is computed again here (so reading may evict others); nullopt if that does
  // not fit, and value_status says why.
  std::optional<Tensor> value() const;
  // The propagated value of any type: a tensor, or a sequence, optional or map (value.h).
  std::optional<Value> any_value() const;
  // OK when the var holds a value (any_value()); otherwise why it does not, as a status naming
  // the op: an argument; propagation is off; a random op; no kernel for the op at its opset;
  // input K has no value (and why); the output would be B bytes, over
  // GraphOptions::max_value_bytes; the live value budget was reached; the kernel gives no value
  // for these inputs. Under OnBudget::kEvictAndRecompute also: evicted, value() computes it
  // again (Unavailable); evicted, and computing it again failed (why); dropped, its op's inputs
  // and outputs did not fit. A failed Var: its status().
  absl::Status value_status() const;

  // Keeps the value from being evicted (OnBudget::kEvictAndRecompute) until unpin(); pins count,
  // and go with the last Var of the var. Makes the value resident first (computing it again if
  // it was evicted). Errors: why the var has no value (value_status), a failed or empty Var.
  // Under kDropValues a pin changes nothing but pinned().
  absl::Status pin() const;
  // FailedPrecondition if the var is not pinned.
  absl::Status unpin() const;
  bool pinned() const;

  // The name the var has in an export: an argument's, or one given with set_name (nullopt if
  // none: the export makes one up).
  std::optional<std::string> name() const;
  // Names the var in every export of it (the same as Graph::name). Errors: an empty name, a name
  // another var or an argument of the graph has, an argument (named when it was made), a failed
  // Var.
  absl::Status set_name(absl::string_view name);

  // True for a default-constructed (or moved-from) Var.
  bool empty() const { return core_ == nullptr && detached_.ok(); }

  // For the library's own modules: the graph this Var belongs to and its arena ID.
  internal::GraphCore* core() const { return core_; }
  VarId id() const { return id_; }
  // Roots `id` in `core`.
  Var(internal::GraphCore* core, VarId id);
  // A failed Var: it carries `status` and belongs to no graph.
  static Var Detached(absl::Status status);

 private:
  void release();
  bool attached() const;  // has a core whose graph is still alive

  internal::GraphCore* core_ = nullptr;
  VarId id_;
  absl::Status detached_;  // the failure of a failed Var; OK otherwise
};

// "Var(tensor(float)[2,3] = float[2,3] {1, 2, ...})", "Var(tensor(float)[-1])" without a value,
// "Var(failed: <status>)", "Var(empty)".
std::ostream& operator<<(std::ostream& out, const Var& var);

}  // namespace graphgc

#endif  // GRAPHGC_VAR_H_
