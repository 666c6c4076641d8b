// Shape data against the kernels. While a small int tensor has no value (the Shape of a tensor with
// an unknown dim, and the shape arithmetic on it), inference keeps what it knows of its elements,
// and complete data becomes a value. So every element the data knows must be the element the
// kernels compute once the unknown dims are known. Each case here builds one chain of ops twice
// over: once on arguments with unknown dims, and once for every choice of those dims, where every
// value comes from the kernels. Wherever the first build knows something (a value, an element, a
// dim), each of the others must agree, and must not fail where the first has a value.
//
// The chains cover every op that carries shape data (ONNX's data propagation functions and
// graphgc's native rules) at every opset version, fed from known and from unknown elements.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/types/span.h"
#include "graphgc/graphgc.h"
#include "graphgc/opset/build/node.h"
#include "graphgc/opset/build/op_builder.h"

namespace graphgc {
namespace {

using Dims = std::vector<int64_t>;
constexpr int64_t kUnknown = -1;
constexpr int kNewestOpset = 24;
constexpr int64_t kDimChoices[] = {0, 1, 3, 7};
constexpr int64_t kLargestConstant = int64_t{1} << 12;

// What a chain builds on: the arguments of one build, and constants.
class Sources {
 public:
  // Arguments where a dim is unknown; in a build where every dim is known, a small tensor is a
  // constant of zeros instead, so that the kernels compute every op on it.
  Sources(Graph& graph, const std::vector<Dims>& dims) : graph_(graph) {
    for (size_t i = 0; i < dims.size(); ++i) {
      const bool known =
          std::none_of(dims[i].begin(), dims[i].end(), [](int64_t dim) { return dim == kUnknown; });
      absl::StatusOr<int64_t> count = ElementCount(dims[i]);
      if (known && count.ok() && *count <= kLargestConstant) {
        args_.push_back(graph.constant(Tensor::zeros(DataType::kFloat, dims[i])));
      } else {
        args_.push_back(graph.argument(absl::StrCat("x", i), DataType::kFloat, dims[i]));
      }
    }
  }
  Var shape(int arg) const { return make_node("Shape", {args_[arg]})[0]; }
  Var shape32(int arg) const { return Cast(shape(arg), DataType::kInt32); }
  // The element of argument `arg`'s shape at `dim`, as a one-element 1-D tensor.
  Var dim(int arg, int64_t d) const {
    return make_node("Slice", {shape(arg), i64({d}), i64({d + 1})})[0];
  }
  Var i64(std::vector<int64_t> elements) const {
    return graph_.constant(Tensor::from_vector<int64_t>(elements));
  }
  Var i32(std::vector<int32_t> elements) const {
    return graph_.constant(Tensor::from_vector<int32_t>(elements));
  }
  Var scalar(int64_t element) const { return graph_.constant(Tensor::scalar<int64_t>(element)); }
  Var argument(int arg) const { return args_[arg]; }
  // A [2, 1] int64 tensor of `index` and 0.
  Var indices_2d(int64_t index) const {
    return graph_.constant(Tensor::from_vector<int64_t>({index, 0}, {2, 1}));
  }
  Var float_scalar() const { return graph_.constant(Tensor::scalar<float>(1.5f)); }
  static Var Cast(const Var& v, DataType to) {
    return make_node("Cast", {v}, {{"to", static_cast<int64_t>(to)}})[0];
  }

 private:
  Graph& graph_;
  std::vector<Var> args_;
};

using Chain = std::function<Var(const Sources&)>;

struct Case {
  std::string name;
  std::vector<Dims> args;
  Chain chain;
};

std::string Describe(const Tensor& t) {
  std::vector<int64_t> elements;
  if (t.dtype() == DataType::kInt64) {
    for (int64_t e : t.data<int64_t>()) elements.push_back(e);
  } else if (t.dtype() == DataType::kInt32) {
    for (int32_t e : t.data<int32_t>()) elements.push_back(e);
  } else {
    return absl::StrCat("a tensor of ", DataTypeName(t.dtype()));
  }
  return absl::StrCat(DataTypeName(t.dtype()), " ", ShapeToString(t.shape()), " [",
                      absl::StrJoin(elements, ", "), "]");
}

// Every choice of the unknown dims (kDimChoices each).
std::vector<std::vector<Dims>> Concretes(const std::vector<Dims>& args) {
  std::vector<std::vector<Dims>> out = {args};
  for (size_t a = 0; a < args.size(); ++a) {
    for (size_t d = 0; d < args[a].size(); ++d) {
      if (args[a][d] != kUnknown) continue;
      std::vector<std::vector<Dims>> next;
      for (const std::vector<Dims>& partial : out) {
        for (int64_t choice : kDimChoices) {
          next.push_back(partial);
          next.back()[a][d] = choice;
        }
      }
      out = std::move(next);
    }
  }
  return out;
}

std::string DimsText(const std::vector<Dims>& args) {
  std::vector<std::string> parts;
  for (const Dims& dims : args) parts.push_back(absl::StrCat("[", absl::StrJoin(dims, ","), "]"));
  return absl::StrJoin(parts, " ");
}

class ShapeDataOracle {
 public:
  explicit ShapeDataOracle(const Case& c) : case_(c) {}

  // Whether the symbolic build knew an element (so that the check was not empty).
  bool Check() {
    Graph symbolic_graph;
    Sources symbolic_sources(symbolic_graph, case_.args);
    const Var symbolic = case_.chain(symbolic_sources);
    if (!symbolic.ok()) return false;  // nothing known, nothing to disagree with
    const std::vector<std::optional<int64_t>> elements = KnownElements(symbolic_graph, symbolic);
    bool knew = symbolic.value().has_value();
    for (const std::optional<int64_t>& element : elements) knew = knew || element.has_value();
    for (const std::vector<Dims>& concrete_args : Concretes(case_.args)) {
      Graph graph;
      std::optional<Var> concrete;
      {
        internal::ScopedKernelValuesOnly kernels_only;
        concrete = case_.chain(Sources(graph, concrete_args));
      }
      Compare(symbolic, elements, *concrete, DimsText(concrete_args));
      Graph shortcut_graph;
      CompareWithKernels(case_.chain(Sources(shortcut_graph, concrete_args)), *concrete,
                         absl::StrCat(case_.name, " with arguments ", DimsText(concrete_args)));
    }
    return knew;
  }

  // The same chain built as users build it, where ops that only move elements take complete shape
  // data as their values (ResolvedOp::value_is_shape_data), against the kernels' build.
  static void CompareWithKernels(const Var& built, const Var& kernels, const std::string& where) {
    ASSERT_EQ(built.ok(), kernels.ok())
        << where << ": " << built.status() << " beside the kernels' " << kernels.status();
    if (!built.ok()) return;
    EXPECT_EQ(built.dtype(), kernels.dtype()) << where;
    EXPECT_EQ(built.shape(), kernels.shape()) << where;
    const std::optional<Tensor> value = built.value();
    const std::optional<Tensor> expected = kernels.value();
    ASSERT_EQ(value.has_value(), expected.has_value()) << where << ": a value on one side only";
    if (value.has_value()) {
      EXPECT_TRUE(*value == *expected)
          << where << ": " << Describe(*value) << ", the kernels give " << Describe(*expected);
    }
  }

 private:
  // What the symbolic build knows of each element of a small 1-D int result without a value (of
  // the first kProbed where its length is unknown: data may know more than the shape).
  static std::vector<std::optional<int64_t>> KnownElements(Graph& graph, const Var& v) {
    constexpr int64_t kProbed = 8;
    std::vector<std::optional<int64_t>> known;
    const std::optional<std::vector<int64_t>> shape = v.shape();
    if (v.value().has_value() || (shape.has_value() && shape->size() != 1)) return known;
    const int64_t length = shape.has_value() && (*shape)[0] >= 0 ? (*shape)[0] : kProbed;
    for (int64_t i = 0; i < std::min(length, int64_t{64}); ++i) {
      // Only int64 data becomes a value, so other types are widened first.
      const Var element =
          Sources::Cast(make_node("Gather", {v, graph.constant(Tensor::scalar<int64_t>(i))})[0],
                        DataType::kInt64);
      const std::optional<Tensor> value = element.value();
      known.push_back(value.has_value() ? std::optional<int64_t>(value->data<int64_t>()[0])
                                        : std::nullopt);
    }
    return known;
  }

  void Compare(const Var& symbolic, const std::vector<std::optional<int64_t>>& elements,
               const Var& concrete, const std::string& dims) {
    const std::string where = absl::StrCat(case_.name, " with arguments ", dims);
    const std::optional<Tensor> known = symbolic.value();
    if (!concrete.ok()) {
      EXPECT_FALSE(known.has_value()) << where << ": the op fails (" << concrete.status()
                                      << ") where the unknown build has " << Describe(*known);
      bool any = false;
      for (const auto& e : elements) any = any || e.has_value();
      EXPECT_FALSE(any) << where << ": the op fails (" << concrete.status()
                        << ") where the unknown build knows elements";
      return;
    }
    EXPECT_EQ(symbolic.dtype(), concrete.dtype()) << where;
    const std::optional<Tensor> value = concrete.value();
    if (!value.has_value()) {
      // Arguments without values reach this result: only its shape can be compared.
      EXPECT_FALSE(known.has_value()) << where << ": a value where the kernels have none";
      const std::optional<std::vector<int64_t>> shape = symbolic.shape();
      const std::optional<std::vector<int64_t>> actual = concrete.shape();
      if (shape.has_value() && actual.has_value()) CompareShapes(*shape, *actual, where);
      return;
    }
    if (known.has_value()) {
      EXPECT_TRUE(*known == *value) << where << ": the unknown build has " << Describe(*known)
                                    << ", the kernels give " << Describe(*value);
      return;
    }
    if (const std::optional<std::vector<int64_t>> shape = symbolic.shape()) {
      CompareShapes(*shape, value->shape(), where);
    }
    for (size_t i = 0; i < elements.size(); ++i) {
      if (!elements[i].has_value()) continue;
      if (i >= static_cast<size_t>(value->size()) || value->shape().size() != 1) {
        ADD_FAILURE() << where << ": element " << i << " is known, the kernels give "
                      << Describe(*value);
        continue;
      }
      const int64_t actual = value->dtype() == DataType::kInt64 ? value->data<int64_t>()[i]
                                                                : value->data<int32_t>()[i];
      EXPECT_EQ(*elements[i], actual) << where << ": element " << i << " of " << Describe(*value);
    }
  }

  static void CompareShapes(absl::Span<const int64_t> known, absl::Span<const int64_t> actual,
                            const std::string& where) {
    ASSERT_EQ(known.size(), actual.size()) << where << ": rank";
    for (size_t d = 0; d < known.size(); ++d) {
      if (known[d] >= 0) {
        EXPECT_EQ(known[d], actual[d]) << where << ": dim " << d;
      }
    }
  }

  const Case& case_;
};

// Expects every case to build on its unknown dims (so that its check is not empty), and, with
// `concrete`, for every choice of them too (ops valid at any dims: a failure there is inference
// disagreeing with the kernel).
void ExpectAllBuild(const std::vector<Case>& cases, bool concrete = false) {
  for (const Case& c : cases) {
    std::vector<std::vector<Dims>> builds = {c.args};
    if (concrete) builds = Concretes(c.args);
    for (const std::vector<Dims>& args : builds) {
      Graph graph;
      const Var built = c.chain(Sources(graph, args));
      EXPECT_TRUE(built.ok()) << c.name << " on " << DimsText(args) << ": " << built.status();
    }
  }
}

// Checks every case; returns how many knew an element before the unknown dims were chosen.
int CheckAll(const std::vector<Case>& cases) {
  int knowing = 0;
  for (const Case& c : cases) knowing += ShapeDataOracle(c).Check() ? 1 : 0;
  return knowing;
}

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kPastInt = (int64_t{1} << 32) + 1;

// Rank-4 arguments with one unknown dim at each place, and one with two.
std::vector<std::vector<Dims>> DataArguments() {
  return {{{kUnknown, 5, 2, 9}},
          {{4, kUnknown, 2, 9}},
          {{4, 5, 2, kUnknown}},
          {{kUnknown, 5, kUnknown, 9}}};
}

// An element that is unknown in the symbolic build: the one dim of argument `arg`.
Var UnknownElement(const Sources& s, int arg) { return s.dim(arg, 0); }

std::vector<Case> SliceCases(int version) {
  std::vector<Case> cases;
  const std::vector<int64_t> bounds = {kMin, -5, -1, 0, 1, 3, 5, kMax};
  const std::vector<std::optional<int64_t>> steps = {std::nullopt, 1, 2, -1, -3, kPastInt, kMin};
  const auto slice = [version](const Var& data, const Var& starts, const Var& ends,
                               std::optional<Var> axes, std::optional<Var> step) {
    std::vector<Var> in = {data, starts, ends};
    if (axes.has_value() || step.has_value()) in.push_back(axes.value_or(Var()));
    if (step.has_value()) in.push_back(*step);
    return make_node("Slice", in, {}, {.version = version})[0];
  };
  for (const std::vector<Dims>& args : DataArguments()) {
    for (int64_t start : bounds) {
      for (int64_t end : bounds) {
        for (const std::optional<int64_t>& step : steps) {
          cases.push_back(
              {absl::StrCat("Slice-", version, " [", start, ":", end, ":", step.value_or(0), "]"),
               args, [=](const Sources& s) {
                 std::optional<Var> step_var;
                 if (step.has_value()) step_var = s.i64({*step});
                 return slice(s.shape(0), s.i64({start}), s.i64({end}),
                              step.has_value() ? std::optional<Var>(s.i64({0})) : std::nullopt,
                              step_var);
               }});
        }
      }
      // Bounds, axes and steps the symbolic build does not know.
      std::vector<Dims> more = args;
      more.push_back({kUnknown});
      const int u = static_cast<int>(more.size()) - 1;
      cases.push_back(
          {absl::StrCat("Slice-", version, " [?:", start, "]"), more, [=](const Sources& s) {
             return slice(s.shape(0), UnknownElement(s, u), s.i64({start}), std::nullopt,
                          std::nullopt);
           }});
      cases.push_back(
          {absl::StrCat("Slice-", version, " [", start, ":?]"), more, [=](const Sources& s) {
             return slice(s.shape(0), s.i64({start}), UnknownElement(s, u), std::nullopt,
                          std::nullopt);
           }});
      cases.push_back(
          {absl::StrCat("Slice-", version, " [", start, ":5:?]"), more, [=](const Sources& s) {
             return slice(s.shape(0), s.i64({start}), s.i64({5}), s.i64({0}), UnknownElement(s, u));
           }});
      cases.push_back({absl::StrCat("Slice-", version, " [", start, ":5] on axis ?"), more,
                       [=](const Sources& s) {
                         return slice(s.shape(0), s.i64({start}), s.i64({5}), UnknownElement(s, u),
                                      std::nullopt);
                       }});
      cases.push_back(
          {absl::StrCat("Slice-", version, " int32 [", start, ":-1] on axis -1"), args,
           [=](const Sources& s) {
             const int32_t start32 =
                 static_cast<int32_t>(std::clamp<int64_t>(start, -2147483648LL, 2147483647LL));
             return slice(s.shape32(0), s.i32({start32}), s.i32({-1}), s.i32({-1}), std::nullopt);
           }});
    }
  }
  return cases;
}

TEST(ShapeDataOracleTest, Slice) {
  int knowing = 0;
  for (int version : {10, 11, 13}) knowing += CheckAll(SliceCases(version));
  EXPECT_GE(knowing, 350) << "too few cases knew an element: the check is nearly empty";
}

// Slice before 10 takes its bounds as attributes.
TEST(ShapeDataOracleTest, SliceWithAttributes) {
  std::vector<Case> cases;
  for (const std::vector<Dims>& args : DataArguments()) {
    for (int64_t start : {kMin, -5L, -1L, 0L, 2L, 5L, kMax}) {
      for (int64_t end : {kMin, -2L, 0L, 3L, kMax}) {
        cases.push_back(
            {absl::StrCat("Slice-1 [", start, ":", end, "]"), args, [=](const Sources& s) {
               return make_node(
                   "Slice", {s.shape(0)},
                   {{"starts", std::vector<int64_t>{start}}, {"ends", std::vector<int64_t>{end}}},
                   {.version = 1})[0];
             }});
      }
    }
  }
  CheckAll(cases);
}

TEST(ShapeDataOracleTest, Gather) {
  std::vector<Case> cases;
  const std::vector<int64_t> indices = {-5, -4, -1, 0, 1, 3, 4, kPastInt, 1 - (int64_t{1} << 32)};
  for (int version : {1, 11, 13}) {
    for (const std::vector<Dims>& args : DataArguments()) {
      for (int64_t index : indices) {
        const std::string name = absl::StrCat("Gather-", version, " [", index, "]");
        const auto gather = [version](const Var& data, const Var& index) {
          return make_node("Gather", {data, index}, {}, {.version = version})[0];
        };
        cases.push_back({name + " scalar", args,
                         [=](const Sources& s) { return gather(s.shape(0), s.scalar(index)); }});
        cases.push_back({name + " of 1, 0 and it", args, [=](const Sources& s) {
                           return gather(s.shape(0), s.i64({1, 0, index}));
                         }});
        cases.push_back({name + " int32", args, [=](const Sources& s) {
                           return gather(s.shape32(0), s.i32({static_cast<int32_t>(index), 2}));
                         }});
        cases.push_back({name + " 2-D", args, [=](const Sources& s) {
                           return gather(s.shape(0), s.indices_2d(index));
                         }});
      }
      std::vector<Dims> more = args;
      more.push_back({kUnknown});
      cases.push_back(
          {absl::StrCat("Gather-", version, " [?]"), more, [=](const Sources& s) {
             return make_node("Gather", {s.shape(0), s.dim(1, 0)}, {}, {.version = version})[0];
           }});
    }
  }
  EXPECT_GE(CheckAll(cases), 150) << "too few cases knew an element: the check is nearly empty";
}

TEST(ShapeDataOracleTest, Shape) {
  std::vector<Case> cases;
  for (int version : {1, 13, 15, 19, 21, 23, 24}) {
    for (const std::vector<Dims>& args : DataArguments()) {
      cases.push_back({absl::StrCat("Shape-", version), args, [=](const Sources& s) {
                         return make_node("Shape", {s.argument(0)}, {}, {.version = version})[0];
                       }});
      if (version < 15) continue;
      for (int64_t start : {-6, -4, -1, 0, 1, 3, 4, 6}) {
        for (int64_t end : {-6, -2, 0, 2, 4, 6}) {
          cases.push_back({absl::StrCat("Shape-", version, " [", start, ":", end, "]"), args,
                           [=](const Sources& s) {
                             return make_node("Shape", {s.argument(0)},
                                              {{"start", start}, {"end", end}},
                                              {.version = version})[0];
                           }});
        }
      }
    }
  }
  EXPECT_GE(CheckAll(cases), 900) << "too few cases knew an element: the check is nearly empty";
}

TEST(ShapeDataOracleTest, Size) {
  std::vector<Case> cases;
  for (int version : {1, 13, 19, 21, 23, 24}) {
    for (const std::vector<Dims>& args : DataArguments()) {
      const auto size = [version](const Var& v) {
        return make_node("Size", {v}, {}, {.version = version})[0];
      };
      cases.push_back({absl::StrCat("Size-", version, " of the shape"), args,
                       [=](const Sources& s) { return size(s.shape(0)); }});
      cases.push_back({absl::StrCat("Size-", version, " of the tensor"), args,
                       [=](const Sources& s) { return size(s.argument(0)); }});
      cases.push_back({absl::StrCat("Size-", version, " of a dim"), args,
                       [=](const Sources& s) { return size(s.dim(0, 1)); }});
    }
  }
  EXPECT_GE(CheckAll(cases), 40) << "too few cases knew an element: the check is nearly empty";
}

TEST(ShapeDataOracleTest, ConcatSqueezeUnsqueeze) {
  std::vector<Case> cases;
  for (int version = 4; version <= kNewestOpset; ++version) {
    for (const std::vector<Dims>& args : DataArguments()) {
      cases.push_back({absl::StrCat("Concat-", version), args, [=](const Sources& s) {
                         return make_node("Concat", {s.shape(0), s.i64({2, 3}), s.dim(0, 2)},
                                          {{"axis", int64_t{0}}}, {.version = version})[0];
                       }});
      cases.push_back(
          {absl::StrCat("Concat-", version, " int32 axis -1"), args, [=](const Sources& s) {
             return make_node("Concat", {s.i32({8}), s.shape32(0)}, {{"axis", int64_t{-1}}},
                              {.version = version})[0];
           }});
    }
  }
  for (int version = 1; version <= kNewestOpset; ++version) {
    const auto with_axes = [version](const char* op, const Var& v, const Sources& s) {
      if (version < 13) {
        return make_node(op, {v}, {{"axes", std::vector<int64_t>{0}}}, {.version = version})[0];
      }
      return make_node(op, {v, s.i64({0})}, {}, {.version = version})[0];
    };
    for (const std::vector<Dims>& args : DataArguments()) {
      for (int64_t d = 0; d < 4; ++d) {
        cases.push_back({absl::StrCat("Squeeze-", version, " of dim ", d), args,
                         [=](const Sources& s) { return with_axes("Squeeze", s.dim(0, d), s); }});
        cases.push_back(
            {absl::StrCat("Unsqueeze-", version, " of element ", d), args, [=](const Sources& s) {
               return with_axes("Unsqueeze", make_node("Gather", {s.shape(0), s.scalar(d)})[0], s);
             }});
        cases.push_back({absl::StrCat("Unsqueeze-", version, " of Squeeze of dim ", d), args,
                         [=](const Sources& s) {
                           return with_axes("Unsqueeze", with_axes("Squeeze", s.dim(0, d), s), s);
                         }});
      }
    }
  }
  EXPECT_GE(CheckAll(cases), 800) << "too few cases knew an element: the check is nearly empty";
}

// Casts to every type and back, of dims that some types cannot hold (one per argument, so that
// each argument's element count fits in int64).
TEST(ShapeDataOracleTest, Cast) {
  const int64_t dims[] = {127,
                          128,
                          255,
                          300,
                          65504,
                          70000,
                          (int64_t{1} << 24) + 1,
                          int64_t{3} << 30,
                          (int64_t{1} << 53) + 1};
  const DataType targets[] = {DataType::kInt8,   DataType::kUint8,   DataType::kInt16,
                              DataType::kUint16, DataType::kInt32,   DataType::kUint32,
                              DataType::kInt64,  DataType::kUint64,  DataType::kFloat,
                              DataType::kDouble, DataType::kFloat16, DataType::kBfloat16,
                              DataType::kBool};
  std::vector<Case> cases;
  for (int version : {6, 9, 13, 19, 21, 23, 24}) {
    for (DataType to : targets) {
      for (int64_t dim : dims) {
        cases.push_back({absl::StrCat("Cast-", version, " of ", dim, " to ", DataTypeName(to)),
                         {{kUnknown, dim}},
                         [=](const Sources& s) {
                           const Var cast =
                               make_node("Cast", {s.shape(0)}, {{"to", static_cast<int64_t>(to)}},
                                         {.version = version})[0];
                           return Sources::Cast(cast, DataType::kInt64);
                         }});
      }
    }
  }
  EXPECT_GE(CheckAll(cases), 250) << "too few cases knew an element: the check is nearly empty";
}

// Arithmetic on shapes, past int32 too.
TEST(ShapeDataOracleTest, Arithmetic) {
  std::vector<std::vector<Dims>> all_args = DataArguments();
  all_args.push_back({{kUnknown, 2147483647, int64_t{3} << 30}});
  std::vector<Case> cases;
  for (const char* op : {"Add", "Sub", "Mul", "Div"}) {
    for (int version : {7, 13, 14}) {
      for (const std::vector<Dims>& args : all_args) {
        const auto apply = [op, version](const Var& a, const Var& b) {
          return make_node(op, {a, b}, {}, {.version = version})[0];
        };
        const std::string name = absl::StrCat(op, "-", version);
        cases.push_back({name + " by 2", args,
                         [=](const Sources& s) { return apply(s.shape(0), s.i64({2})); }});
        cases.push_back({name + " with itself", args,
                         [=](const Sources& s) { return apply(s.shape(0), s.shape(0)); }});
        cases.push_back({name + " int32 by 3", args,
                         [=](const Sources& s) { return apply(s.shape32(0), s.i32({3})); }});
        cases.push_back({name + " of two dims", args,
                         [=](const Sources& s) { return apply(s.dim(0, 1), s.dim(0, 0)); }});
      }
    }
  }
  EXPECT_GE(CheckAll(cases), 10) << "too few cases knew an element: the check is nearly empty";
}

// Ops that take a shape computed from shape data: their output shapes must be the kernels'.
TEST(ShapeDataOracleTest, ShapesFromShapeData) {
  std::vector<Case> cases;
  for (const std::vector<Dims>& args : DataArguments()) {
    cases.push_back({"Reshape to [d1*d2, -1]", args, [](const Sources& s) {
                       const Var rows = make_node("Mul", {s.dim(0, 1), s.dim(0, 2)})[0];
                       return make_node("Reshape",
                                        {s.argument(0), make_node("Concat", {rows, s.i64({-1})},
                                                                  {{"axis", int64_t{0}}})[0]})[0];
                     }});
    cases.push_back({"Expand to the shape", args, [](const Sources& s) {
                       return make_node("Expand", {s.float_scalar(), s.shape(0)})[0];
                     }});
    cases.push_back({"ConstantOfShape of the shape", args, [](const Sources& s) {
                       return make_node("ConstantOfShape", {s.shape(0)})[0];
                     }});
    cases.push_back({"Reshape to [0, d3, -1]", args, [](const Sources& s) {
                       const Var target =
                           make_node("Concat", {s.i64({0}), s.dim(0, 3), s.i64({-1})},
                                     {{"axis", int64_t{0}}})[0];
                       return make_node("Reshape", {s.argument(0), target})[0];
                     }});
    cases.push_back(
        {"Reshape to [d1, -1] allowzero 1", args, [](const Sources& s) {
           const Var target =
               make_node("Concat", {s.dim(0, 1), s.i64({-1})}, {{"axis", int64_t{0}}})[0];
           return make_node("Reshape", {s.argument(0), target}, {{"allowzero", int64_t{1}}})[0];
         }});
    cases.push_back({"Tile by the shape", args, [](const Sources& s) {
                       const Var repeats =
                           make_node("Concat", {s.i64({1, 2}), s.dim(0, 0), s.i64({1})},
                                     {{"axis", int64_t{0}}})[0];
                       return make_node("Tile", {s.argument(0), repeats})[0];
                     }});
    cases.push_back({"Pad by a dim", args, [](const Sources& s) {
                       const Var pads =
                           make_node("Concat", {s.i64({0, 1, 0, 0, 0}), s.dim(0, 2), s.i64({0, 0})},
                                     {{"axis", int64_t{0}}})[0];
                       return make_node("Pad", {s.argument(0), pads})[0];
                     }});
    cases.push_back(
        {"Slice of the tensor by a dim", args, [](const Sources& s) {
           return make_node("Slice", {s.argument(0), s.i64({1}), s.dim(0, 2), s.i64({3})})[0];
         }});
    cases.push_back(
        {"TopK by a dim", args, [](const Sources& s) {
           return make_node("TopK", {s.argument(0), s.dim(0, 2)}, {}, {.num_outputs = 2})[0];
         }});
    cases.push_back(
        {"Range to a dim", args, [](const Sources& s) {
           return make_node(
               "Range",
               {s.scalar(0), make_node("Squeeze", {s.dim(0, 3), s.i64({0})})[0], s.scalar(1)})[0];
         }});
  }
  ExpectAllBuild(cases);
  EXPECT_GE(CheckAll(cases), 1) << "too few cases knew an element: the check is nearly empty";
}

// Ops on a tensor with unknown dims: their inferred shapes against the shapes the kernels give
// once the dims are chosen.
TEST(ShapeDataOracleTest, ShapesOfOpsOnTheTensor) {
  using Attributes = std::vector<Attribute>;
  const std::vector<std::pair<std::string, std::function<Var(const Sources&)>>> ops = {
      {"Transpose", [](const Sources& s) { return make_node("Transpose", {s.argument(0)})[0]; }},
      {"Flatten axis 2",
       [](const Sources& s) {
         return make_node("Flatten", {s.argument(0)}, Attributes{{"axis", int64_t{2}}})[0];
       }},
      {"Concat axis -1",
       [](const Sources& s) {
         return make_node("Concat", {s.argument(0), s.argument(0)},
                          Attributes{{"axis", int64_t{-1}}})[0];
       }},
      {"Split axis 1",
       [](const Sources& s) {
         return make_node("Split", {s.argument(0)},
                          Attributes{{"axis", int64_t{1}}, {"num_outputs", int64_t{2}}},
                          {.num_outputs = 2})[1];
       }},
      {"Slice [1:-1:2] on axes 0 and 3",
       [](const Sources& s) {
         return make_node("Slice", {s.argument(0), s.i64({1, -1}), s.i64({-1, kMax}), s.i64({0, 3}),
                                    s.i64({2, -2})})[0];
       }},
      {"Unsqueeze axes [0, 5]",
       [](const Sources& s) {
         return make_node("Unsqueeze", {s.argument(0), s.i64({0, 5})})[0];
       }},
      {"ReduceSum axes [1] keepdims 0",
       [](const Sources& s) {
         return make_node("ReduceSum", {s.argument(0), s.i64({1})},
                          Attributes{{"keepdims", int64_t{0}}})[0];
       }},
      {"MaxPool 2x2 stride 2 ceil",
       [](const Sources& s) {
         return make_node("MaxPool", {s.argument(0)},
                          Attributes{{"kernel_shape", std::vector<int64_t>{1, 1}},
                                     {"strides", std::vector<int64_t>{2, 2}},
                                     {"ceil_mode", int64_t{1}}})[0];
       }},
      {"Pad constant [1,0,2,0, 0,1,0,3]",
       [](const Sources& s) {
         return make_node("Pad", {s.argument(0), s.i64({1, 0, 2, 0, 0, 1, 0, 3})})[0];
       }},
      {"Gather axis 3 by no index",  // any index is out of range for a dim of 0
       [](const Sources& s) {
         return make_node("Gather", {s.argument(0), s.i64({})},
                          Attributes{{"axis", int64_t{3}}})[0];
       }},
      {"Softmax", [](const Sources& s) { return make_node("Softmax", {s.argument(0)})[0]; }},
      {"LayerNormalization axis 2, Mean",
       [](const Sources& s) {
         return make_node("LayerNormalization", {s.argument(0), s.float_scalar()},
                          Attributes{{"axis", int64_t{2}}}, {.num_outputs = 2})[1];
       }},
  };
  std::vector<Case> cases;
  for (const std::vector<Dims>& args : DataArguments()) {
    for (const auto& [name, op] : ops) cases.push_back({name, args, op});
  }
  ExpectAllBuild(cases);
  ExpectAllBuild(cases, /*concrete=*/true);
  CheckAll(cases);
}

}  // namespace
}  // namespace graphgc
