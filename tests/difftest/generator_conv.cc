// The generator's convolution and pooling recipes: Conv and ConvTranspose (1-D and 2-D, groups,
// strides, dilations, pads or auto_pad, with and without bias), MaxPool (ceil_mode, dilations,
// storage_order, the Indices output), AveragePool (count_include_pad), LpPool and the global
// pools.
//
// Inputs and weights are multiples of 0.5 (Domain::kHalves), so that every sum of products is
// exact in float whatever order a runtime adds them in. Kept to windows ONNX Runtime takes: pads
// below the kernel (pooling refuses larger ones), auto_pad SAME without dilations and with a
// stride within the kernel, windows that fit the input, and no empty images for the global pools.
#include <algorithm>
#include <string>
#include <vector>

#include "generator_core.h"

namespace difftest {

using graphgc::Attribute;
using graphgc::DataType;
using graphgc::Shape;

struct Generator::Window {
  std::vector<int64_t> kernel, strides, dilations, pads;  // pads: all begins, then all ends
  std::string auto_pad = "NOTSET";

  // kernel_shape (first), strides, pads or auto_pad, and dilations when asked; each but
  // kernel_shape now and then left to its default when the default gives the same window.
  std::vector<Attribute> Attributes(bool with_dilations, Generator& g) const {
    std::vector<Attribute> attributes = {{"kernel_shape", kernel}};
    auto all_ones = [](const std::vector<int64_t>& v) {
      return std::all_of(v.begin(), v.end(), [](int64_t x) { return x == 1; });
    };
    if (!all_ones(strides) || g.Chance(0.5)) attributes.push_back({"strides", strides});
    if (with_dilations && (!all_ones(dilations) || g.Chance(0.3)))
      attributes.push_back({"dilations", dilations});
    if (auto_pad != "NOTSET") {
      attributes.push_back({"auto_pad", auto_pad});
    } else if (std::any_of(pads.begin(), pads.end(), [](int64_t p) { return p != 0; }) ||
               g.Chance(0.3)) {
      attributes.push_back({"pads", pads});
    }
    return attributes;
  }
};

Generator::Window Generator::RandomWindow(const Shape& spatial, bool dilations,
                                          bool pads_below_kernel) {
  Window w;
  const size_t rank = spatial.size();
  w.pads.assign(2 * rank, 0);
  w.auto_pad = Pick(std::vector<std::string>{"NOTSET", "NOTSET", "NOTSET", "NOTSET", "VALID",
                                             "SAME_UPPER", "SAME_LOWER"});
  const bool same = w.auto_pad != "NOTSET" && w.auto_pad != "VALID";
  for (size_t d = 0; d < rank; ++d) {
    // SAME: no dilation (ONNX Runtime's Conv refuses it) and a stride within the kernel (else
    // ONNX Runtime's pads come out negative). Otherwise the dilated kernel fits the input.
    const int64_t dilation = dilations && !same && Chance(0.3) ? 2 : 1;
    const int64_t widest = same ? 3 : std::min<int64_t>(3, (spatial[d] - 1) / dilation + 1);
    const int64_t k = Uniform(1, static_cast<int>(widest));
    const int64_t stride = same ? Uniform(1, static_cast<int>(k)) : Uniform(1, 3);
    if (w.auto_pad == "NOTSET") {
      const int64_t most = std::min<int64_t>(2, pads_below_kernel ? k - 1 : (k - 1) * dilation);
      w.pads[d] = Uniform(0, static_cast<int>(most));
      w.pads[d + rank] = Uniform(0, static_cast<int>(most));
    }
    w.kernel.push_back(k);
    w.strides.push_back(stride);
    w.dilations.push_back(dilation);
  }
  return w;
}

void Generator::Conv() {
  const int rank = Chance(0.1) ? 3 : Uniform(1, 2);
  const int64_t group = Pick(std::vector<int64_t>{1, 1, 1, 2, 3});
  const int64_t in_per_group = Uniform(1, 2), out_per_group = Uniform(1, 2);
  const Shape spatial = RandomSpatial(rank, rank == 3 ? 3 : 6);
  const Shape x_shape = Image(Chance(0.05) ? 0 : Uniform(1, 2), group * in_per_group, spatial);
  const Window w = RandomWindow(spatial, /*dilations=*/true, /*pads_below_kernel=*/false);
  Shape w_shape = {group * out_per_group, in_per_group};
  w_shape.insert(w_shape.end(), w.kernel.begin(), w.kernel.end());
  std::vector<std::optional<Ref>> inputs = {FreshLeaf(DataType::kFloat, x_shape, Domain::kHalves),
                                            FreshLeaf(DataType::kFloat, w_shape, Domain::kHalves)};
  if (Chance(0.6)) inputs.push_back(FreshLeaf(DataType::kFloat, {w_shape[0]}, Domain::kHalves));
  std::vector<Attribute> attributes = w.Attributes(/*with_dilations=*/true, *this);
  if (Chance(0.3)) attributes.erase(attributes.begin());  // kernel_shape, which W's shape gives
  if (group != 1 || Chance(0.3)) attributes.push_back({"group", group});
  TryStep(MakeStep("Conv", std::move(inputs), std::move(attributes)));
}

void Generator::ConvTranspose() {
  const int rank = Uniform(1, 2);
  const int64_t group = Pick(std::vector<int64_t>{1, 1, 2});
  const int64_t in_per_group = Uniform(1, 2), out_per_group = Uniform(1, 2);
  Shape x_shape = {Uniform(1, 2), group * in_per_group};
  Shape w_shape = {group * in_per_group, out_per_group};
  std::vector<int64_t> kernel, strides, dilations, pads(2 * static_cast<size_t>(rank), 0),
      output_padding, output_shape;
  for (int d = 0; d < rank; ++d) {
    const int64_t in = Uniform(1, 4), k = Uniform(1, 3), stride = Uniform(1, 3);
    const int64_t dilation = Chance(0.2) ? 2 : 1, extra = Uniform(0, static_cast<int>(stride) - 1);
    const int64_t full = stride * (in - 1) + extra + (k - 1) * dilation + 1;
    // Pads below the kernel, leaving at least one output element.
    const int64_t begin = Uniform(0, static_cast<int>(std::min<int64_t>(k - 1, (full - 1) / 2)));
    const int64_t end = Uniform(0, static_cast<int>(std::min<int64_t>(k - 1, (full - 1) / 2)));
    x_shape.push_back(in);
    w_shape.push_back(k);
    kernel.push_back(k);
    strides.push_back(stride);
    dilations.push_back(dilation);
    pads[static_cast<size_t>(d)] = begin;
    pads[static_cast<size_t>(d + rank)] = end;
    output_padding.push_back(extra);
    // output_shape goes without output_padding (ONNX Runtime takes the total padding from it).
    output_shape.push_back(std::max<int64_t>(1, full - extra - begin - end));
  }
  std::vector<std::optional<Ref>> inputs = {FreshLeaf(DataType::kFloat, x_shape, Domain::kHalves),
                                            FreshLeaf(DataType::kFloat, w_shape, Domain::kHalves)};
  if (Chance(0.6)) {
    inputs.push_back(FreshLeaf(DataType::kFloat, {group * out_per_group}, Domain::kHalves));
  }
  std::vector<Attribute> attributes = {{"strides", strides}};
  if (Chance(0.5)) attributes.push_back({"kernel_shape", kernel});
  if (std::count(dilations.begin(), dilations.end(), 1) < rank || Chance(0.5))
    attributes.push_back({"dilations", dilations});
  if (group != 1) attributes.push_back({"group", group});
  const int form = Uniform(0, 3);
  if (form == 0) {  // the output's shape, from which ONNX derives the pads
    attributes.push_back({"output_shape", output_shape});
  } else if (form == 1) {
    attributes.push_back({"auto_pad", std::string("VALID")});
    attributes.push_back({"output_padding", output_padding});
  } else {
    attributes.push_back({"pads", pads});
    attributes.push_back({"output_padding", output_padding});
  }
  TryStep(MakeStep("ConvTranspose", std::move(inputs), std::move(attributes)));
}

void Generator::MaxPool() {
  const int rank = Chance(0.1) ? 3 : Uniform(1, 2);
  const Shape spatial = RandomSpatial(rank, rank == 3 ? 3 : 6);
  const Shape x_shape = Image(Uniform(1, 2), Uniform(1, 3), spatial);
  const Window w = RandomWindow(spatial, /*dilations=*/true, /*pads_below_kernel=*/true);
  const DataType dtype =
      Pick(std::vector<DataType>{DataType::kFloat, DataType::kFloat, DataType::kFloat,
                                 DataType::kDouble, DataType::kInt8, DataType::kUint8});
  std::vector<Attribute> attributes = w.Attributes(/*with_dilations=*/true, *this);
  if (Chance(0.4)) attributes.push_back({"ceil_mode", int64_t{1}});
  const int outputs = Uniform(1, 2);
  if (outputs == 2 && Chance(0.4)) attributes.push_back({"storage_order", int64_t{1}});
  TryStep(MakeStep("MaxPool", {FreshLeaf(dtype, x_shape, Domain::kHalves)}, std::move(attributes),
                   outputs));
}

void Generator::AveragePool() {
  const int rank = Uniform(1, 2);
  const Shape spatial = RandomSpatial(rank, 6);
  const Shape x_shape = Image(Uniform(1, 2), Uniform(1, 3), spatial);
  const Window w = RandomWindow(spatial, /*dilations=*/false, /*pads_below_kernel=*/true);
  std::vector<Attribute> attributes = w.Attributes(/*with_dilations=*/false, *this);
  if (Chance(0.5)) attributes.push_back({"count_include_pad", int64_t{1}});
  if (Chance(0.4)) attributes.push_back({"ceil_mode", int64_t{1}});
  TryStep(MakeStep("AveragePool", {FreshLeaf(DataType::kFloat, x_shape, Domain::kHalves)},
                   std::move(attributes)));
}

void Generator::LpPool() {
  const int rank = Uniform(1, 2);
  const Shape spatial = RandomSpatial(rank, 6);
  const Shape x_shape = Image(Uniform(1, 2), Uniform(1, 3), spatial);
  const Window w = RandomWindow(spatial, /*dilations=*/false, /*pads_below_kernel=*/true);
  std::vector<Attribute> attributes = w.Attributes(/*with_dilations=*/false, *this);
  attributes.push_back({"p", int64_t{Uniform(1, 3)}});
  TryStep(MakeStep("LpPool", {FreshLeaf(DataType::kFloat, x_shape, Domain::kHalves)},
                   std::move(attributes)));
}

// GlobalMaxPool reads earlier outputs too (a max is exact); the averages read fresh leaves.
void Generator::GlobalPool(const std::string& op) {
  const bool exact = op == "GlobalMaxPool";
  const PoolEntry x = Operand({DataType::kFloat}, exact, Domain::kHalves, 3, 4);
  if (std::count(x.shape.begin(), x.shape.end(), 0) > 0) return;  // ONNX Runtime refuses it
  std::vector<Attribute> attributes;
  if (op == "GlobalLpPool") attributes.push_back({"p", int64_t{Uniform(1, 3)}});
  TryStep(MakeStep(op, {x.ref}, std::move(attributes)));
}

void Generator::AddConvRecipes(Recipes& recipes) {
  recipes.push_back({"Conv", [](Generator& g) { g.Conv(); }});
  recipes.push_back({"ConvTranspose", [](Generator& g) { g.ConvTranspose(); }});
  recipes.push_back({"MaxPool", [](Generator& g) { g.MaxPool(); }});
  recipes.push_back({"AveragePool", [](Generator& g) { g.AveragePool(); }});
  recipes.push_back({"LpPool", [](Generator& g) { g.LpPool(); }});
  for (const char* op : {"GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool"}) {
    recipes.push_back({op, [=](Generator& g) { g.GlobalPool(op); }});
  }
}

}  // namespace difftest
