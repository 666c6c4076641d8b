// A model's own functions in ONNX's text format, for the tests that import them: Layer multiplies
// by a constant [1, -2, 3] and calls Act, a LeakyRelu whose alpha is Layer's (0.1 unless the call
// sets it). Append it to a model's text that imports "local" 1 and ai.onnx 18.
#ifndef GRAPHGC_TESTS_TWO_LEVEL_FUNCTIONS_H_
#define GRAPHGC_TESTS_TWO_LEVEL_FUNCTIONS_H_

namespace graphgc::testing_models {

inline constexpr char kTwoLevelFunctions[] = R"(
  <domain: "local", opset_import: ["" : 18, "local" : 1]>
  Layer <alpha: float = 0.1> (x) => (y) {
    w = Constant <value = float[3] {1, -2, 3}> ()
    h = Mul(x, w)
    y = local.Act <alpha: float = @alpha> (h)
  }
  <domain: "local", opset_import: ["" : 18]>
  Act <alpha> (x) => (y) {
    y = LeakyRelu <alpha: float = @alpha> (x)
  }
)";

}  // namespace graphgc::testing_models

#endif  // GRAPHGC_TESTS_TWO_LEVEL_FUNCTIONS_H_
