// ort_difftest: graphgc's propagated values against ONNX Runtime on random graphs, with ONNX's
// reference evaluator as the second oracle.
//
//   ort_difftest [--seed S] [--count N] [--graph-seed X] [--keep DIR] [--ops OP,OP...]
//                [--since-opset V]
//
// Generates graphs (generator.h) until N of them ran: each is exported with its leaves as
// arguments and run by ONNX Runtime (one process for all, tests/difftest/ort_batch.js), and built
// again with the same leaves as constants, whose propagated values must match the oracle's outputs
// for every node. ONNX's reference evaluator (onnx.reference, tests/difftest/ref_batch.py) is asked
// where ONNX Runtime does not run a graph (an op or element type its CPU provider lacks, a
// refusal) and where ONNX Runtime and graphgc disagree; there its answer decides, and each graph
// where it overrules ONNX Runtime is printed. A graph neither runs is not counted. A mismatch
// prints the graph's seed (--graph-seed runs that graph alone) and the smallest failing graph: the
// first mismatching node alone, its inputs bound to the values they had, when that still fails;
// the whole graph otherwise. --ops draws the top-level steps from those ops' recipes only, kernel
// or not (bodies of Loop and Scan still use every op with a kernel); --since-opset V from the
// recipes of ops whose newest version came in opset V or later. Prints, per op, how many outputs
// were compared and how many had no value (not compared). Exits non-zero on any mismatch.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "generator.h"
#include "onnx/defs/schema.h"
#include "onnx/shape_inference/implementation.h"
#include "plan.h"
#include "tensor_text.h"

namespace difftest {
namespace {

namespace fs = std::filesystem;

struct Case {
  uint64_t seed = 0;
  Plan plan;
  fs::path dir;
  std::vector<std::vector<graphgc::Var>> values;  // the constant build's step outputs
  // ONNX's own inference of each output's shape, to tell ONNX Runtime's shape bugs from ours.
  std::map<std::string, std::vector<int64_t>> onnx_shapes;
  std::unique_ptr<graphgc::Graph> graph;  // owns `values`
};

// What happened to the outputs of one op type over the graphs ONNX Runtime ran.
struct OpCounts {
  int compared = 0;  // graphgc's value compared with ONNX Runtime's
  int no_value = 0;  // graphgc gave no value (no kernel, or the kernel declined): not compared
};

struct Totals {
  int ran = 0, not_run = 0, invalid = 0, compared = 0, mismatched_graphs = 0;
  int graphs_without_values = 0;  // ran, but no output had a value to compare
  int by_reference = 0;   // ran by ONNX's reference evaluator only (ONNX Runtime did not run it)
  int ort_overruled = 0;  // ONNX Runtime disagreed with graphgc, the reference evaluator agreed
  std::map<std::string, int> refusals;  // why ONNX Runtime did not run a graph
  std::map<std::string, OpCounts> ops;
};

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void WriteFile(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// The output shapes ONNX's shape inference gives the model on its own (graphgc's declared output
// shapes removed first); outputs it cannot fully infer are left out.
std::map<std::string, std::vector<int64_t>> OnnxOutputShapes(onnx::ModelProto model) {
  std::map<std::string, std::vector<int64_t>> shapes;
  for (onnx::ValueInfoProto& output : *model.mutable_graph()->mutable_output()) {
    output.mutable_type()->mutable_tensor_type()->clear_shape();
  }
  try {
    onnx::shape_inference::InferShapes(model);
  } catch (const std::exception&) {
    return shapes;
  }
  for (const onnx::ValueInfoProto& output : model.graph().output()) {
    if (!output.type().tensor_type().has_shape()) continue;
    std::vector<int64_t> dims;
    bool known = true;
    for (const auto& dim : output.type().tensor_type().shape().dim()) {
      known = known && dim.has_dim_value();
      dims.push_back(dim.dim_value());
    }
    if (known) shapes[output.name()] = dims;
  }
  return shapes;
}

// Exports the plan with its leaves as arguments and writes model.onnx and the feeds; false when
// graphgc cannot build or export it that way (a generator limitation, not a mismatch).
bool WriteCase(Case& c) {
  graphgc::Graph graph;
  const BuiltPlan built = Build(graph, c.plan, /*leaves_as_arguments=*/true);
  std::vector<std::pair<std::string, graphgc::Var>> outputs;
  for (size_t s = 0; s < built.steps.size(); ++s) {
    for (size_t o = 0; o < built.steps[s].size(); ++o) {
      outputs.push_back({OutputName(static_cast<int>(s), static_cast<int>(o)), built.steps[s][o]});
    }
  }
  absl::StatusOr<onnx::ModelProto> model = graphgc::to_onnx(graph, outputs);
  if (!model.ok()) return false;
  fs::create_directories(c.dir);
  WriteFile(c.dir / "model.onnx", model->SerializeAsString());
  c.onnx_shapes = OnnxOutputShapes(*model);
  std::string feeds;
  for (const onnx::ValueInfoProto& input : model->graph().input()) {
    const size_t leaf = std::stoul(input.name().substr(3));  // "in_<i>"
    const graphgc::Tensor& value = c.plan.leaves[leaf].value;
    const std::string file = absl::StrCat(input.name(), ".bin");
    WriteFile(c.dir / file, RawBytes(value));
    absl::StrAppend(&feeds, input.name(), " ", graphgc::DataTypeName(value.dtype()), " ",
                    value.rank() == 0 ? "-" : absl::StrJoin(value.shape(), ","), " ", file, "\n");
  }
  WriteFile(c.dir / "feeds.txt", feeds);
  c.graph = std::make_unique<graphgc::Graph>();
  c.values = Build(*c.graph, c.plan, /*leaves_as_arguments=*/false).steps;
  return true;
}

// Runs the cases in one ONNX Runtime process. When ONNX Runtime crashes on a case (TopK of an
// empty input dies of a floating-point exception), that case gets the status "crashed" and the
// rest run in a new process. False when ONNX Runtime cannot be started at all.
bool RunOrt(const std::vector<const Case*>& cases, const fs::path& work) {
  size_t next = 0;
  while (next < cases.size()) {
    std::string list;
    for (size_t i = next; i < cases.size(); ++i)
      absl::StrAppend(&list, cases[i]->dir.string(), "\n");
    WriteFile(work / "cases.txt", list);
    const std::string command =
        absl::StrCat("node '", GRAPHGC_ORT_BATCH_JS, "' '", (work / "cases.txt").string(), "' '",
                     GRAPHGC_ORT_NODE_MODULES, "' 2>/dev/null");
    const int code = std::system(command.c_str());
    const size_t first = next;
    while (next < cases.size() && fs::exists(cases[next]->dir / "status.txt")) ++next;
    if (next == cases.size()) return true;
    if (code != 0 && !fs::exists(cases[next]->dir / "started")) {
      return false;  // the runner did not start: node or onnxruntime-node is missing
    }
    WriteFile(cases[next]->dir / "status.txt",
              "crashed ONNX Runtime's process died on this graph\n");
    ++next;
  }
  return true;
}

// Where an oracle's results are: ONNX Runtime's (ort_batch.js) or ONNX's reference evaluator's
// (ref_batch.py), in the case directory, as "<prefix>NAME.txt/.bin" beside "<status file>".
struct Oracle {
  const char* name;
  const char* prefix;
  const char* status_file;
};
constexpr Oracle kOrt = {"ONNX Runtime", "ort_", "status.txt"};
constexpr Oracle kReference = {"ONNX's reference evaluator", "ref_", "ref_status.txt"};

std::optional<graphgc::Tensor> OracleOutput(const fs::path& dir, const Oracle& oracle,
                                            const std::string& name) {
  const std::string header = ReadFile(dir / absl::StrCat(oracle.prefix, name, ".txt"));
  std::vector<std::string> fields =
      absl::StrSplit(header, absl::ByAnyChar(" \n"), absl::SkipEmpty());
  if (fields.size() != 2) return std::nullopt;
  std::vector<int64_t> dims;
  if (fields[1] != "-") {
    for (absl::string_view d : absl::StrSplit(fields[1], ','))
      dims.push_back(std::stoll(std::string(d)));
  }
  return FromRawBytes(fields[0], dims, ReadFile(dir / absl::StrCat(oracle.prefix, name, ".bin")));
}

std::string Status(const fs::path& dir, const Oracle& oracle = kOrt) {
  std::string status = ReadFile(dir / oracle.status_file);
  while (!status.empty() && status.back() == '\n') status.pop_back();
  return status;
}

// Where ONNX's reference evaluator (onnx 1.23, the test venv's) is no oracle: ops it computes
// against their spec, found by this test and checked in its source. A graph holding one is not
// judged by it.
const std::map<std::string, std::string>& ReferenceBlindSpots() {
  static const auto* spots = new std::map<std::string, std::string>{
      {"GlobalMaxPool", "op_global_max_pool.py reduces axes 1.. of a rank-3 input, not 2.."},
      {"LpNormalization", "op_lp_normalization.py takes no absolute value (p = 1 of negatives)"},
      {"Loop", "op_loop.py joins scan outputs with vstack instead of stacking them"},
      {"LSTM", "op_lstm.py ignores activations, activation_alpha and activation_beta"},
      {"GRU", "op_gru.py ignores activations, activation_alpha and activation_beta"},
      {"RNN",
       "op_rnn.py ignores activations; its bidirectional RNN differs from ONNX Runtime's "
       "opset-14 kernel, which graphgc matches"},
      {"HardSwish",
       "it expands HardSwish through the function body, whose alpha 1/6 is a float "
       "attribute: double inputs get 1/6 rounded to float"},
      {"AffineGrid", "op_affine_grid.py returns float32 grids for double theta"},
      {"Erf", "op_erf.py computes erf in float32, double inputs too"},
      {"Gelu",
       "it expands Gelu through the function body, whose Erf op_erf.py computes in "
       "float32"},
      {"ReduceSumSquare", "op_reduce_sum_square.py returns numpy's sum type (uint64 for uint32)"},
      {"MaxPool",
       "op_max_pool.py applies ceil_mode to auto_pad SAME's output size (1 where ONNX's "
       "inference and ONNX Runtime give 2)"},
  };
  return *spots;
}

// The first op of the plan (bodies included) the reference evaluator cannot judge, if any.
std::optional<std::string> BlindSpotOf(const Plan& plan) {
  for (const Step& step : plan.steps) {
    if (ReferenceBlindSpots().count(step.op_type) > 0) return step.op_type;
    if (step.body != nullptr) {
      if (std::optional<std::string> inner = BlindSpotOf(step.body->plan)) return inner;
    }
  }
  return std::nullopt;
}

// Runs the cases with ONNX's reference evaluator in one Python process; false when it cannot be
// started (no test venv).
bool RunReference(const std::vector<const Case*>& cases, const fs::path& work) {
  if (cases.empty()) return true;
  std::string list;
  for (const Case* c : cases) absl::StrAppend(&list, c->dir.string(), "\n");
  WriteFile(work / "reference_cases.txt", list);
  const std::string command =
      absl::StrCat("'", GRAPHGC_REF_PYTHON, "' '", GRAPHGC_REF_BATCH_PY, "' '",
                   (work / "reference_cases.txt").string(), "' 2>/dev/null");
  return std::system(command.c_str()) == 0;
}

// A refusal without the node's name, so that refusals of one kind count together.
std::string Grouped(const std::string& status) {
  size_t end = std::min(status.find(" node with name"), status.find(" Status Message:"));
  std::string grouped = status.substr(0, end);
  const size_t name = grouped.find(" Name:'");
  return name == std::string::npos ? grouped : grouped.substr(0, name);
}

struct Mismatch {
  int step = -1;
  std::string why;
  // ONNX Runtime's output has a shape that contradicts ONNX's own inference, which graphgc's
  // value agrees with (ONNX Runtime gets some empty reductions wrong): not graphgc's mismatch.
  bool ort_contradicts_onnx = false;
};

// The absolute tolerance an op's float outputs need at least. Resize and GridSample blend inputs
// of up to 4 with weights ONNX Runtime computes in float, graphgc in double; the normalizations
// add B to scale * normalized, each up to 4 in size. Where that cancels to near 0, a few float
// ulps of the terms (1e-5) is rounding, not a wrong value.
// A double Attention: ONNX Runtime 1.32 and ONNX's reference agree with each other to double
// precision but not with numpy's float64 softmax(Q K^T * scale) V, which graphgc matches; they
// differ by ~1e-8 of the O(1) terms (ort_difftest --graph-seed 7000203 --ops Attention).
double MinAbsoluteTolerance(const std::string& op_type) {
  static const std::set<std::string> kBlending = {"Resize", "GridSample", "BatchNormalization",
                                                  "InstanceNormalization", "LayerNormalization"};
  if (op_type == "Attention") return 1e-7;
  return kBlending.count(op_type) > 0 ? 1e-5 : 0;
}

// The first step whose value differs from ONNX Runtime's (or that graphgc fails), if any. Counts
// the outputs compared and those without a value, in total and per op, up to that step.
std::optional<Mismatch> Compare(const Case& c, int& compared,
                                std::map<std::string, OpCounts>* per_op = nullptr,
                                const Oracle& oracle = kOrt) {
  std::map<std::string, OpCounts> ignored;
  if (per_op == nullptr) per_op = &ignored;
  for (size_t s = 0; s < c.values.size(); ++s) {
    OpCounts& counts = (*per_op)[c.plan.steps[s].op_type];
    for (size_t o = 0; o < c.values[s].size(); ++o) {
      const graphgc::Var& var = c.values[s][o];
      const std::string name = OutputName(static_cast<int>(s), static_cast<int>(o));
      if (!var.ok()) {
        return Mismatch{static_cast<int>(s),
                        absl::StrCat(name, ": graphgc fails where ", oracle.name,
                                     " computes: ", var.status().message())};
      }
      std::optional<graphgc::Tensor> value = var.value();
      if (!value.has_value()) {  // no kernel or a declined case: nothing to compare
        ++counts.no_value;
        continue;
      }
      std::optional<graphgc::Tensor> ort = OracleOutput(c.dir, oracle, name);
      if (!ort.has_value())
        return Mismatch{static_cast<int>(s), absl::StrCat(name, ": no output of ", oracle.name)};
      ++compared;
      ++counts.compared;
      std::string difference =
          CompareTensors(*value, *ort, MinAbsoluteTolerance(c.plan.steps[s].op_type), oracle.name);
      if (difference.empty()) continue;
      auto onnx = c.onnx_shapes.find(name);
      const bool ort_wrong = onnx != c.onnx_shapes.end() &&
                             absl::Span<const int64_t>(onnx->second) == value->shape() &&
                             absl::Span<const int64_t>(onnx->second) != ort->shape();
      return Mismatch{static_cast<int>(s), absl::StrCat(name, " ", difference),
                      ort_wrong && &oracle == &kOrt};
    }
  }
  return std::nullopt;
}

// The failing step alone, its inputs bound to the values they had in the constant build.
std::optional<Plan> IsolateStep(const Case& c, int step) {
  Plan alone;
  Step copy = c.plan.steps[static_cast<size_t>(step)];
  for (std::optional<Ref>& ref : copy.inputs) {
    if (!ref.has_value()) continue;
    Leaf leaf;
    if (ref->is_leaf) {
      leaf = c.plan.leaves[static_cast<size_t>(ref->index)];
    } else {
      std::optional<graphgc::Tensor> value =
          c.values[static_cast<size_t>(ref->index)][static_cast<size_t>(ref->output)].value();
      if (!value.has_value()) return std::nullopt;
      leaf.value = *value;
    }
    alone.leaves.push_back(leaf);
    *ref = Ref{true, static_cast<int>(alone.leaves.size()) - 1, 0};
  }
  alone.steps.push_back(std::move(copy));
  return alone;
}

// Runs the cases with `oracle`; false when it cannot be started.
bool RunOracle(const Oracle& oracle, const std::vector<const Case*>& cases, const fs::path& work) {
  return &oracle == &kOrt ? RunOrt(cases, work) : RunReference(cases, work);
}

void Report(const Case& c, const Mismatch& mismatch, const std::vector<std::string>& ops,
            const fs::path& work, const Oracle& oracle) {
  const std::string flags = ops.empty() ? "" : absl::StrCat(" --ops ", absl::StrJoin(ops, ","));
  std::printf("MISMATCH graph seed %llu (ort_difftest --graph-seed %llu%s): %s\n",
              static_cast<unsigned long long>(c.seed), static_cast<unsigned long long>(c.seed),
              flags.c_str(), mismatch.why.c_str());
  if (std::optional<Plan> alone = IsolateStep(c, mismatch.step)) {
    Case small{c.seed, *std::move(alone), work / absl::StrCat("isolated_", c.seed)};
    if (WriteCase(small) && RunOracle(oracle, {&small}, work) &&
        Status(small.dir, oracle) == "ok") {
      int ignored = 0;
      if (std::optional<Mismatch> again = Compare(small, ignored, nullptr, oracle)) {
        std::printf("smallest failing graph (%s):\n%s", again->why.c_str(),
                    Describe(small.plan).c_str());
        return;
      }
    }
  }
  std::printf("failing graph:\n%s", Describe(c.plan).c_str());
}

// Where the whole graph is no case for the reference evaluator (it holds an op the reference
// gets wrong), whether the step ONNX Runtime disagrees on, alone with the inputs it had, is one,
// and the reference agrees with graphgc there.
bool ReferenceClearsTheStep(const Case& c, const Mismatch& mismatch, const fs::path& work) {
  const std::string& op = c.plan.steps[static_cast<size_t>(mismatch.step)].op_type;
  if (ReferenceBlindSpots().count(op) > 0) return false;
  std::optional<Plan> alone = IsolateStep(c, mismatch.step);
  if (!alone.has_value() || BlindSpotOf(*alone).has_value()) return false;
  Case small{c.seed, *std::move(alone), work / absl::StrCat("referee_", c.seed)};
  if (!WriteCase(small) || !RunReference({&small}, work) || Status(small.dir, kReference) != "ok") {
    return false;
  }
  int compared = 0;
  return !Compare(small, compared, nullptr, kReference).has_value() && compared > 0;
}

}  // namespace

// The ops with a recipe whose newest ai.onnx version came in opset `version` or later.
std::vector<std::string> OpsSince(int version) {
  std::vector<std::string> ops;
  for (const std::string& op : RecipeOps()) {
    const onnx::OpSchema* schema =
        onnx::OpSchemaRegistry::Schema(op, graphgc::kNewestOnnxOpset, "");
    if (schema != nullptr && schema->SinceVersion() >= version) ops.push_back(op);
  }
  return ops;
}

namespace {

uint64_t GraphSeed(uint64_t seed, uint64_t index) { return seed * 1000003 + index; }

int Run(uint64_t seed, int count, std::optional<uint64_t> only, const std::vector<std::string>& ops,
        const fs::path& work) {
  Totals totals;
  uint64_t next = 0;
  const uint64_t limit = only.has_value() ? 1 : static_cast<uint64_t>(count) * 4;
  while (totals.ran < count && next < limit) {
    std::vector<Case> cases;
    for (int i = 0; i < count - totals.ran && next < limit; ++i, ++next) {
      Case c;
      c.seed = only.value_or(GraphSeed(seed, next));
      c.plan = GeneratePlan(c.seed, ops);
      c.dir = work / absl::StrCat("graph_", c.seed);
      if (c.plan.steps.empty() || !WriteCase(c)) {
        ++totals.invalid;
        continue;
      }
      cases.push_back(std::move(c));
    }
    std::vector<const Case*> pointers;
    for (const Case& c : cases) pointers.push_back(&c);
    if (!pointers.empty() && !RunOrt(pointers, work)) {
      std::printf("ort_difftest: ONNX Runtime could not be run (node, onnxruntime-node)\n");
      return 2;
    }
    // ONNX's reference evaluator is asked where ONNX Runtime did not run a graph (no kernel, a
    // type it lacks, a refusal, a crash) and where it disagrees with graphgc.
    std::vector<const Case*> second_opinion;
    std::map<const Case*, std::optional<Mismatch>> ort_verdicts;
    for (const Case& c : cases) {
      if (Status(c.dir) != "ok") {
        second_opinion.push_back(&c);
        continue;
      }
      int compared = 0;
      std::optional<Mismatch> mismatch = Compare(c, compared);
      if (mismatch.has_value() && !mismatch->ort_contradicts_onnx) second_opinion.push_back(&c);
      ort_verdicts[&c] = std::move(mismatch);
    }
    const bool reference = RunReference(second_opinion, work);
    for (const Case& c : cases) {
      const std::string status = Status(c.dir);
      const bool ort_ran = status == "ok";
      const std::optional<std::string> blind_spot = BlindSpotOf(c.plan);
      const bool reference_ran =
          reference && !blind_spot.has_value() && Status(c.dir, kReference) == "ok";
      if (!ort_ran && !reference_ran) {
        // Neither oracle runs it (or the reference cannot judge it): nothing to compare with.
        ++totals.not_run;
        ++totals
              .refusals[blind_spot.has_value()
                            ? absl::StrCat(Grouped(status),
                                           "; ONNX's reference evaluator is no "
                                           "oracle for ",
                                           *blind_spot, ": ", ReferenceBlindSpots().at(*blind_spot))
                            : Grouped(status)];
        continue;
      }
      const std::optional<Mismatch>& ort_mismatch = ort_verdicts[&c];
      if (ort_ran && ort_mismatch.has_value() && ort_mismatch->ort_contradicts_onnx) {
        ++totals.not_run;
        ++totals.refusals[absl::StrCat(
            "ONNX Runtime's output shape contradicts ONNX's inference: ",
            c.plan.steps[static_cast<size_t>(ort_mismatch->step)].op_type)];
        continue;
      }
      // The oracle this graph is judged by: ONNX Runtime, unless it did not run the graph or
      // disagrees with graphgc, where ONNX's reference evaluator has the last word.
      const bool by_reference = !ort_ran || (ort_mismatch.has_value() && reference_ran);
      const Oracle& oracle = by_reference ? kReference : kOrt;
      std::map<std::string, OpCounts> counts;
      int compared = 0;
      std::optional<Mismatch> mismatch = Compare(c, compared, &counts, oracle);
      ++totals.ran;
      if (!ort_ran) ++totals.by_reference;
      if (ort_ran && by_reference && !mismatch.has_value()) {
        ++totals.ort_overruled;
        std::printf(
            "ONNX Runtime disagrees, ONNX's reference evaluator agrees with graphgc: graph "
            "seed %llu: %s\n",
            static_cast<unsigned long long>(c.seed), ort_mismatch->why.c_str());
      }
      totals.compared += compared;
      if (compared == 0 && !mismatch.has_value()) ++totals.graphs_without_values;
      for (const auto& [op, n] : counts) {
        totals.ops[op].compared += n.compared;
        totals.ops[op].no_value += n.no_value;
      }
      if (!mismatch.has_value()) continue;
      if (!by_reference && ReferenceClearsTheStep(c, *mismatch, work)) {
        // ONNX Runtime's verdict, where the reference could not judge the whole graph.
        ++totals.ort_overruled;
        std::printf(
            "ONNX Runtime disagrees, ONNX's reference evaluator agrees with graphgc on "
            "the step alone (the steps after it are not compared): graph seed %llu: %s\n",
            static_cast<unsigned long long>(c.seed), mismatch->why.c_str());
        continue;
      }
      ++totals.mismatched_graphs;
      if (ort_ran && by_reference) {
        std::printf("ONNX Runtime disagrees with graphgc too (%s)\n", ort_mismatch->why.c_str());
      }
      Report(c, *mismatch, ops, work, oracle);
    }
  }
  for (const auto& [why, times] : totals.refusals) {
    std::printf("not run by ONNX Runtime (%d): %s\n", times, why.c_str());
  }
  // Per op, so that an op whose outputs never get a value (no kernel yet, or always declined)
  // shows as not covered rather than passing.
  std::printf("outputs compared (without a value) per op:");
  int column = 0;
  for (const auto& [op, n] : totals.ops) {
    std::printf("%s%s %d (%d)", column++ % 6 == 0 ? "\n  " : ", ", op.c_str(), n.compared,
                n.no_value);
  }
  std::printf("\n");
  std::printf(
      "ort_difftest: seed %llu, %d graphs run (%d of them by ONNX's reference evaluator alone; "
      "%d where it overruled ONNX Runtime; %d not run; %d generated graphs unusable; %d "
      "without any value to compare), %d values compared, %d graphs mismatched\n",
      static_cast<unsigned long long>(seed), totals.ran, totals.by_reference, totals.ort_overruled,
      totals.not_run, totals.invalid, totals.graphs_without_values, totals.compared,
      totals.mismatched_graphs);
  // A graph none of whose outputs had a value compared nothing: skipped, not passed.
  std::printf("%d passed, %d failed, %d skipped\n",
              totals.ran - totals.mismatched_graphs - totals.graphs_without_values,
              totals.mismatched_graphs, totals.graphs_without_values);
  if (!only.has_value() && totals.ran < count) {
    std::printf("ort_difftest: only %d of the %d graphs asked for ran\n", totals.ran, count);
    return 1;
  }
  return totals.mismatched_graphs == 0 ? 0 : 1;
}

}  // namespace
}  // namespace difftest

int main(int argc, char** argv) {
  uint64_t seed = 1;
  int count = 500;
  std::optional<uint64_t> only;
  std::string keep;
  std::vector<std::string> ops;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--seed")
      seed = std::strtoull(argv[i + 1], nullptr, 10);
    else if (flag == "--count")
      count = std::atoi(argv[i + 1]);
    else if (flag == "--graph-seed")
      only = std::strtoull(argv[i + 1], nullptr, 10);
    else if (flag == "--keep")
      keep = argv[i + 1];
    else if (flag == "--ops")
      ops = absl::StrSplit(argv[i + 1], ',', absl::SkipEmpty());
    else if (flag == "--since-opset")
      ops = difftest::OpsSince(std::atoi(argv[i + 1]));
    else {
      std::fprintf(stderr,
                   "usage: ort_difftest [--seed S] [--count N] [--graph-seed X] [--keep DIR] "
                   "[--ops OP,OP...] [--since-opset V]\n");
      return 2;
    }
  }
  namespace fs = std::filesystem;
  fs::path work = keep;
  if (work.empty()) {
    char pattern[] = "/tmp/graphgc-difftest-XXXXXX";
    if (mkdtemp(pattern) == nullptr) return 2;
    work = pattern;
  }
  fs::create_directories(work);
  const int code = difftest::Run(seed, count, only, ops, work);
  if (keep.empty()) fs::remove_all(work);
  return code;
}
