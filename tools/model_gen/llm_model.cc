#include "llm_model.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

#include "external_data_file.h"
#include "model_writer.h"

namespace fold_models {
namespace {

using onnx::TensorProto;

constexpr int64_t kHeadSize = 64;

// A float in [2^-14, 65504) as IEEE half bits, the mantissa truncated: the generator's scales are
// near 1, far from half's limits.
uint16_t HalfBits(float value) {
  uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  const uint32_t sign = (bits >> 16) & 0x8000u;
  const int32_t exponent = static_cast<int32_t>((bits >> 23) & 0xffu) - 127 + 15;
  const uint32_t mantissa = (bits & 0x7fffffu) >> 13;
  return static_cast<uint16_t>(sign | (static_cast<uint32_t>(exponent) << 10) | mantissa);
}

class LlmWriter {
 public:
  LlmWriter(ModelWriter& w, ExternalDataFile& data, const LlmShape& shape)
      : w_(w), data_(data), shape_(shape), heads_(shape.width / kHeadSize) {}

  bool Write() {
    w_.AddInput("input_ids", TensorProto::INT64, {1, "S"});
    Tables();
    SequenceShapes();
    const std::string embed = Weight("embed", {shape_.vocab, shape_.width}, 1.0f);
    SetInt(w_.AddNode("Gather", {embed, "input_ids"}, {"hidden0"}), "axis", 0);
    std::string x = "hidden0";
    for (int64_t layer = 0; layer < shape_.layers; ++layer) x = Layer(layer, x);
    const std::string normed = LayerNorm("final", x);
    const std::string unembed = Op("Transpose", {embed}, "unembed");
    w_.AddNode("MatMul", {normed, unembed}, {"logits"});
    w_.AddOutput("logits", TensorProto::FLOAT, {1, "S", shape_.vocab});
    return ok_;
  }

 private:
  std::string Op(const std::string& op_type, const std::vector<std::string>& inputs,
                 const std::string& output) {
    w_.AddNode(op_type, inputs, {output});
    return output;
  }

  // A float weight in the external data, uniform in +-bound.
  std::string Weight(const std::string& name, const std::vector<int64_t>& dims, float bound) {
    TensorProto* tensor = w_.AddInitializer(name, TensorProto::FLOAT, dims);
    int64_t count = 1;
    for (int64_t dim : dims) count *= dim;
    ok_ = ok_ && data_.AppendRandomFloats(*tensor, count, -bound, bound, w_.weights());
    return name;
  }

  // A weight stored [out, in], as exporters write Linear layers, used as its Transpose.
  std::string TransposedWeight(const std::string& name, int64_t in, int64_t out) {
    const std::string stored = Weight(name + "_t", {out, in}, std::sqrt(3.0f / in));
    return Op("Transpose", {stored}, name);
  }

  // Sin/cos tables of rotary position embedding and the causal mask, [max_positions, head] and
  // [max_positions, max_positions]: computed from constants alone, so a fold makes them
  // initializers.
  void Tables() {
    const float positions = static_cast<float>(shape_.max_positions);
    const float head = static_cast<float>(kHeadSize);
    Op("Range",
       {w_.AddFloatScalar("zero", 0.0f), w_.AddFloatScalar("positions", positions),
        w_.AddFloatScalar("one", 1.0f)},
       "position");
    Op("Range", {"zero", w_.AddFloatScalar("head", head), w_.AddFloatScalar("two", 2.0f)},
       "even_index");
    Op("Div", {"even_index", "head"}, "exponent");
    Op("Pow", {w_.AddFloatScalar("rope_base", 10000.0f), "exponent"}, "wavelength");
    Op("Reciprocal", {"wavelength"}, "frequency");
    Op("Unsqueeze", {"position", w_.AddInt64s("axis1", {1}, {1})}, "position_column");
    Op("Mul", {"position_column", "frequency"}, "half_angles");
    SetInt(w_.AddNode("Concat", {"half_angles", "half_angles"}, {"angles"}), "axis", 1);
    Op("Cos", {"angles"}, "cos_table");
    Op("Sin", {"angles"}, "sin_table");

    const std::string square =
        w_.AddInt64s("mask_dims", {2}, {shape_.max_positions, shape_.max_positions});
    SetFloatTensor(w_.AddNode("ConstantOfShape", {square}, {"ones"}), "value", 1.0f);
    SetInt(w_.AddNode("Trilu", {"ones"}, {"lower"}), "upper", 0);
    Op("Equal", {"lower", "zero"}, "future");
    Op("Where", {"future", w_.AddFloatScalar("blocked", -1e9f), "zero"}, "mask_table");
  }

  // The shapes that depend on the sequence length S: a shape subgraph, as exports carry.
  void SequenceShapes() {
    Op("Shape", {"input_ids"}, "ids_shape");
    SetInt(w_.AddNode("Gather", {"ids_shape", w_.AddInt64s("index1", {1}, {1})}, {"sequence"}),
           "axis", 0);
    const std::string axis0 = w_.AddInt64s("axis0", {1}, {0});
    Op("Slice", {"cos_table", axis0, "sequence", axis0}, "cos");
    Op("Slice", {"sin_table", axis0, "sequence", axis0}, "sin");
    SetInt(w_.AddNode("Concat", {"sequence", "sequence"}, {"square"}), "axis", 0);
    Op("Slice",
       {"mask_table", w_.AddInt64s("origin", {2}, {0, 0}), "square",
        w_.AddInt64s("axes01", {2}, {0, 1})},
       "mask");
    const std::string batch = w_.AddInt64s("batch", {1}, {1});
    SetInt(w_.AddNode("Concat",
                      {batch, "sequence", w_.AddInt64s("heads", {1}, {heads_}),
                       w_.AddInt64s("head_size", {1}, {kHeadSize})},
                      {"heads_shape"}),
           "axis", 0);
    SetInt(w_.AddNode("Concat", {batch, "sequence", w_.AddInt64s("width", {1}, {shape_.width})},
                      {"model_shape"}),
           "axis", 0);
  }

  // LayerNormalization whose scale is stored as float16 behind a Cast.
  std::string LayerNorm(const std::string& name, const std::string& input) {
    std::vector<uint16_t> halves(static_cast<size_t>(shape_.width));
    for (uint16_t& half : halves) half = HalfBits(w_.weights().Uniform(0.9f, 1.1f));
    TensorProto* scale16 =
        w_.AddInitializer(name + "_scale16", TensorProto::FLOAT16, {shape_.width});
    scale16->set_raw_data(halves.data(), halves.size() * sizeof(uint16_t));
    SetInt(w_.AddNode("Cast", {name + "_scale16"}, {name + "_scale"}), "to", TensorProto::FLOAT);
    const std::string bias = w_.AddRandomFloats(name + "_bias", {shape_.width}, -0.1f, 0.1f);
    SetInt(w_.AddNode("LayerNormalization", {input, name + "_scale", bias}, {name + "_out"}),
           "axis", -1);
    return name + "_out";
  }

  // [1, S, width] -> [1, heads, S, 64].
  std::string Heads(const std::string& input) {
    const std::string split = Op("Reshape", {input, "heads_shape"}, input + "_heads");
    SetInts(w_.AddNode("Transpose", {split}, {split + "_t"}), "perm", {0, 2, 1, 3});
    return split + "_t";
  }

  // x * cos + rotate_half(x) * sin over the last axis.
  std::string Rotary(const std::string& input) {
    const std::string axis3 = input + "_axis3";
    w_.AddInt64s(axis3, {1}, {3});
    const std::string middle = w_.AddInt64s(input + "_middle", {1}, {kHeadSize / 2});
    Op("Slice", {input, w_.AddInt64s(input + "_start", {1}, {0}), middle, axis3}, input + "_first");
    Op("Slice", {input, middle, w_.AddInt64s(input + "_end", {1}, {kHeadSize}), axis3},
       input + "_second");
    Op("Neg", {input + "_second"}, input + "_negated");
    SetInt(w_.AddNode("Concat", {input + "_negated", input + "_first"}, {input + "_rotated"}),
           "axis", 3);
    Op("Mul", {input, "cos"}, input + "_cos");
    Op("Mul", {input + "_rotated", "sin"}, input + "_sin");
    return Op("Add", {input + "_cos", input + "_sin"}, input + "_rope");
  }

  std::string Layer(int64_t layer, const std::string& x) {
    const std::string p = "layer" + std::to_string(layer) + "_";
    const int64_t width = shape_.width;
    const float bound = std::sqrt(3.0f / width);
    const std::string h = LayerNorm(p + "attention_norm", x);
    const std::string q = Op("MatMul", {h, TransposedWeight(p + "q", width, width)}, p + "query");
    const std::string k = Op("MatMul", {h, Weight(p + "k", {width, width}, bound)}, p + "key");
    const std::string v = Op("MatMul", {h, TransposedWeight(p + "v", width, width)}, p + "value");
    const std::string qh = Rotary(Heads(q));
    const std::string kh = Rotary(Heads(k));
    const std::string vh = Heads(v);
    SetInts(w_.AddNode("Transpose", {kh}, {p + "key_columns"}), "perm", {0, 1, 3, 2});
    Op("MatMul", {qh, p + "key_columns"}, p + "scores");
    Op("Mul", {p + "scores", w_.AddFloatScalar(p + "temperature", 1.0f / std::sqrt(64.0f))},
       p + "scaled");
    Op("Add", {p + "scaled", "mask"}, p + "masked");
    SetInt(w_.AddNode("Softmax", {p + "masked"}, {p + "attention"}), "axis", -1);
    Op("MatMul", {p + "attention", vh}, p + "context");
    SetInts(w_.AddNode("Transpose", {p + "context"}, {p + "context_t"}), "perm", {0, 2, 1, 3});
    Op("Reshape", {p + "context_t", "model_shape"}, p + "merged");
    Op("MatMul", {p + "merged", Weight(p + "o", {width, width}, bound)}, p + "attended");
    const std::string x1 = Op("Add", {x, p + "attended"}, p + "residual");

    const std::string h2 = LayerNorm(p + "mlp_norm", x1);
    Op("MatMul", {h2, TransposedWeight(p + "up", width, 4 * width)}, p + "up_out");
    Op("Relu", {p + "up_out"}, p + "activated");
    Op("MatMul",
       {p + "activated", Weight(p + "down", {4 * width, width}, std::sqrt(3.0f / (4 * width)))},
       p + "down_out");
    return Op("Add", {x1, p + "down_out"}, p + "out");
  }

  ModelWriter& w_;
  ExternalDataFile& data_;
  const LlmShape& shape_;
  const int64_t heads_;
  bool ok_ = true;
};

}  // namespace

int64_t LlmShape::weight_bytes() const {
  return static_cast<int64_t>(sizeof(float)) * (layers * 12 * width * width + vocab * width);
}

bool WriteLlm(const std::string& dir, const LlmShape& shape) {
  if (shape.width <= 0 || shape.width % kHeadSize != 0 || shape.layers < 0 || shape.vocab <= 0 ||
      shape.max_positions <= 0) {
    std::fprintf(stderr, "make_fold_models: --llm needs a width that is a multiple of %lld\n",
                 static_cast<long long>(kHeadSize));
    return false;
  }
  const std::string data_path = (std::filesystem::path(dir) / "llm.onnx.data").string();
  ModelWriter w("llm", 7);
  ExternalDataFile data(data_path, "llm.onnx.data");
  const bool written = LlmWriter(w, data, shape).Write();
  if (!data.Close() || !written) {
    std::fprintf(stderr, "make_fold_models: cannot write %s\n", data_path.c_str());
    return false;
  }
  return SaveCheckedModel(w.model(), (std::filesystem::path(dir) / "llm.onnx").string());
}

}  // namespace fold_models
