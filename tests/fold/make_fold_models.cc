// make_fold_models OUT_DIR [--huge | --budget | --llm=LAYERS,WIDTH]: writes the models
// tests/fold/fold_vs_ort.sh folds with graphgc-fold and then runs, folded and not, in ONNX Runtime:
//   conv_bn_relu.onnx       Conv/BatchNormalization/Relu blocks, Conv+Mul+Add, Gemm+BN, Identity
//                           and Dropout: what the fusions remove.
//   shape_chain.onnx        the shape arithmetic of transformer exports around a MatMul, with a
//                           symbolic batch dim, so some of it folds and some cannot.
//   growth.onnx             Tile/Expand/ConstantOfShape whose results are 1000x their inputs and
//                           meet the input: folding them would grow the model.
//   big_intermediates.onnx  a 2 KB model whose constant intermediates are 64 MB each and reduce to
//                           scalars, and a 64 MB Expand a runtime Gather reads.
// With --huge also huge.onnx, whose > 2 GB of weights are ONNX external data in huge.onnx.data,
// written as they are generated. With --budget also budget.onnx, a 140 KB model whose 128 folded
// weights total 512 MiB. With --llm=LAYERS,WIDTH only llm.onnx and llm.onnx.data, a decoder-only
// transformer of that depth and width (llm_model.h).
// Weights come from fixed seeds: every run writes the same bytes. Every model passes
// onnx::checker::check_model. Exit status 0, or 1 with a message on stderr.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "external_data_file.h"
#include "llm_model.h"
#include "model_writer.h"

namespace fold_models {
namespace {

using onnx::TensorProto;

std::string Path(const std::string& dir, const std::string& file) {
  return (std::filesystem::path(dir) / file).string();
}

// Uniform in +-sqrt(3 / fan_in): activations keep about unit scale through the blocks.
std::string AddConvWeights(ModelWriter& w, const std::string& name,
                           const std::vector<int64_t>& dims) {
  const int64_t fan_in = dims[1] * dims[2] * dims[3];
  const float bound = std::sqrt(3.0f / static_cast<float>(fan_in));
  return w.AddRandomFloats(name, dims, -bound, bound);
}

// BatchNormalization after `input` with `channels` channels; returns its output.
std::string AddBatchNorm(ModelWriter& w, const std::string& prefix, const std::string& input,
                         int64_t channels) {
  const std::string scale = w.AddRandomFloats(prefix + "_scale", {channels}, 0.5f, 1.5f);
  const std::string bias = w.AddRandomFloats(prefix + "_bias", {channels}, -0.2f, 0.2f);
  const std::string mean = w.AddRandomFloats(prefix + "_mean", {channels}, -0.2f, 0.2f);
  const std::string var = w.AddRandomFloats(prefix + "_var", {channels}, 0.5f, 1.5f);
  const std::string output = prefix + "_out";
  w.AddNode("BatchNormalization", {input, scale, bias, mean, var}, {output});
  return output;
}

struct ConvShape {
  int64_t in_channels;
  int64_t out_channels;
  int64_t kernel;
  int64_t stride;
  bool bias;
};

std::string AddConv(ModelWriter& w, const std::string& prefix, const std::string& input,
                    const ConvShape& shape) {
  std::vector<std::string> inputs = {
      input, AddConvWeights(w, prefix + "_w",
                            {shape.out_channels, shape.in_channels, shape.kernel, shape.kernel})};
  if (shape.bias) {
    inputs.push_back(w.AddRandomFloats(prefix + "_b", {shape.out_channels}, -0.1f, 0.1f));
  }
  const std::string output = prefix + "_out";
  onnx::NodeProto& conv = w.AddNode("Conv", inputs, {output});
  const int64_t pad = shape.kernel / 2;
  SetInts(conv, "kernel_shape", {shape.kernel, shape.kernel});
  SetInts(conv, "strides", {shape.stride, shape.stride});
  SetInts(conv, "pads", {pad, pad, pad, pad});
  return output;
}

std::string AddRelu(ModelWriter& w, const std::string& input) {
  w.AddNode("Relu", {input}, {input + "_relu"});
  return input + "_relu";
}

onnx::ModelProto ConvBnRelu() {
  ModelWriter w("conv_bn_relu", 1);
  w.AddInput("x", TensorProto::FLOAT, {1, 3, 32, 32});
  w.AddNode("Identity", {"x"}, {"x_copy"});

  std::string t = AddConv(w, "conv1", "x_copy", {3, 8, 3, 1, true});
  t = AddRelu(w, AddBatchNorm(w, "bn1", t, 8));
  w.AddNode("Dropout", {t}, {"dropped"});

  t = AddConv(w, "conv2", "dropped", {8, 16, 3, 2, false});
  t = AddRelu(w, AddBatchNorm(w, "bn2", t, 16));

  // A per-channel scale and shift written as Mul and Add rather than BatchNormalization.
  t = AddConv(w, "conv3", t, {16, 16, 1, 1, false});
  w.AddNode("Mul", {t, w.AddRandomFloats("conv3_scale", {16, 1, 1}, 0.5f, 1.5f)}, {"scaled"});
  w.AddNode("Add", {"scaled", w.AddRandomFloats("conv3_shift", {16, 1, 1}, -0.2f, 0.2f)},
            {"shifted"});
  t = AddRelu(w, "shifted");
  w.AddNode("Identity", {t}, {"block3"});

  t = AddConv(w, "conv4", "block3", {16, 8, 3, 2, true});
  t = AddRelu(w, AddBatchNorm(w, "bn4", t, 8));
  SetInt(w.AddNode("Flatten", {t}, {"flat"}), "axis", 1);

  const float bound = std::sqrt(3.0f / 512.0f);
  onnx::NodeProto& gemm = w.AddNode("Gemm",
                                    {"flat", w.AddRandomFloats("fc_w", {10, 512}, -bound, bound),
                                     w.AddRandomFloats("fc_b", {10}, -0.1f, 0.1f)},
                                    {"logits"});
  SetInt(gemm, "transB", 1);
  w.AddNode("Identity", {AddBatchNorm(w, "bn_fc", "logits", 10)}, {"y"});
  w.AddOutput("y", TensorProto::FLOAT, {1, 10});
  return w.model();
}

onnx::ModelProto ShapeChain() {
  ModelWriter w("shape_chain", 2);
  w.AddInput("x", TensorProto::FLOAT, {"N", 16, 64});
  const std::string axis0 = w.AddInt64s("axis0", {1}, {0});

  // The weight as exporters often leave it: stored flat and transposed, reshaped at run time.
  w.AddNode(
      "Reshape",
      {w.AddRandomFloats("w_flat", {2048}, -0.2f, 0.2f), w.AddInt64s("w_dims", {2}, {32, 64})},
      {"w_rows"});
  SetInts(w.AddNode("Transpose", {"w_rows"}, {"w"}), "perm", {1, 0});

  // Dims of x: the batch is symbolic, the others are known from the declared shape.
  w.AddNode("Shape", {"x"}, {"x_shape"});
  w.AddNode("Gather", {"x_shape", w.AddInt64s("batch_index", {1}, {0})}, {"batch"});
  w.AddNode("Gather", {"x_shape", w.AddInt64Scalar("seq_index", 1)}, {"seq_scalar"});
  w.AddNode("Unsqueeze", {"seq_scalar", axis0}, {"seq"});
  w.AddNode("Gather", {"x_shape", w.AddInt64s("hidden_index", {1}, {2})}, {"hidden"});
  w.AddNode("Div", {"hidden", w.AddInt64s("heads", {1}, {4})}, {"head_dim"});
  SetInt(w.AddNode("Shape", {"x"}, {"x_tail"}), "start", 1);

  // A mask and position bias made from the known part of the shape.
  SetFloatTensor(w.AddNode("ConstantOfShape", {"x_tail"}, {"mask"}), "value", 0.5f);
  w.AddNode("Add", {"x", "mask"}, {"masked"});
  w.AddNode("Squeeze", {"hidden", axis0}, {"hidden_scalar"});
  w.AddNode("Range", {w.AddInt64Scalar("zero", 0), "hidden_scalar", w.AddInt64Scalar("one", 1)},
            {"positions"});
  SetInt(w.AddNode("Cast", {"positions"}, {"positions_f"}), "to", TensorProto::FLOAT);
  w.AddNode("Mul", {"positions_f", w.AddFloatScalar("position_scale", 0.01f)}, {"position_bias"});
  w.AddNode("Add", {"masked", "position_bias"}, {"x_pos"});

  // Split into heads and back, as attention does, then flatten for the projection.
  SetInt(w.AddNode("Concat", {"batch", "seq", "heads", "head_dim"}, {"heads_shape"}), "axis", 0);
  w.AddNode("Reshape", {"x_pos", "heads_shape"}, {"x_heads"});
  SetInts(w.AddNode("Transpose", {"x_heads"}, {"x_by_head"}), "perm", {0, 2, 1, 3});
  SetInts(w.AddNode("Transpose", {"x_by_head"}, {"x_by_seq"}), "perm", {0, 2, 1, 3});
  w.AddNode("Gather", {"x_tail", w.AddInt64s("last_index", {1}, {1})}, {"tail_hidden"});
  SetInt(w.AddNode("Concat", {w.AddInt64s("minus_one", {1}, {-1}), "tail_hidden"}, {"flat_shape"}),
         "axis", 0);
  w.AddNode("Reshape", {"x_by_seq", "flat_shape"}, {"x_flat"});
  w.AddNode("MatMul", {"x_flat", "w"}, {"projected"});

  // The output width computed in floating point, as exporters of "hidden * ratio" do.
  SetInt(w.AddNode("Cast", {"hidden"}, {"hidden_f"}), "to", TensorProto::FLOAT);
  w.AddNode("Mul", {"hidden_f", w.AddFloatScalar("half", 0.5f)}, {"out_hidden_f"});
  SetInt(w.AddNode("Cast", {"out_hidden_f"}, {"out_hidden"}), "to", TensorProto::INT64);
  SetInt(w.AddNode("Concat", {"batch", "seq", "out_hidden"}, {"y_shape"}), "axis", 0);
  w.AddNode("Reshape", {"projected", "y_shape"}, {"y"});
  w.AddOutput("y", TensorProto::FLOAT, {"N", 16, 32});
  w.AddOutput("y_shape", TensorProto::INT64, {3});
  return w.model();
}

// Each of the three constants is 4 MB made from at most 4 KB, and meets the input.
onnx::ModelProto Growth() {
  constexpr int64_t kSide = 1024;
  ModelWriter w("growth", 3);
  w.AddInput("x", TensorProto::FLOAT, {kSide, kSide});
  const std::string full_shape = w.AddInt64s("full_shape", {2}, {kSide, kSide});

  w.AddNode(
      "Tile",
      {w.AddRandomFloats("row", {1, kSide}, -1.0f, 1.0f), w.AddInt64s("repeats", {2}, {kSide, 1})},
      {"tiled"});
  w.AddNode("Expand", {w.AddRandomFloats("column", {kSide, 1}, 0.5f, 1.5f), full_shape},
            {"expanded"});
  SetFloatTensor(w.AddNode("ConstantOfShape", {full_shape}, {"filled"}), "value", 0.25f);

  w.AddNode("Add", {"x", "tiled"}, {"sum"});
  w.AddNode("Mul", {"sum", "expanded"}, {"product"});
  w.AddNode("Add", {"product", "filled"}, {"y"});
  w.AddOutput("y", TensorProto::FLOAT, {kSide, kSide});
  return w.model();
}

// Reduces a 16M-float constant (64 MB) to a scalar.
void AddReduce(ModelWriter& w, const std::string& op, const std::string& input,
               const std::string& output) {
  SetInt(w.AddNode(op, {input}, {output}), "keepdims", 0);
}

// 16M-float (64 MB) constant intermediates that reduce to scalars the input meets, and one 64 MB
// constant a runtime Gather reads. The values are multiples of 1/4 whose every partial sum is
// exact in float, so the reductions agree whatever order a runtime adds in.
onnx::ModelProto BigIntermediates() {
  constexpr int64_t kCount = int64_t{1} << 24;
  ModelWriter w("big_intermediates", 4);
  w.AddInput("x", TensorProto::FLOAT, {4});
  w.AddInput("rows", TensorProto::INT64, {2});

  SetFloatTensor(w.AddNode("ConstantOfShape", {w.AddInt64s("count_dims", {1}, {kCount})}, {"ones"}),
                 "value", 1.0f);
  AddReduce(w, "ReduceSum", "ones", "count");

  w.AddNode("Tile",
            {w.AddFloats("quarters", {4}, {0.0f, 0.25f, 0.5f, 0.25f}),
             w.AddInt64s("repeats", {1}, {kCount / 4})},
            {"pattern"});
  AddReduce(w, "ReduceSum", "pattern", "pattern_sum");

  w.AddNode("Range",
            {w.AddFloatScalar("start", 0.0f), w.AddFloatScalar("limit", static_cast<float>(kCount)),
             w.AddFloatScalar("step", 1.0f)},
            {"ramp"});
  w.AddNode("Mul", {"ramp", w.AddFloatScalar("half", 0.5f)}, {"half_ramp"});
  w.AddNode("Sub", {"half_ramp", w.AddFloatScalar("three", 3.0f)}, {"shifted"});
  AddReduce(w, "ReduceMax", "shifted", "top");
  AddReduce(w, "ReduceMin", "shifted", "bottom");

  w.AddNode("Div", {"pattern_sum", "count"}, {"scale"});
  w.AddNode("Div", {"top", "count"}, {"top_per_element"});
  w.AddNode("Add", {"top_per_element", "bottom"}, {"offset"});
  w.AddNode("Mul", {"x", "scale"}, {"scaled_x"});
  w.AddNode("Add", {"scaled_x", "offset"}, {"y"});

  w.AddNode("Expand",
            {w.AddRandomFloats("wave_row", {1, 256}, -1.0f, 1.0f),
             w.AddInt64s("wave_dims", {2}, {kCount / 256, 256})},
            {"wave"});
  SetInt(w.AddNode("Gather", {"wave", "rows"}, {"picked"}), "axis", 0);

  w.AddOutput("y", TensorProto::FLOAT, {4});
  w.AddOutput("picked", TensorProto::FLOAT, {2, 256});
  return w.model();
}

// huge.onnx: 8 weights of 19200 x 4096 floats (315 MB each, 2.5 GB in all) in external data, four
// multiplied by the input and four gathered from by an input index, plus a small foldable bias.
bool WriteHuge(const std::string& dir) {
  constexpr int64_t kRows = 19200;
  constexpr int64_t kColumns = 4096;
  constexpr int kWeights = 8;
  ModelWriter w("huge", 5);
  w.AddInput("x", TensorProto::FLOAT, {1, kRows});
  w.AddInput("rows", TensorProto::INT64, {2});

  ExternalDataFile data(Path(dir, "huge.onnx.data"), "huge.onnx.data");
  for (int i = 0; i < kWeights; ++i) {
    const std::string name = "weight" + std::to_string(i);
    TensorProto* weight = w.AddInitializer(name, TensorProto::FLOAT, {kRows, kColumns});
    if (!data.AppendRandomFloats(*weight, kRows * kColumns, -0.05f, 0.05f, w.weights())) {
      std::fprintf(stderr, "make_fold_models: cannot write %s\n",
                   Path(dir, "huge.onnx.data").c_str());
      return false;
    }
    const bool multiplied = i < kWeights / 2;
    if (multiplied) {
      w.AddNode("MatMul", {"x", name}, {name + "_out"});
    } else {
      SetInt(w.AddNode("Gather", {name, "rows"}, {name + "_out"}), "axis", 0);
    }
  }
  if (!data.Close()) {
    std::fprintf(stderr, "make_fold_models: cannot write %s\n",
                 Path(dir, "huge.onnx.data").c_str());
    return false;
  }
  w.AddNode("Add", {"weight0_out", "weight1_out"}, {"product01"});
  w.AddNode("Add", {"weight2_out", "weight3_out"}, {"product23"});
  w.AddNode("Add", {"product01", "product23"}, {"products"});
  w.AddNode("Add", {"weight4_out", "weight5_out"}, {"picked45"});
  w.AddNode("Add", {"weight6_out", "weight7_out"}, {"picked67"});
  w.AddNode("Add", {"picked45", "picked67"}, {"picked"});

  w.AddNode("Add",
            {w.AddRandomFloats("bias_a", {kColumns}, -1.0f, 1.0f),
             w.AddRandomFloats("bias_b", {kColumns}, -1.0f, 1.0f)},
            {"bias_sum"});
  w.AddNode("Mul", {"bias_sum", w.AddFloatScalar("half", 0.5f)}, {"bias"});
  w.AddNode("Add", {"products", "bias"}, {"y"});
  w.AddNode("Add", {"picked", "bias"}, {"z"});
  w.AddOutput("y", TensorProto::FLOAT, {1, kColumns});
  w.AddOutput("z", TensorProto::FLOAT, {2, kColumns});
  return SaveCheckedModel(w.model(), Path(dir, "huge.onnx"));
}

// budget.onnx: y = Sum(x, w_0 .. w_127), each w_i = Tile(row_i, 4096) * scale_i, a float[2^20]
// (4 MiB) weight made from 1 KiB: folded with --fold-anyway, 512 MiB of weights are written from
// a model of 140 KB, more than a small memory budget holds at once.
onnx::ModelProto Budget() {
  constexpr int64_t kWidth = 256;
  constexpr int64_t kRepeats = 4096;
  constexpr int kBranches = 128;
  ModelWriter w("budget", 6);
  w.AddInput("x", TensorProto::FLOAT, {kWidth * kRepeats});
  const std::string repeats = w.AddInt64s("repeats", {1}, {kRepeats});
  std::vector<std::string> terms = {"x"};
  for (int i = 0; i < kBranches; ++i) {
    const std::string branch = "branch" + std::to_string(i);
    const std::string row = w.AddRandomFloats(branch + "_row", {kWidth}, -1.0f, 1.0f);
    w.AddNode("Tile", {row, repeats}, {branch + "_tiled"});
    const std::string scale = w.AddFloatScalar(branch + "_scale", 1.0f + 0.01f * i);
    w.AddNode("Mul", {branch + "_tiled", scale}, {branch + "_weight"});
    terms.push_back(branch + "_weight");
  }
  w.AddNode("Sum", terms, {"y"});
  w.AddOutput("y", TensorProto::FLOAT, {kWidth * kRepeats});
  return w.model();
}

// "--llm=LAYERS,WIDTH" into `shape`; false (with a message) when the text is not two counts.
bool ParseLlm(const char* arg, LlmShape& shape) {
  long long layers = 0, width = 0;
  char rest = 0;
  if (std::sscanf(arg, "--llm=%lld,%lld%c", &layers, &width, &rest) != 2 || layers < 0 ||
      width <= 0) {
    std::fprintf(stderr, "make_fold_models: %s is not --llm=LAYERS,WIDTH\n", arg);
    return false;
  }
  shape.layers = layers;
  shape.width = width;
  return true;
}

int Main(int argc, char** argv) {
  if (argc == 3 && std::strncmp(argv[2], "--llm=", 6) == 0) {
    LlmShape shape;
    return ParseLlm(argv[2], shape) && WriteLlm(argv[1], shape) ? 0 : 1;
  }
  const bool huge = argc == 3 && std::strcmp(argv[2], "--huge") == 0;
  const bool budget = argc == 3 && std::strcmp(argv[2], "--budget") == 0;
  if (argc != 2 && !huge && !budget) {
    std::fprintf(stderr,
                 "usage: make_fold_models OUT_DIR [--huge | --budget | --llm=LAYERS,WIDTH]\n");
    return 1;
  }
  const std::string dir = argv[1];
  std::error_code error;
  if (!std::filesystem::is_directory(dir, error)) {
    std::fprintf(stderr, "make_fold_models: %s is not a folder\n", dir.c_str());
    return 1;
  }
  const bool written = SaveCheckedModel(ConvBnRelu(), Path(dir, "conv_bn_relu.onnx")) &&
                       SaveCheckedModel(ShapeChain(), Path(dir, "shape_chain.onnx")) &&
                       SaveCheckedModel(Growth(), Path(dir, "growth.onnx")) &&
                       SaveCheckedModel(BigIntermediates(), Path(dir, "big_intermediates.onnx")) &&
                       (!huge || WriteHuge(dir)) &&
                       (!budget || SaveCheckedModel(Budget(), Path(dir, "budget.onnx")));
  return written ? 0 : 1;
}

}  // namespace
}  // namespace fold_models

int main(int argc, char** argv) { return fold_models::Main(argc, argv); }
