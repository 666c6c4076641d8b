// llm.onnx: a decoder-only transformer shaped like a large language model's export, generated (not
// downloaded) with its weights in external data (llm.onnx.data), written as they are drawn.
//
// Per layer: LayerNormalization (scale stored as float16 behind a Cast), attention with Q, K, V
// and O weights of [width, width] (Q and V stored transposed, [out, in], behind a Transpose as
// exporters write Linear weights) over heads of 64 (Reshape shapes built from Shape/Gather/Concat
// of the symbolic sequence dim "S"), rotary position embedding from sin/cos tables computed from
// Range/Mul/Cos/Sin, a causal mask from Trilu/Where, Softmax; then an MLP of [width, 4 width]
// (stored transposed) and [4 width, width]. Token embedding [vocab, width] by Gather, logits by
// MatMul with its Transpose. Half the weight bytes sit behind a foldable Transpose; the tables and
// the mask fold too. Weights come from a fixed seed: every run writes the same bytes.
#ifndef GRAPHGC_TOOLS_MODEL_GEN_LLM_MODEL_H_
#define GRAPHGC_TOOLS_MODEL_GEN_LLM_MODEL_H_

#include <cstdint>
#include <string>

namespace fold_models {

struct LlmShape {
  int64_t layers = 2;
  int64_t width = 128;         // a multiple of 64 (heads of 64)
  int64_t vocab = 512;         // token ids
  int64_t max_positions = 64;  // rows of the sin/cos tables and the mask

  int64_t weight_bytes() const;  // of every external weight
};

// Writes `dir`/llm.onnx and `dir`/llm.onnx.data; false (with a message on stderr) on failure.
bool WriteLlm(const std::string& dir, const LlmShape& shape);

}  // namespace fold_models

#endif  // GRAPHGC_TOOLS_MODEL_GEN_LLM_MODEL_H_
