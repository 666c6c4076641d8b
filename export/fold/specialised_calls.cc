#include "graphgc/export/fold/specialised_calls.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "google/protobuf/io/coded_stream.h"
#include "graphgc/export/fold/function_bodies.h"
#include "graphgc/export/onnx/constant_node_types.h"
#include "graphgc/export/onnx/local_functions.h"
#include "graphgc/export/onnx/node_protos.h"
#include "graphgc/export/onnx/node_visitor.h"
#include "graphgc/valuestore/data_type.h"

namespace graphgc::internal {
namespace {

// The bytes a message takes as an element of a repeated field of `tag_bytes` tag bytes.
int64_t EmbeddedBytes(const google::protobuf::MessageLite& message, int64_t tag_bytes) {
  const size_t size = message.ByteSizeLong();
  return tag_bytes + google::protobuf::io::CodedOutputStream::VarintSize64(size) +
         static_cast<int64_t>(size);
}
constexpr int64_t kNodeTag = 1;         // GraphProto.node = 1, FunctionProto.node = 7
constexpr int64_t kInitializerTag = 1;  // GraphProto.initializer = 5
constexpr int64_t kFunctionTag = 2;     // ModelProto.functions = 25

// What the model's graph reads, by name, with how many reads: nodes' inputs (in bodies too) and
// the graph's outputs.
absl::flat_hash_map<std::string, int64_t> ReadsOf(const onnx::GraphProto& graph) {
  absl::flat_hash_map<std::string, int64_t> reads;
  ForEachNode(graph.node(), [&reads](const onnx::NodeProto& node) {
    for (const std::string& input : node.input()) {
      if (!input.empty()) ++reads[input];
    }
  });
  for (const onnx::ValueInfoProto& output : graph.output()) ++reads[output.name()];
  return reads;
}

// How many calls of each of the model's functions there are: in its graph and in its functions.
std::map<const onnx::FunctionProto*, int64_t> CallsOf(const onnx::ModelProto& model,
                                                      const LocalFunctions& functions) {
  std::map<const onnx::FunctionProto*, int64_t> calls;
  const auto count = [&](const onnx::NodeProto& node) {
    if (const onnx::FunctionProto* called = functions.Find(node)) ++calls[called];
  };
  ForEachNode(model.graph().node(), count);
  for (const onnx::FunctionProto& function : model.functions()) ForEachNode(function.node(), count);
  return calls;
}

// The initializers a call may be specialised on: with their data in the model (not external),
// and not inputs of the graph (which a user may override).
absl::flat_hash_map<std::string, const onnx::TensorProto*> KnownInitializers(
    const onnx::GraphProto& graph) {
  absl::flat_hash_set<std::string> inputs;
  for (const onnx::ValueInfoProto& input : graph.input()) inputs.insert(input.name());
  absl::flat_hash_map<std::string, const onnx::TensorProto*> known;
  for (const onnx::TensorProto& initializer : graph.initializer()) {
    if (initializer.data_location() == onnx::TensorProto::EXTERNAL ||
        inputs.contains(initializer.name())) {
      continue;
    }
    known.emplace(initializer.name(), &initializer);
  }
  return known;
}

int64_t NodesThatCompute(const Nodes& nodes) {
  return std::count_if(nodes.begin(), nodes.end(),
                       [](const onnx::NodeProto& node) { return node.op_type() != "Constant"; });
}

// The calls of one function with one set of known inputs and attributes.
struct CallSet {
  const onnx::FunctionProto* function = nullptr;
  std::vector<int> bound;           // the positions of the known inputs
  std::vector<int> calls;           // indices in the graph's nodes
  onnx::FunctionProto specialised;  // once made
  int64_t function_bytes = 0;       // what the specialised function adds to the model
  int64_t call_growth = 0;          // what the calls add to the graph (less than 0: they shrink)
};

// The known inputs' positions of `call`, and a key of what a specialisation for it depends on.
std::pair<std::vector<int>, std::string> BoundInputs(
    const onnx::NodeProto& call,
    const absl::flat_hash_map<std::string, const onnx::TensorProto*>& known) {
  std::vector<int> bound;
  std::string key;
  for (int i = 0; i < call.input_size(); ++i) {
    if (!known.contains(call.input(i))) continue;
    bound.push_back(i);
    absl::StrAppend(&key, i, "=", call.input(i), ";");
  }
  std::vector<std::string> attributes;
  for (const onnx::AttributeProto& attribute : call.attribute()) {
    attributes.push_back(attribute.SerializeAsString());
  }
  std::sort(attributes.begin(), attributes.end());
  for (const std::string& attribute : attributes)
    absl::StrAppend(&key, attribute.size(), attribute);
  return {std::move(bound), std::move(key)};
}

// The function specialised for `call`: its known inputs Constant nodes, its attributes resolved,
// then folded. nullopt when a known input cannot be a Constant at the function's opset, or when
// the folded body runs no fewer nodes.
std::optional<onnx::FunctionProto> Specialise(
    const onnx::ModelProto& model, const onnx::FunctionProto& function, const onnx::NodeProto& call,
    const std::vector<int>& bound,
    const absl::flat_hash_map<std::string, const onnx::TensorProto*>& known,
    int64_t max_fold_bytes) {
  absl::StatusOr<onnx::GraphProto> body = LocalFunctions::BodyFor(function, call);
  if (!body.ok()) return std::nullopt;
  onnx::FunctionProto specialised;
  specialised.set_domain(function.domain());
  if (function.has_overload()) specialised.set_overload(function.overload());
  *specialised.mutable_opset_import() = function.opset_import();
  int64_t onnx_opset = OnnxOpsetIn(function.opset_import());
  if (onnx_opset == 0) {
    onnx_opset = OnnxOpsetIn(model.opset_import());
    onnx::OperatorSetIdProto* import = specialised.add_opset_import();
    import->set_domain("");
    import->set_version(onnx_opset);
  }
  for (int i = 0; i < function.input_size(); ++i) {
    if (!std::binary_search(bound.begin(), bound.end(), i)) {
      specialised.add_input(function.input(i));
      continue;
    }
    const onnx::TensorProto& value = *known.at(call.input(i));
    if (!IsSupportedDataType(value.data_type()) ||
        !ConstantNodeHolds(static_cast<DataType>(value.data_type()),
                           static_cast<int>(onnx_opset))) {
      return std::nullopt;
    }
    onnx::NodeProto* constant = specialised.add_node();
    constant->set_op_type("Constant");
    constant->add_output(function.input(i));
    onnx::AttributeProto* attribute = constant->add_attribute();
    attribute->set_name("value");
    attribute->set_type(onnx::AttributeProto::TENSOR);
    *attribute->mutable_t() = value;
    attribute->mutable_t()->clear_name();
  }
  *specialised.mutable_output() = function.output();
  for (const onnx::NodeProto& node : body->node()) *specialised.add_node() = node;
  *specialised.mutable_value_info() = body->value_info();
  std::optional<onnx::FunctionProto> folded = FoldFunctionBody(model, specialised, max_fold_bytes);
  if (!folded.has_value() ||
      NodesThatCompute(folded->node()) >= NodesThatCompute(function.node())) {
    return std::nullopt;
  }
  return folded;
}

// `call` as a call of the specialised function: its unknown inputs, no attributes.
onnx::NodeProto SpecialisedCall(const onnx::NodeProto& call, const std::vector<int>& bound,
                                const std::string& name) {
  onnx::NodeProto specialised = call;
  specialised.set_op_type(name);
  specialised.clear_input();
  specialised.clear_attribute();
  for (int i = 0; i < call.input_size(); ++i) {
    if (!std::binary_search(bound.begin(), bound.end(), i)) specialised.add_input(call.input(i));
  }
  return specialised;
}

class Specialiser {
 public:
  Specialiser(onnx::ModelProto& model, const LocalFunctions& functions, int64_t max_fold_bytes)
      : model_(model),
        functions_(functions),
        max_fold_bytes_(max_fold_bytes),
        known_(KnownInitializers(model.graph())),
        reads_(ReadsOf(model.graph())),
        calls_(CallsOf(model, functions)) {}

  SpecialisedCalls Run() {
    // By function, in the order the graph first calls them (the copies' order in the model).
    std::vector<std::pair<const onnx::FunctionProto*, std::vector<CallSet>>> viable;
    for (CallSet& set : CallSets()) {
      if (!Weigh(set)) continue;
      auto same = std::find_if(viable.begin(), viable.end(),
                               [&set](const auto& sets) { return sets.first == set.function; });
      if (same == viable.end()) same = viable.insert(viable.end(), {set.function, {}});
      same->second.push_back(std::move(set));
    }
    for (auto& [function, sets] : viable) Decide(*function, sets);
    if (result_.functions > 0) DropWhatNothingReads();
    return result_;
  }

 private:
  std::vector<CallSet> CallSets() const {
    std::vector<CallSet> sets;
    std::map<std::pair<const onnx::FunctionProto*, std::string>, size_t> by_key;
    const onnx::GraphProto& graph = model_.graph();
    for (int i = 0; i < graph.node_size(); ++i) {
      const onnx::FunctionProto* function = functions_.Find(graph.node(i));
      if (function == nullptr) continue;
      auto [bound, key] = BoundInputs(graph.node(i), known_);
      if (bound.empty()) continue;
      auto [it, added] = by_key.try_emplace({function, std::move(key)}, sets.size());
      if (added) sets.push_back(CallSet{.function = function, .bound = std::move(bound)});
      sets[it->second].calls.push_back(i);
    }
    return sets;
  }

  // Makes the set's specialised function and weighs it; false when it is not worth one.
  bool Weigh(CallSet& set) const {
    const onnx::GraphProto& graph = model_.graph();
    std::optional<onnx::FunctionProto> specialised = Specialise(
        model_, *set.function, graph.node(set.calls[0]), set.bound, known_, max_fold_bytes_);
    if (!specialised.has_value()) return false;
    set.specialised = *std::move(specialised);
    set.specialised.set_name(absl::StrCat(set.function->name(), "_s0"));  // as long as the name
    set.function_bytes = EmbeddedBytes(set.specialised, kFunctionTag);
    for (int index : set.calls) {
      const onnx::NodeProto& call = graph.node(index);
      set.call_growth +=
          EmbeddedBytes(SpecialisedCall(call, set.bound, set.specialised.name()), kNodeTag) -
          EmbeddedBytes(call, kNodeTag);
    }
    return true;
  }

  // The bytes specialising `sets` adds to the model: the functions, the calls, less the
  // initializers only their calls read.
  int64_t Growth(absl::Span<const CallSet* const> sets) const {
    int64_t functions = 0;
    int64_t graph_growth = 0;
    absl::flat_hash_map<std::string, int64_t> shed_reads;
    for (const CallSet* set : sets) {
      functions += set->function_bytes;
      graph_growth += set->call_growth;
      for (int index : set->calls) {
        for (int position : set->bound) ++shed_reads[model_.graph().node(index).input(position)];
      }
    }
    for (const auto& [name, shed] : shed_reads) {
      if (shed == reads_.at(name)) graph_growth -= EmbeddedBytes(*known_.at(name), kInitializerTag);
    }
    // The graph's own length prefix may take a byte or two more when it grows.
    if (graph_growth > 0) graph_growth += 2;
    return functions + graph_growth;
  }

  // Every call of `function` specialised, when together they do not grow the model (the function
  // goes); else each set that does not grow it alone.
  void Decide(const onnx::FunctionProto& function, std::vector<CallSet>& sets) {
    std::vector<const CallSet*> all;
    int64_t calls = 0;
    for (const CallSet& set : sets) {
      all.push_back(&set);
      calls += static_cast<int64_t>(set.calls.size());
    }
    if (calls == calls_.at(&function) && Growth(all) - EmbeddedBytes(function, kFunctionTag) <= 0) {
      for (CallSet& set : sets) Apply(set);
      return;
    }
    for (CallSet& set : sets) {
      const CallSet* alone = &set;
      if (Growth({&alone, 1}) <= 0) Apply(set);
    }
  }

  void Apply(CallSet& set) {
    set.specialised.set_name(FreeName(*set.function));
    onnx::GraphProto& graph = *model_.mutable_graph();
    for (int index : set.calls) {
      onnx::NodeProto& call = *graph.mutable_node(index);
      for (int position : set.bound) shed_.insert(call.input(position));
      call = SpecialisedCall(call, set.bound, set.specialised.name());
    }
    taken_.insert({set.specialised.domain(), set.specialised.name()});
    *model_.add_functions() = std::move(set.specialised);
    result_.calls += static_cast<int64_t>(set.calls.size());
    ++result_.functions;
  }

  // "<name>_s<k>" with the first k free in the function's domain.
  std::string FreeName(const onnx::FunctionProto& function) {
    for (int k = 1;; ++k) {
      std::string name = absl::StrCat(function.name(), "_s", k);
      const bool used =
          taken_.contains({function.domain(), name}) ||
          std::any_of(model_.functions().begin(), model_.functions().end(),
                      [&](const onnx::FunctionProto& other) {
                        return other.domain() == function.domain() && other.name() == name;
                      });
      if (!used) return name;
    }
  }

  // The initializers the specialised calls shed that nothing reads now, with their value_info;
  // the functions no call is left of, until none is.
  void DropWhatNothingReads() {
    onnx::GraphProto& graph = *model_.mutable_graph();
    const absl::flat_hash_map<std::string, int64_t> reads = ReadsOf(graph);
    absl::flat_hash_set<std::string> dropped;
    for (const std::string& name : shed_) {
      if (!reads.contains(name)) dropped.insert(name);
    }
    const auto unread = [&dropped](const auto& named) { return dropped.contains(named.name()); };
    auto* initializers = graph.mutable_initializer();
    initializers->erase(std::remove_if(initializers->begin(), initializers->end(), unread),
                        initializers->end());
    auto* infos = graph.mutable_value_info();
    infos->erase(std::remove_if(infos->begin(), infos->end(), unread), infos->end());
    DropUncalledFunctions(model_);
  }

  static void DropUncalledFunctions(onnx::ModelProto& model) {
    for (bool dropped = true; dropped;) {
      std::set<std::pair<std::string, std::string>> called;
      const auto note = [&called](const onnx::NodeProto& node) {
        called.insert({node.domain(), node.op_type()});
      };
      ForEachNode(model.graph().node(), note);
      for (const onnx::FunctionProto& function : model.functions()) {
        ForEachNode(function.node(), note);
      }
      auto* functions = model.mutable_functions();
      const auto before = functions->size();
      functions->erase(
          std::remove_if(functions->begin(), functions->end(),
                         [&called](const onnx::FunctionProto& function) {
                           return !called.contains({function.domain(), function.name()});
                         }),
          functions->end());
      dropped = functions->size() != before;
    }
  }

  onnx::ModelProto& model_;
  const LocalFunctions& functions_;
  const int64_t max_fold_bytes_;
  const absl::flat_hash_map<std::string, const onnx::TensorProto*> known_;
  const absl::flat_hash_map<std::string, int64_t> reads_;
  const std::map<const onnx::FunctionProto*, int64_t> calls_;
  std::set<std::pair<std::string, std::string>> taken_;
  absl::flat_hash_set<std::string> shed_;
  SpecialisedCalls result_;
};

}  // namespace

SpecialisedCalls SpecialiseCalls(onnx::ModelProto& model, int64_t max_fold_bytes) {
  if (model.functions_size() == 0) return {};
  LocalFunctions::Opsets opsets;
  for (const onnx::OperatorSetIdProto& opset : model.opset_import()) {
    opsets[opset.domain() == "ai.onnx" ? "" : opset.domain()] = static_cast<int>(opset.version());
  }
  absl::StatusOr<LocalFunctions> functions = LocalFunctions::Index(model, opsets);
  if (!functions.ok()) return {};
  return Specialiser(model, *functions, max_fold_bytes).Run();
}

}  // namespace graphgc::internal
