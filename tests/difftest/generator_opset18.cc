// The generator's recipes for the ops that opsets 18 to 24 brought: Gelu, Mish, Swish, the
// Bitwise ops, RMSNormalization, GroupNormalization-21, Attention, RotaryEmbedding,
// CenterCropPad, Col2Im and AffineGrid. (Changed versions of older ops, such as Split's
// num_outputs, Pad's axes and wrap and the reductions' axes input, are drawn by those ops' own
// recipes, which build at the newest opset.)
//
// Sizes stay small and values in [-1, 1] (kUnit) where a softmax or a normalization sums them,
// so that float rounding stays within the comparison's tolerance.
#include <algorithm>
#include <string>
#include <vector>

#include "generator_core.h"

namespace difftest {

using graphgc::Attribute;
using graphgc::DataType;
using graphgc::Shape;
using graphgc::Tensor;

namespace {

const std::vector<DataType> kFloatOrDouble = {DataType::kFloat, DataType::kFloat,
                                              DataType::kDouble};

}  // namespace

void Generator::NewActivation(const std::string& op) {
  const PoolEntry x = Operand(SchemaTypes(op, 0), true);
  std::vector<Attribute> attributes;
  if (op == "Gelu" && Chance(0.5)) attributes.push_back({"approximate", std::string("tanh")});
  if (op == "Swish" && Chance(0.6))
    attributes.push_back({"alpha", static_cast<float>(Real(0.2, 2))});
  TryStep(MakeStep(op, {x.ref}, std::move(attributes)));
}

void Generator::Bitwise(const std::string& op) {
  const PoolEntry a = Operand(SchemaTypes(op, 0), true);
  if (op == "BitwiseNot") {
    TryStep(MakeStep(op, {a.ref}));
    return;
  }
  TryStep(MakeStep(op, {a.ref, FreshLeaf(a.dtype, BroadcastPartner(a.shape))}));
}

void Generator::RmsNormalization() {
  const PoolEntry x = Operand(kFloatOrDouble, true, Domain::kUnit, 1, 4);
  const int rank = static_cast<int>(x.shape.size());
  const int axis = Uniform(0, rank - 1);
  // The scale broadcasts to the normalized dims (axis..).
  Shape scale(x.shape.begin() + axis, x.shape.end());
  if (!scale.empty() && Chance(0.3)) scale.erase(scale.begin());
  std::vector<Attribute> attributes = {{"axis", int64_t{Chance(0.3) ? axis - rank : axis}}};
  if (Chance(0.5)) attributes.push_back({"epsilon", static_cast<float>(Real(1e-5, 0.1))});
  TryStep(MakeStep("RMSNormalization", {x.ref, FreshLeaf(x.dtype, scale, Domain::kUnit)},
                   std::move(attributes)));
}

void Generator::GroupNormalization() {
  const int64_t groups = Uniform(1, 3);
  const int64_t channels = groups * Uniform(1, 2);
  const Shape x_shape = Image(Uniform(1, 2), channels, RandomSpatial(Uniform(1, 2), 3));
  const DataType dtype = Pick(kFloatOrDouble);
  const Ref x = FreshLeaf(dtype, x_shape, Domain::kUnit);
  std::vector<Attribute> attributes = {{"num_groups", groups}};
  if (Chance(0.5)) attributes.push_back({"epsilon", static_cast<float>(Real(1e-3, 0.1))});
  TryStep(MakeStep(
      "GroupNormalization",
      {x, FreshLeaf(dtype, {channels}, Domain::kUnit), FreshLeaf(dtype, {channels}, Domain::kUnit)},
      std::move(attributes)));
}

void Generator::Attention() {
  const DataType dtype = Pick(kFloatOrDouble);
  const int64_t batch = Uniform(1, 2), kv_heads = Uniform(1, 2);
  const int64_t q_heads = kv_heads * Uniform(1, 2);  // grouped-query when larger
  const int64_t q_length = Uniform(1, 4), kv_length = Uniform(1, 4);
  const int64_t head = Uniform(1, 4), v_head = Uniform(1, 4);
  std::vector<std::optional<Ref>> inputs = {
      FreshLeaf(dtype, {batch, q_heads, q_length, head}, Domain::kUnit),
      FreshLeaf(dtype, {batch, kv_heads, kv_length, head}, Domain::kUnit),
      FreshLeaf(dtype, {batch, kv_heads, kv_length, v_head}, Domain::kUnit)};
  int64_t past = 0;
  const int mask = Uniform(0, 2);  // none, bool, additive
  const bool with_past = Chance(0.3);
  if (with_past) past = Uniform(1, 2);
  const int64_t total = kv_length + past;
  if (mask == 1) inputs.push_back(FreshLeaf(DataType::kBool, {q_length, total}));
  if (mask == 2) inputs.push_back(FreshLeaf(dtype, {q_length, total}, Domain::kUnit));
  if (with_past) {
    if (mask == 0) inputs.push_back(std::nullopt);
    inputs.push_back(FreshLeaf(dtype, {batch, kv_heads, past, head}, Domain::kUnit));
    inputs.push_back(FreshLeaf(dtype, {batch, kv_heads, past, v_head}, Domain::kUnit));
  }
  std::vector<Attribute> attributes;
  // A bool mask that masks a whole row gives NaN in ONNX's definition and 0 in some runtimes:
  // causal masking only with additive or no masks.
  if (mask != 1 && Chance(0.4)) attributes.push_back({"is_causal", int64_t{1}});
  if (Chance(0.3)) attributes.push_back({"scale", static_cast<float>(Real(0.2, 1))});
  if (Chance(0.2)) attributes.push_back({"softcap", static_cast<float>(Real(1, 5))});
  // The scores output, in each qk_matmul_output_mode (present_key/value come with it).
  const bool with_scores = Chance(0.3);
  if (with_scores) attributes.push_back({"qk_matmul_output_mode", int64_t{Uniform(0, 3)}});
  TryStep(MakeStep("Attention", std::move(inputs), std::move(attributes),
                   with_scores ? 4 : (with_past ? 3 : 1)));
}

void Generator::RotaryEmbedding() {
  const DataType dtype = Pick(kFloatOrDouble);
  const int64_t batch = Uniform(1, 2), heads = Uniform(1, 2), length = Uniform(1, 3);
  const int64_t head = 2 * Uniform(1, 3);
  const int64_t rotary = Chance(0.3) ? 2 * Uniform(1, static_cast<int>(head / 2)) : head;
  const int64_t positions = length + Uniform(0, 2);
  const bool four_d = Chance(0.5);
  const Shape x_shape =
      four_d ? Shape{batch, heads, length, head} : Shape{batch, length, heads * head};
  std::vector<int64_t> ids;
  for (int64_t i = 0; i < batch * length; ++i)
    ids.push_back(Uniform(0, static_cast<int>(positions) - 1));
  std::vector<Attribute> attributes = {{"interleaved", int64_t{Uniform(0, 1)}}};
  if (!four_d) attributes.push_back({"num_heads", heads});
  if (rotary != head || Chance(0.2)) attributes.push_back({"rotary_embedding_dim", rotary});
  TryStep(MakeStep("RotaryEmbedding",
                   {FreshLeaf(dtype, x_shape, Domain::kUnit),
                    FreshLeaf(dtype, {positions, rotary / 2}, Domain::kUnit),
                    FreshLeaf(dtype, {positions, rotary / 2}, Domain::kUnit),
                    Leaf(Tensor::from_vector<int64_t>(ids, {batch, length}), true)},
                   std::move(attributes)));
}

void Generator::CenterCropPad() {
  const PoolEntry x = Operand(SchemaTypes("CenterCropPad", 0), true, Domain::kAny, 1, 3);
  const int rank = static_cast<int>(x.shape.size());
  std::vector<int64_t> axes = Chance(0.5) ? RandomAxes(rank, false) : std::vector<int64_t>{};
  const size_t count = axes.empty() ? static_cast<size_t>(rank) : axes.size();
  std::vector<int64_t> shape;
  for (size_t i = 0; i < count; ++i) shape.push_back(Uniform(0, 5));
  std::vector<Attribute> attributes;
  if (!axes.empty()) attributes.push_back({"axes", axes});
  TryStep(MakeStep("CenterCropPad", {x.ref, Int64Constant(shape)}, std::move(attributes)));
}

void Generator::Col2Im() {
  const int spatial = Uniform(1, 2);
  std::vector<int64_t> image, block, strides, dilations, pads(2 * spatial, 0);
  int64_t positions = 1, block_size = 1;
  for (int d = 0; d < spatial; ++d) {
    image.push_back(Uniform(1, 5));
    block.push_back(Uniform(1, 3));
    strides.push_back(Uniform(1, 2));
    dilations.push_back(Uniform(1, 2));
    pads[d] = Uniform(0, 1);
    pads[d + spatial] = Uniform(0, 1);
    const int64_t span = dilations[d] * (block[d] - 1) + 1;
    const int64_t padded = image[d] + pads[d] + pads[d + spatial];
    if (padded < span) return;
    positions *= (padded - span) / strides[d] + 1;
    block_size *= block[d];
  }
  const int64_t channels = Uniform(1, 2);
  const DataType dtype = Pick(kFloatOrDouble);
  TryStep(MakeStep(
      "Col2Im",
      {FreshLeaf(dtype, {Uniform(1, 2), channels * block_size, positions}, Domain::kHalves),
       Int64Constant(image), Int64Constant(block)},
      {{"dilations", dilations}, {"pads", pads}, {"strides", strides}}));
}

void Generator::AffineGrid() {
  const bool three_d = Chance(0.4);
  const int64_t n = Uniform(1, 2);
  const Shape theta = three_d ? Shape{n, 3, 4} : Shape{n, 2, 3};
  std::vector<int64_t> size = {n, Uniform(1, 2)};
  for (int d = 0; d < (three_d ? 3 : 2); ++d) size.push_back(Uniform(1, 4));
  TryStep(MakeStep("AffineGrid",
                   {FreshLeaf(Pick(kFloatOrDouble), theta, Domain::kHalves), Int64Constant(size)},
                   {{"align_corners", int64_t{Uniform(0, 1)}}}));
}

void Generator::AddOpset18Recipes(Recipes& recipes) {
  for (const char* op : {"Gelu", "Mish", "Swish"}) {
    recipes.push_back({op, [=](Generator& g) { g.NewActivation(op); }});
  }
  for (const char* op : {"BitwiseAnd", "BitwiseOr", "BitwiseXor", "BitwiseNot"}) {
    recipes.push_back({op, [=](Generator& g) { g.Bitwise(op); }});
  }
  recipes.push_back({"RMSNormalization", [](Generator& g) { g.RmsNormalization(); }});
  recipes.push_back({"GroupNormalization", [](Generator& g) { g.GroupNormalization(); }});
  recipes.push_back({"Attention", [](Generator& g) { g.Attention(); }});
  recipes.push_back({"RotaryEmbedding", [](Generator& g) { g.RotaryEmbedding(); }});
  recipes.push_back({"CenterCropPad", [](Generator& g) { g.CenterCropPad(); }});
  recipes.push_back({"Col2Im", [](Generator& g) { g.Col2Im(); }});
  recipes.push_back({"AffineGrid", [](Generator& g) { g.AffineGrid(); }});
}

}  // namespace difftest
