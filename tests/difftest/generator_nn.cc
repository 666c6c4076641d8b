// The generator's normalization and resampling recipes: BatchNormalization (inference),
// InstanceNormalization, LRN, LayerNormalization, Resize and GridSample.
//
// Kept to what ONNX defines and ONNX Runtime computes as ONNX does: LRN of 4-D input with an odd
// size; linear and cubic Resize of float only (ONNX Runtime truncates integers, ONNX rounds),
// of 2-D input or 4-D input whose outer two axes keep their size (ONNX Runtime's limits); scales
// that are exact in binary, so that a nearest coordinate lands on the same side of a tie in
// float and in double; GridSample locations on a 1/16 grid for the same reason.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "generator_core.h"

namespace difftest {

using graphgc::Attribute;
using graphgc::DataType;
using graphgc::Shape;
using graphgc::Tensor;

namespace {

int64_t Elements(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

const std::vector<DataType> kFloatOrDouble = {DataType::kFloat, DataType::kFloat,
                                              DataType::kDouble};

}  // namespace

// A float tensor of multiples of 0.5 none of whose runs of `group` elements is constant.
Tensor Generator::SpreadHalves(const Shape& shape, int64_t group) {
  const Tensor halves = RandomTensor(DataType::kFloat, shape, Domain::kHalves);
  std::vector<float> values(halves.data<float>().begin(), halves.data<float>().end());
  for (size_t start = 0; group > 1 && start < values.size(); start += static_cast<size_t>(group)) {
    if (values[start + 1] == values[start]) values[start + 1] += values[start] < 4 ? 0.5f : -0.5f;
  }
  return Tensor::from_vector<float>(std::move(values), shape);
}

void Generator::BatchNormalization() {
  const PoolEntry x = Operand(kFloatOrDouble, true, Domain::kFinite, 2, 4);
  const int64_t channels = x.shape[1];
  std::vector<std::optional<Ref>> inputs = {x.ref};
  for (Domain domain : {Domain::kFinite, Domain::kFinite, Domain::kFinite, Domain::kPositive}) {
    inputs.push_back(FreshLeaf(x.dtype, {channels}, domain));  // scale, B, mean, var
  }
  std::vector<Attribute> attributes;
  if (Chance(0.6)) attributes.push_back({"epsilon", static_cast<float>(Real(1e-5, 0.1))});
  if (Chance(0.3)) attributes.push_back({"momentum", static_cast<float>(Real(0.5, 1))});
  if (Chance(0.3)) attributes.push_back({"training_mode", int64_t{0}});
  TryStep(MakeStep("BatchNormalization", std::move(inputs), std::move(attributes)));
}

// Statistics over groups of a power-of-two size of multiples of 0.5, none constant: the mean and
// the variance are exact in float however computed (ONNX's LayerNormalization body takes
// E[x^2] - E[x]^2, which loses all precision to a float rounding where the variance is small
// against the mean), and the variance is at least 1/64, so that no runtime's rounding of
// x * a + (B - mean * a) (a = scale / sqrt(var + epsilon)) swamps the result.
Shape Generator::PowerOfTwoDims(int rank) {
  Shape dims;
  for (int d = 0; d < rank; ++d) dims.push_back(Pick(std::vector<int64_t>{1, 2, 2, 4}));
  return dims;
}

void Generator::InstanceNormalization() {
  Shape spatial = PowerOfTwoDims(Uniform(1, 2));
  if (Elements(spatial) == 1) spatial[0] = 2;
  const Shape x_shape = Image(Uniform(1, 2), Uniform(1, 3), spatial);
  const Ref x = Leaf(SpreadHalves(x_shape, Elements(spatial)));
  const Ref scale = FreshLeaf(DataType::kFloat, {x_shape[1]}, Domain::kHalves);
  const Ref bias = FreshLeaf(DataType::kFloat, {x_shape[1]}, Domain::kHalves);
  std::vector<Attribute> attributes;
  if (Chance(0.6)) attributes.push_back({"epsilon", static_cast<float>(Real(1e-5, 0.1))});
  TryStep(MakeStep("InstanceNormalization", {x, scale, bias}, std::move(attributes)));
}

void Generator::Lrn() {
  const PoolEntry x = Operand({DataType::kFloat}, true, Domain::kFinite, 4, 4);
  std::vector<Attribute> attributes = {{"size", int64_t{Pick(std::vector<int>{1, 3, 5})}}};
  if (Chance(0.7)) attributes.push_back({"alpha", static_cast<float>(Real(1e-4, 1))});
  if (Chance(0.7)) attributes.push_back({"beta", static_cast<float>(Real(0.5, 1))});
  if (Chance(0.7)) attributes.push_back({"bias", static_cast<float>(Real(1, 2))});
  TryStep(MakeStep("LRN", {x.ref}, std::move(attributes)));
}

// Float only: ONNX computes double input's statistics in stash_type (float; ONNX Runtime has no
// kernel for stash_type double), ONNX Runtime computes them in double.
void Generator::LayerNormalization() {
  Shape normalized = PowerOfTwoDims(Uniform(1, 2));
  if (Elements(normalized) == 1) normalized.back() = 2;
  Shape x_shape = RandomShape(0, 4 - static_cast<int>(normalized.size()));
  const int rank = static_cast<int>(x_shape.size() + normalized.size());
  const int axis = static_cast<int>(x_shape.size());
  x_shape.insert(x_shape.end(), normalized.begin(), normalized.end());
  std::vector<std::optional<Ref>> inputs = {
      Leaf(SpreadHalves(x_shape, Elements(normalized))),
      FreshLeaf(DataType::kFloat, normalized, Domain::kFinite)};
  if (Chance(0.6)) inputs.push_back(FreshLeaf(DataType::kFloat, normalized, Domain::kFinite));
  std::vector<Attribute> attributes = {{"axis", int64_t{axis - (Chance(0.4) ? rank : 0)}}};
  if (Chance(0.6)) attributes.push_back({"epsilon", static_cast<float>(Real(1e-5, 0.1))});
  TryStep(MakeStep("LayerNormalization", std::move(inputs), std::move(attributes), Uniform(1, 3)));
}

void Generator::Resize() {
  const std::string mode = Pick(std::vector<std::string>{"nearest", "linear", "cubic"});
  const bool interpolates = mode != "nearest";
  // Linear and cubic: 2-D, or 4-D resizing only the inner two axes.
  const int rank = interpolates ? Pick(std::vector<int>{2, 4}) : Uniform(1, 4);
  const Shape x_shape = RandomSpatial(rank, 4);
  const bool outer_fixed = interpolates && rank == 4;
  const DataType dtype =
      interpolates
          ? DataType::kFloat
          : Pick(std::vector<DataType>{DataType::kFloat, DataType::kFloat, DataType::kInt32,
                                       DataType::kInt8, DataType::kUint8});
  std::vector<std::string> coordinate_modes = {"half_pixel", "pytorch_half_pixel", "align_corners",
                                               "asymmetric", "tf_crop_and_resize"};
  if (!interpolates) coordinate_modes.push_back("tf_half_pixel_for_nearest");
  const std::string coordinates = Pick(coordinate_modes);
  // Per axis a scale, or an output size (scale out / in). An axis whose size stays has scale 1:
  // ONNX Runtime copies an input whose shape stays, and skips an axis whose scale is 1, where
  // ONNX would still move the samples by the scale or the roi. Where ONNX's reference takes
  // scale * in as the output width (align_corners, pytorch_half_pixel, tf_crop_and_resize)
  // and ONNX Runtime the integer output size, scale * in is an integer.
  const bool width_from_scale = coordinates == "align_corners" ||
                                coordinates == "pytorch_half_pixel" ||
                                coordinates == "tf_crop_and_resize";
  const bool by_sizes = Chance(0.4);
  std::vector<float> scales, roi_start, roi_end;
  std::vector<int64_t> sizes;
  for (int d = 0; d < rank; ++d) {
    const int64_t in = x_shape[static_cast<size_t>(d)];
    float scale = 1.0f;
    int64_t out = in;
    if (!(outer_fixed && d < 2)) {
      if (by_sizes) {
        out = Uniform(1, 6);
        scale = static_cast<float>(out) / static_cast<float>(in);
      } else {
        scale = Pick(std::vector<float>{0.5f, 0.75f, 1.0f, 1.25f, 1.5f, 2.0f, 2.5f, 3.0f});
        if (width_from_scale && scale * in != std::floor(scale * in)) scale = 2.0f;
        out = static_cast<int64_t>(std::floor(scale * in));
      }
      if (out == in) scale = 1.0f;
    }
    scales.push_back(scale);
    sizes.push_back(out);
    const bool whole = out == in || Chance(0.3);
    roi_start.push_back(whole ? 0.0f : Uniform(0, 4) / 8.0f);
    roi_end.push_back(whole ? 1.0f : Uniform(4, 8) / 8.0f);
  }
  std::vector<std::optional<Ref>> inputs = {FreshLeaf(dtype, x_shape, Domain::kFinite)};
  if (coordinates == "tf_crop_and_resize") {
    roi_start.insert(roi_start.end(), roi_end.begin(), roi_end.end());
    inputs.push_back(Leaf(Tensor::from_vector<float>(roi_start, {2 * rank}), true));
  } else {
    inputs.push_back(std::nullopt);
  }
  if (by_sizes) {
    inputs.push_back(std::nullopt);
    inputs.push_back(Int64Constant(sizes));
  } else {
    inputs.push_back(Leaf(Tensor::from_vector<float>(scales, {rank}), true));
  }
  std::vector<Attribute> attributes = {{"mode", mode},
                                       {"coordinate_transformation_mode", coordinates}};
  if (mode == "nearest") {
    attributes.push_back(
        {"nearest_mode", Pick(std::vector<std::string>{"round_prefer_floor", "round_prefer_ceil",
                                                       "floor", "ceil"})});
  }
  if (mode == "cubic") {
    if (Chance(0.5)) attributes.push_back({"cubic_coeff_alpha", -0.5f});
    if (Chance(0.4)) attributes.push_back({"exclude_outside", int64_t{1}});
  }
  if (coordinates == "tf_crop_and_resize" && Chance(0.5))
    attributes.push_back({"extrapolation_value", static_cast<float>(Uniform(-4, 4))});
  TryStep(MakeStep("Resize", std::move(inputs), std::move(attributes)));
}

void Generator::GridSample() {
  const int64_t n = Uniform(1, 2);
  const Ref x =
      FreshLeaf(DataType::kFloat, Image(n, Uniform(1, 2), RandomSpatial(2, 4)), Domain::kFinite);
  const Ref grid = FreshLeaf(DataType::kFloat, {n, Uniform(1, 3), Uniform(1, 3), 2}, Domain::kGrid);
  TryStep(
      MakeStep("GridSample", {x, grid},
               {{"mode", Pick(std::vector<std::string>{"bilinear", "nearest", "bicubic"})},
                {"padding_mode", Pick(std::vector<std::string>{"zeros", "border", "reflection"})},
                {"align_corners", int64_t{Uniform(0, 1)}}}));
}

void Generator::AddNnRecipes(Recipes& recipes) {
  recipes.push_back({"BatchNormalization", [](Generator& g) { g.BatchNormalization(); }});
  recipes.push_back({"InstanceNormalization", [](Generator& g) { g.InstanceNormalization(); }});
  recipes.push_back({"LRN", [](Generator& g) { g.Lrn(); }});
  recipes.push_back({"LayerNormalization", [](Generator& g) { g.LayerNormalization(); }});
  recipes.push_back({"Resize", [](Generator& g) { g.Resize(); }});
  recipes.push_back({"GridSample", [](Generator& g) { g.GridSample(); }});
}

}  // namespace difftest
