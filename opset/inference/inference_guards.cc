#include "graphgc/opset/inference/inference_guards.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "graphgc/ir/arena.h"
#include "graphgc/ir/limits.h"
#include "graphgc/valuestore/status_macros.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::internal {
namespace {

// kBlockSize: positive, and its square fits in int64 (inference divides by blocksize²).
// kInt32: inference reads it as an int (a flag of 2^32 is off there, on in the kernels).
enum class Rule { kPositive, kBlockSize, kNonNegative, kZeroOrOne, kInt32 };

// string_views, not const char*: every node is checked against every rule, and a length that
// differs rejects a name without reading it.
struct AttributeRule {
  absl::string_view op_type;
  absl::string_view attribute;
  Rule rule;
};

// The op_type of a rule for every ai.onnx op.
constexpr absl::string_view kEveryOp = "*";

// Integer attributes ONNX's inference divides by or indexes with.
constexpr AttributeRule kIntRules[] = {
    // Inference reads `axis` into an int (Gather, Concat, Split, Flatten, the Softmax family...):
    // one past 32 bits was its low bits there, an axis in range, where every runtime fails.
    {kEveryOp, "axis", Rule::kInt32},
    {"DepthToSpace", "blocksize", Rule::kBlockSize},
    {"SpaceToDepth", "blocksize", Rule::kBlockSize},
    {"Conv", "group", Rule::kPositive},
    {"ConvTranspose", "group", Rule::kPositive},
    {"ConvInteger", "group", Rule::kPositive},
    {"QLinearConv", "group", Rule::kPositive},
    {"GatherND", "batch_dims", Rule::kNonNegative},
    {"ReverseSequence", "batch_axis", Rule::kZeroOrOne},
    {"ReverseSequence", "time_axis", Rule::kZeroOrOne},
    {"Gemm", "transA", Rule::kInt32},
    {"Gemm", "transB", Rule::kInt32},
    // ONNX 1.19's Attention-23 inference divides the value's hidden size by kv_num_heads.
    {"Attention", "kv_num_heads", Rule::kBlockSize},
    {"Attention", "q_num_heads", Rule::kBlockSize},
};

// List attributes whose every entry is a divisor or a window size, for every op.
constexpr absl::string_view kPositiveListAttributes[] = {"strides", "dilations", "kernel_shape"};

bool Holds(Rule rule, int64_t value) {
  switch (rule) {
    case Rule::kPositive:
      return value > 0;
    case Rule::kBlockSize:
      return value > 0 && value <= std::numeric_limits<int32_t>::max();
    case Rule::kNonNegative:
      return value >= 0;
    case Rule::kZeroOrOne:
      return value == 0 || value == 1;
    case Rule::kInt32:
      return value >= std::numeric_limits<int32_t>::min() &&
             value <= std::numeric_limits<int32_t>::max();
  }
  return false;
}

const char* Wanted(Rule rule) {
  switch (rule) {
    case Rule::kPositive:
      return "positive";
    case Rule::kBlockSize:
      return "positive and below 2^31";
    case Rule::kNonNegative:
      return "at least 0";
    case Rule::kZeroOrOne:
      return "0 or 1";
    case Rule::kInt32:
      return "within 32 bits";
  }
  return "";
}

const Attribute* Find(absl::Span<const Attribute> attributes, absl::string_view name) {
  for (const Attribute& attribute : attributes) {
    if (attribute.name == name) return &attribute;
  }
  return nullptr;
}

absl::Status CheckIntRules(absl::Span<const AttributeRule* const> rules,
                           absl::Span<const Attribute> attributes) {
  for (const AttributeRule* rule : rules) {
    const Attribute* attribute = Find(attributes, rule->attribute);
    const int64_t* value = attribute ? std::get_if<int64_t>(&attribute->value) : nullptr;
    if (value == nullptr || Holds(rule->rule, *value)) continue;
    return absl::InvalidArgumentError(absl::StrCat("attribute '", rule->attribute, "' is ", *value,
                                                   "; it must be ", Wanted(rule->rule)));
  }
  return absl::OkStatus();
}

absl::Status CheckPositiveLists(absl::Span<const Attribute> attributes) {
  for (absl::string_view name : kPositiveListAttributes) {
    const Attribute* attribute = Find(attributes, name);
    const auto* values = attribute ? std::get_if<std::vector<int64_t>>(&attribute->value) : nullptr;
    if (values == nullptr) continue;
    for (int64_t value : *values) {
      if (value <= 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("attribute '", name, "' has ", value, "; every entry must be positive"));
      }
    }
  }
  return absl::OkStatus();
}

std::optional<size_t> RankOf(absl::Span<const OperandInfo> inputs, size_t index) {
  if (index >= inputs.size() || !inputs[index].present || !inputs[index].shape.has_value()) {
    return std::nullopt;
  }
  return inputs[index].shape->size();
}

// GatherND's inference reads dims [0, batch_dims) of both inputs.
absl::Status CheckGatherNd(absl::Span<const OperandInfo> inputs,
                           absl::Span<const Attribute> attributes) {
  const Attribute* attribute = Find(attributes, "batch_dims");
  const int64_t* batch_dims = attribute ? std::get_if<int64_t>(&attribute->value) : nullptr;
  if (batch_dims == nullptr) return absl::OkStatus();
  for (size_t i = 0; i < 2; ++i) {
    const std::optional<size_t> rank = RankOf(inputs, i);
    if (rank.has_value() && static_cast<uint64_t>(*batch_dims) >= *rank) {
      return absl::InvalidArgumentError(absl::StrCat("attribute 'batch_dims' is ", *batch_dims,
                                                     "; it must be below the rank ", *rank,
                                                     " of input ", i));
    }
  }
  return absl::OkStatus();
}

// PRelu's inference gives X's shape, as the spec says (slope broadcasts to X, one way); a slope
// that would grow X (X [], slope [2]) must be refused, not given X's shape and a larger value.
// Before opset 7 a 1-D slope applies per channel (X's dim 1) of an X of rank 3 or more.
absl::Status CheckPReluSlope(absl::Span<const OperandInfo> inputs, int since_version) {
  if (inputs.size() < 2 || !inputs[0].shape.has_value() || !inputs[1].shape.has_value()) {
    return absl::OkStatus();
  }
  const Shape& x = *inputs[0].shape;
  const Shape& slope = *inputs[1].shape;
  constexpr int kNumpyBroadcastSince = 7;
  if (since_version < kNumpyBroadcastSince && slope.size() == 1 && x.size() >= 3 &&
      (slope[0] == x[1] || slope[0] == -1 || x[1] == -1)) {
    return absl::OkStatus();
  }
  bool fits = slope.size() <= x.size();
  for (size_t i = 1; fits && i <= slope.size(); ++i) {
    const int64_t s = slope[slope.size() - i];
    const int64_t d = x[x.size() - i];
    fits = s == 1 || s == -1 || d == -1 || s == d;
  }
  if (fits) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("input 1 (slope) of shape ", ShapeToString(slope),
                                                 " does not broadcast to input 0 (X) of shape ",
                                                 ShapeToString(x)));
}

// SplitToSequence's inference divides the axis by a scalar `split` unchecked (SIGFPE for 0).
absl::Status CheckScalarSplit(absl::Span<const OperandInfo> inputs) {
  if (inputs.size() < 2 || !inputs[1].present || !inputs[1].value.has_value()) {
    return absl::OkStatus();
  }
  const Tensor& split = *inputs[1].value;
  if (split.rank() != 0 || split.size() != 1) return absl::OkStatus();
  int64_t value = 1;
  if (split.dtype() == DataType::kInt64) value = split.data<int64_t>()[0];
  if (split.dtype() == DataType::kInt32) value = split.data<int32_t>()[0];
  if (value > 0) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("input 1 (split) is the scalar ", value, "; a scalar split must be positive"));
}

// OneHot-9 and 11's inference (ONNX 1.19) reads the first element of a known depth before it
// checks the depth's shape: an empty depth is read past its end (SIGSEGV).
absl::Status CheckOneHotDepth(absl::Span<const OperandInfo> inputs) {
  if (inputs.size() < 2 || !inputs[1].present || !inputs[1].value.has_value()) {
    return absl::OkStatus();
  }
  const int64_t elements = inputs[1].value->size();
  if (elements == 1) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("input 1 (depth) has ", elements, " elements; it must have exactly one"));
}

// Col2Im-18's inference multiplies a known block_shape's entries unchecked (signed overflow) and
// keeps the product in an int it divides by.
absl::Status CheckCol2ImBlock(absl::Span<const OperandInfo> inputs) {
  if (inputs.size() < 3 || !inputs[2].present || !inputs[2].value.has_value()) {
    return absl::OkStatus();
  }
  const Tensor& block = *inputs[2].value;
  if (block.dtype() != DataType::kInt64) return absl::OkStatus();
  constexpr int64_t kLimit = int64_t{1} << 31;
  int64_t product = 1;
  for (int64_t entry : block.data<int64_t>()) {
    if (entry < 1 || entry >= kLimit || (product *= entry) >= kLimit) {
      return absl::InvalidArgumentError(
          absl::StrCat("input 2 (block_shape) has ", entry,
                       "; its entries must be positive and their product below 2^31"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckSplitSizes(absl::Span<const int64_t> sizes) {
  for (int64_t size : sizes) {
    if (size < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("split has the size ", size, "; sizes must be at least 0"));
    }
  }
  return absl::OkStatus();
}

// Split-18's inference sizes its list of parts by the num_outputs attribute (a huge one is a huge
// allocation), then reads one part per output of the node: fewer parts than outputs is a read
// past the list's end. And every version takes a split with a negative size as long as the sizes
// add up (a part larger than the dim beside it); every runtime refuses it.
absl::Status CheckSplitParts(absl::Span<const OperandInfo> inputs,
                             absl::Span<const Attribute> attributes, int num_outputs) {
  const Attribute* attribute = Find(attributes, "num_outputs");
  const int64_t* parts = attribute ? std::get_if<int64_t>(&attribute->value) : nullptr;
  if (parts != nullptr && *parts != num_outputs) {
    return absl::InvalidArgumentError(absl::StrCat("attribute 'num_outputs' is ", *parts,
                                                   " but the node has ", num_outputs, " outputs"));
  }
  if (const Attribute* split = Find(attributes, "split")) {
    if (const auto* sizes = std::get_if<std::vector<int64_t>>(&split->value)) {
      GRAPHGC_RETURN_IF_ERROR(CheckSplitSizes(*sizes));
    }
  }
  if (inputs.size() > 1 && inputs[1].present && inputs[1].value.has_value()) {
    GRAPHGC_RETURN_IF_ERROR(CheckSplitSizes(inputs[1].value->data<int64_t>()));  // int64 only
  }
  return absl::OkStatus();
}

// Checks that input `index` has `rank` (or at least it, with `at_least`) when its rank is known.
absl::Status CheckInputRank(absl::Span<const OperandInfo> inputs, size_t index, size_t rank,
                            bool at_least) {
  const std::optional<size_t> actual = RankOf(inputs, index);
  if (!actual.has_value() || *actual == rank || (at_least && *actual > rank)) {
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "input ", index, " has rank ", *actual, "; it must be ", at_least ? "at least " : "", rank));
}

// The convolutions' inference reads X's and W's spatial dims pairwise, unchecked: X must be
// [N, C, spatial...] and W of the same rank.
absl::Status CheckConvolutionRanks(absl::Span<const OperandInfo> inputs, size_t weight) {
  GRAPHGC_RETURN_IF_ERROR(CheckInputRank(inputs, 0, 3, /*at_least=*/true));
  const std::optional<size_t> x = RankOf(inputs, 0);
  if (!x.has_value()) return absl::OkStatus();
  return CheckInputRank(inputs, weight, *x, /*at_least=*/false);
}

// The recurrent ops' inference reads dims of X [seq, batch, input], W and R unchecked.
absl::Status CheckRecurrentRanks(absl::Span<const OperandInfo> inputs) {
  for (size_t i = 0; i < 3; ++i) {
    GRAPHGC_RETURN_IF_ERROR(CheckInputRank(inputs, i, 3, /*at_least=*/false));
  }
  return absl::OkStatus();
}

// Gemm's inference before opset 11 reads A's and B's dims 0 and 1 unchecked; A and B are
// matrices in every version.
absl::Status CheckGemmRanks(absl::Span<const OperandInfo> inputs) {
  GRAPHGC_RETURN_IF_ERROR(CheckInputRank(inputs, 0, 2, /*at_least=*/false));
  return CheckInputRank(inputs, 1, 2, /*at_least=*/false);
}

// STFT's inference (17) reads the signal's dims 0 to 2 and the window's dim 0 unchecked: the
// ranks the spec gives (signal [batch, length, 1 or 2], window [length]).
absl::Status CheckStftRanks(absl::Span<const OperandInfo> inputs) {
  GRAPHGC_RETURN_IF_ERROR(CheckInputRank(inputs, 0, 3, /*at_least=*/false));
  return CheckInputRank(inputs, 2, 1, /*at_least=*/false);
}

// LayerNormalization's inference (17) indexes X's dims from `axis` unchecked, the default -1 too
// (a scalar X).
absl::Status CheckAxisInRank(absl::Span<const OperandInfo> inputs,
                             absl::Span<const Attribute> attributes, int64_t default_axis) {
  const Attribute* attribute = Find(attributes, "axis");
  const int64_t* given = attribute ? std::get_if<int64_t>(&attribute->value) : nullptr;
  const int64_t* axis = attribute == nullptr ? &default_axis : given;
  const std::optional<size_t> rank = RankOf(inputs, 0);
  if (axis == nullptr || !rank.has_value()) return absl::OkStatus();
  const int64_t r = static_cast<int64_t>(*rank);
  if (*axis >= -r && *axis < r) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("attribute 'axis' is ", *axis, "; it must be in [",
                                                 -r, ", ", r - 1, "] for input 0 of rank ", r));
}

// Einsum's inference parses the equation with no checks (a malformed one frees memory it never
// allocated): letters, ',', one "->", and "..." only as a whole, one term per input.
absl::Status CheckEinsumEquation(absl::Span<const OperandInfo> inputs,
                                 absl::Span<const Attribute> attributes) {
  const Attribute* attribute = Find(attributes, "equation");
  const std::string* equation = attribute ? std::get_if<std::string>(&attribute->value) : nullptr;
  if (equation == nullptr) return absl::OkStatus();
  auto bad = [&](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat("equation '", *equation, "': ", why));
  };
  const size_t arrow = equation->find("->");
  if (arrow != std::string::npos && equation->find("->", arrow + 2) != std::string::npos) {
    return bad("more than one \"->\"");
  }
  size_t terms = 1;
  for (size_t i = 0; i < equation->size(); ++i) {
    const char c = (*equation)[i];
    // Without an output term, ONNX 1.12's inference counts the letters in an array indexed by
    // c - 'a', writing before it for an upper-case letter.
    if (arrow == std::string::npos && std::isupper(static_cast<unsigned char>(c))) {
      return bad(absl::StrCat("upper-case '", std::string(1, c),
                              "' without an output term (\"->\"); give the output term, or use "
                              "lower-case letters"));
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == ' ') continue;
    if (c == ',' && (arrow == std::string::npos || i < arrow)) {
      ++terms;
      continue;
    }
    if ((c == '-' || c == '>') && arrow != std::string::npos && (i == arrow || i == arrow + 1)) {
      continue;
    }
    if (c == '.' && equation->compare(i, 3, "...") == 0) {
      i += 2;
      continue;
    }
    return bad(absl::StrCat("unexpected '", std::string(1, c), "' at ", i));
  }
  if (terms != inputs.size()) {
    return bad(absl::StrCat(terms, " terms for ", inputs.size(), " inputs"));
  }
  return absl::OkStatus();
}

// The ai.onnx.ml ops take a list attribute in one of several types ("One and only one of the
// 'classlabels_*' attributes must be defined"); given two, ONNX's inference and the kernel could
// each pick another, so two are an error.
absl::Status CheckOneOfEachFamily(absl::Span<const Attribute> attributes) {
  for (absl::string_view family : {"classlabels_", "keys_", "values_"}) {
    std::string first;
    for (const Attribute& attribute : attributes) {
      if (!absl::StartsWith(attribute.name, family)) continue;
      if (!first.empty()) {
        return absl::InvalidArgumentError(absl::StrCat("attributes '", first, "' and '",
                                                       attribute.name,
                                                       "' are given; only one of them may be"));
      }
      first = attribute.name;
    }
  }
  return absl::OkStatus();
}

// ONNX's getShapeInput (Reshape, ConstantOfShape, Expand, AffineGrid, Resize's sizes) and Col2Im
// add one output dim per entry of a shape input whose elements are unknown: a declared length of
// billions is billions of allocations. No rank exceeds kMaxRank.
absl::Status CheckShapeInputLengths(absl::Span<const OperandInfo> inputs,
                                    std::initializer_list<size_t> shape_inputs) {
  for (const size_t index : shape_inputs) {
    if (index >= inputs.size() || !inputs[index].present || !inputs[index].shape.has_value()) {
      continue;
    }
    const Shape& shape = *inputs[index].shape;
    if (shape.size() != 1 || shape[0] <= static_cast<int64_t>(kMaxRank)) continue;
    return absl::InvalidArgumentError(absl::StrCat("input ", index, " is a shape of ", shape[0],
                                                   " entries; a rank is at most ", kMaxRank));
  }
  return absl::OkStatus();
}

// Reshape's inference multiplies the target's entries (a 0 as the data's dim there, unless
// allowzero), in order and unchecked, then takes the data's element count modulo the product:
// past int64 the product wraps (undefined), and INT64_MIN % -1 traps (SIGFPE).
absl::Status CheckReshapeProducts(absl::Span<const OperandInfo> inputs,
                                  absl::Span<const Attribute> attributes) {
  if (inputs.size() < 2 || !inputs[1].value.has_value() ||
      inputs[1].value->dtype() != DataType::kInt64) {
    return absl::OkStatus();
  }
  const Attribute* allowzero = Find(attributes, "allowzero");
  const int64_t* allow = allowzero ? std::get_if<int64_t>(&allowzero->value) : nullptr;
  const std::optional<Shape>& data = inputs[0].shape;
  int64_t product = 1;
  const auto entries = inputs[1].value->data<int64_t>();
  for (size_t i = 0; i < entries.size(); ++i) {
    int64_t factor = entries[i] > 0 ? entries[i] : 1;
    if (entries[i] == 0) {
      const bool copies = (allow == nullptr || *allow == 0);
      const bool known = data.has_value() && i < data->size() && (*data)[i] >= 0;
      factor = !copies ? 0 : known ? (*data)[i] : 1;
    }
    if (__builtin_mul_overflow(product, factor, &product)) {
      return absl::InvalidArgumentError(
          "input 1 (shape): the product of its entries is past int64");
    }
  }
  return absl::OkStatus();
}

// MaxRoiPool's inference reads pooled_shape[0] and [1] for any rank of X; X is [N, C, H, W].
// MaxUnpool's reads I's dim 1 unchecked; I has X's shape.
absl::Status CheckUnpoolIndices(absl::Span<const OperandInfo> inputs) {
  const std::optional<size_t> x = RankOf(inputs, 0);
  if (!x.has_value()) return absl::OkStatus();
  return CheckInputRank(inputs, 1, *x, /*at_least=*/false);
}

// TreeEnsemble's tensor attributes are lists; ONNX 1.19's inference reads leaf_weights' dim 0
// unchecked.
absl::Status CheckListTensors(absl::Span<const Attribute> attributes) {
  for (const Attribute& attribute : attributes) {
    const Tensor* tensor = std::get_if<Tensor>(&attribute.value);
    if (tensor == nullptr || tensor->rank() == 1) continue;
    return absl::InvalidArgumentError(absl::StrCat("attribute '", attribute.name, "' has rank ",
                                                   tensor->rank(), "; it must be a 1-D list"));
  }
  return absl::OkStatus();
}

}  // namespace

namespace {

// The guard of one ai.onnx op (the rank, length and value checks above), beside its int rules.
using OpGuard = absl::Status (*)(const onnx::OpSchema& schema, absl::Span<const OperandInfo> inputs,
                                 absl::Span<const Attribute> attributes, int num_outputs);

OpGuard OpGuardOf(absl::string_view name) {
  using Inputs = absl::Span<const OperandInfo>;
  using Attributes = absl::Span<const Attribute>;
  using Schema = const onnx::OpSchema&;
  if (name == "GatherND") {
    return [](Schema, Inputs in, Attributes at, int) { return CheckGatherNd(in, at); };
  }
  if (name == "PRelu") {
    return [](Schema schema, Inputs in, Attributes, int) {
      return CheckPReluSlope(in, schema.since_version());
    };
  }
  if (name == "Conv" || name == "ConvTranspose" || name == "ConvInteger" || name == "DeformConv") {
    return [](Schema, Inputs in, Attributes, int) { return CheckConvolutionRanks(in, 1); };
  }
  if (name == "QLinearConv") {
    return [](Schema, Inputs in, Attributes, int) { return CheckConvolutionRanks(in, 3); };
  }
  if (name == "RNN" || name == "GRU" || name == "LSTM") {
    return [](Schema, Inputs in, Attributes, int) { return CheckRecurrentRanks(in); };
  }
  if (name == "LayerNormalization") {
    return [](Schema, Inputs in, Attributes at, int) { return CheckAxisInRank(in, at, -1); };
  }
  if (name == "Einsum") {
    return [](Schema, Inputs in, Attributes at, int) { return CheckEinsumEquation(in, at); };
  }
  if (name == "SplitToSequence") {
    return [](Schema, Inputs in, Attributes, int) { return CheckScalarSplit(in); };
  }
  if (name == "OneHot") {
    return [](Schema, Inputs in, Attributes, int) { return CheckOneHotDepth(in); };
  }
  if (name == "Split") {
    return [](Schema, Inputs in, Attributes at, int outputs) {
      return CheckSplitParts(in, at, outputs);
    };
  }
  if (name == "STFT") return [](Schema, Inputs in, Attributes, int) { return CheckStftRanks(in); };
  if (name == "Gemm") return [](Schema, Inputs in, Attributes, int) { return CheckGemmRanks(in); };
  if (name == "MaxRoiPool") {
    return [](Schema, Inputs in, Attributes, int) {
      return CheckInputRank(in, 0, 4, /*at_least=*/false);
    };
  }
  if (name == "MaxUnpool") {
    return [](Schema, Inputs in, Attributes, int) { return CheckUnpoolIndices(in); };
  }
  if (name == "Reshape") {
    return [](Schema, Inputs in, Attributes at, int) {
      GRAPHGC_RETURN_IF_ERROR(CheckShapeInputLengths(in, {1}));
      return CheckReshapeProducts(in, at);
    };
  }
  if (name == "ConstantOfShape") {
    return [](Schema, Inputs in, Attributes, int) { return CheckShapeInputLengths(in, {0}); };
  }
  if (name == "Expand" || name == "AffineGrid") {
    return [](Schema, Inputs in, Attributes, int) { return CheckShapeInputLengths(in, {1}); };
  }
  if (name == "Resize") {
    return [](Schema, Inputs in, Attributes, int) { return CheckShapeInputLengths(in, {3}); };
  }
  if (name == "Col2Im") {
    return [](Schema, Inputs in, Attributes, int) {
      GRAPHGC_RETURN_IF_ERROR(CheckShapeInputLengths(in, {1, 2}));
      return CheckCol2ImBlock(in);
    };
  }
  return nullptr;
}

// What an ai.onnx schema is guarded by, found by its name once.
struct SchemaGuards {
  absl::InlinedVector<const AttributeRule*, 2> int_rules;
  OpGuard op_guard = nullptr;
};

SchemaGuards GuardsOfName(absl::string_view name) {
  SchemaGuards guards;
  for (const AttributeRule& rule : kIntRules) {
    if (rule.op_type == name || rule.op_type == kEveryOp) guards.int_rules.push_back(&rule);
  }
  guards.op_guard = OpGuardOf(name);
  return guards;
}

absl::Status CheckOnnxGuards(const onnx::OpSchema& schema, absl::Span<const OperandInfo> inputs,
                             absl::Span<const Attribute> attributes, int num_outputs) {
  // Schemas live as long as the process, so their addresses key the answer (per thread, no
  // lock). Nothing is inserted while the entry is read.
  thread_local absl::flat_hash_map<const onnx::OpSchema*, SchemaGuards> found;
  auto [it, inserted] = found.try_emplace(&schema);
  if (inserted) it->second = GuardsOfName(schema.Name());
  const OpGuard op_guard = it->second.op_guard;
  if (!it->second.int_rules.empty()) {
    GRAPHGC_RETURN_IF_ERROR(CheckIntRules(it->second.int_rules, attributes));
  }
  return op_guard == nullptr ? absl::OkStatus() : op_guard(schema, inputs, attributes, num_outputs);
}

}  // namespace

absl::Status CheckInferenceGuards(const onnx::OpSchema& schema,
                                  absl::Span<const OperandInfo> inputs,
                                  absl::Span<const Attribute> attributes, int num_outputs) {
  if (absl::Status lists = CheckPositiveLists(attributes); !lists.ok()) return lists;
  if (schema.domain() == absl::string_view("ai.onnx.ml")) {
    if (schema.Name() == "TreeEnsemble") return CheckListTensors(attributes);
    return CheckOneOfEachFamily(attributes);
  }
  if (!schema.domain().empty()) return absl::OkStatus();
  return CheckOnnxGuards(schema, inputs, attributes, num_outputs);
}

namespace {

// Whether every element of a present input is known (a value, or data without unknown elements).
bool ElementsKnown(const OperandInfo& input) {
  if (!input.present || input.value.has_value()) return true;
  if (!input.shape_data.has_value()) return true;  // no data: ONNX's function finds none
  return std::find(input.shape_data->begin(), input.shape_data->end(), Arena::kUnknownElement) ==
         input.shape_data->end();
}

bool StepsFitInt(const OperandInfo& steps) {
  if (!steps.value.has_value() || steps.value->dtype() != DataType::kInt64) return true;
  for (const int64_t step : steps.value->data<int64_t>()) {
    if (step < std::numeric_limits<int32_t>::min() || step > std::numeric_limits<int32_t>::max()) {
      return false;
    }
  }
  return true;  // int32 steps fit
}

}  // namespace

bool DataPropagationApplies(const onnx::OpSchema& schema, absl::Span<const OperandInfo> inputs) {
  if (schema.Name() != "Slice" || !schema.domain().empty()) return true;
  constexpr size_t kSteps = 4;
  for (size_t i = 1; i < inputs.size(); ++i) {
    if (!ElementsKnown(inputs[i])) return false;
  }
  return inputs.size() <= kSteps || StepsFitInt(inputs[kSteps]);
}

}  // namespace graphgc::internal
