// The differential test's generator (generator.h) inside: its state (the plan so far, the same
// plan built on constants to check each step, the pool of typed outputs later steps may read)
// and the helpers its recipes share. The recipes are members defined by concept, one file each:
// generator_elementwise.cc, generator_tensor.cc, generator_conv.cc (convolution and pooling),
// generator_nn.cc (normalization, Resize, GridSample), generator_opset18.cc (the ops opsets 18
// to 24 brought), generator_recurrent.cc (RNN, GRU, LSTM),
// generator_control_flow.cc (Loop and Scan, whose bodies a nested Generator writes).
#ifndef GRAPHGC_TESTS_DIFFTEST_GENERATOR_CORE_H_
#define GRAPHGC_TESTS_DIFFTEST_GENERATOR_CORE_H_

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "graphgc/graphgc.h"
#include "plan.h"

namespace difftest {

// What values a fresh leaf holds.
enum class Domain {
  kAny,       // [-4, 4], now and then NaN or an infinity for floating point
  kFinite,    // [-4, 4]
  kHalves,    // multiples of 0.5 in [-4, 4]: sums and products of a few are exact in float
  kSmall,     // [-2, 2]
  kPositive,  // (0, 4]
  kUnit,      // [-1, 1]
  kOpenUnit,  // (-1, 1)
  kGeOne,     // [1, 5]
  kNonZero,   // [-4, 4] without 0
  kGrid,      // multiples of 1/16 in [-1.25, 1.25]: GridSample locations, exact in binary
};

// The element types the newest schema (the version every step is built at) allows for `op`'s
// input `index`.
std::vector<graphgc::DataType> SchemaTypes(const std::string& op, size_t index);

// [n, channels, spatial...]: the layout of images for Conv, pooling and normalization.
inline graphgc::Shape Image(int64_t n, int64_t channels, const graphgc::Shape& spatial) {
  graphgc::Shape shape = {n, channels};
  shape.insert(shape.end(), spatial.begin(), spatial.end());
  return shape;
}

struct PoolEntry {
  Ref ref;
  graphgc::DataType dtype;
  graphgc::Shape shape;
};

class Generator {
 public:
  using Recipe = std::function<void(Generator&)>;
  using Recipes = std::vector<std::pair<std::string, Recipe>>;

  // Draws steps from the recipes of `ops`, or (when empty) of every op that has a kernel.
  Generator(uint64_t seed, const std::vector<std::string>& ops);

  Plan Run();

  static void AddAllRecipes(Recipes& recipes);

 private:
  // A body's generator: its pool starts with the body's arguments, typed as given.
  Generator(uint64_t seed, int depth, const std::vector<PoolEntry>& arguments);

  // --- randomness (generator_core.cc) ------------------------------------------------------
  int Uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  double Real(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }
  bool Chance(double p) { return Real(0, 1) < p; }
  template <class T>
  const T& Pick(const std::vector<T>& items) {
    return items[static_cast<size_t>(Uniform(0, static_cast<int>(items.size()) - 1))];
  }
  graphgc::Shape RandomShape(int min_rank = 0, int max_rank = 4, int min_dim = 0);
  // A shape that broadcasts with `shape` (numpy rules): dims kept or made 1, rank changed.
  graphgc::Shape BroadcastPartner(const graphgc::Shape& shape);
  double Value(Domain domain, bool floating);
  graphgc::Tensor RandomTensor(graphgc::DataType dtype, const graphgc::Shape& shape, Domain domain);
  std::vector<int64_t> RandomAxes(int rank, bool allow_empty);
  // `rank` extents of 1 to `max_extent`.
  graphgc::Shape RandomSpatial(int rank, int max_extent);

  // --- plan building (generator_core.cc) ---------------------------------------------------
  Ref Leaf(graphgc::Tensor value, bool constant_in_both = false);
  Ref FreshLeaf(graphgc::DataType dtype, const graphgc::Shape& shape, Domain domain = Domain::kAny);
  Ref Int64Constant(std::vector<int64_t> values, bool scalar = false);
  // A var of one of `types`: an earlier step's output (when `reuse`) or a fresh leaf.
  PoolEntry Operand(const std::vector<graphgc::DataType>& types, bool reuse,
                    Domain domain = Domain::kAny, int min_rank = 0, int max_rank = 4);
  // Adds the step if graphgc accepts it (every output typed), with its outputs to the pool.
  bool TryStep(Step step);
  static Step MakeStep(std::string op, std::vector<std::optional<Ref>> inputs,
                       std::vector<graphgc::Attribute> attributes = {}, int num_outputs = 1);
  static const Recipes& RecipesFor(const std::vector<std::string>& ops);
  void AddRandomStep();

  // --- recipes: element-wise, reductions, contractions (generator_elementwise.cc) -----------
  void Unary(const std::string& op, Domain domain, bool jumps);
  void Binary(const std::string& op, bool jumps);
  void Variadic(const std::string& op);
  void Clip();
  void Where();
  void Cast();
  void Reduce(const std::string& op);
  void AxisOp(const std::string& op, bool jumps);
  void CumSum();
  void TopK();
  void MatMul();
  void Gemm();
  static void AddElementwiseRecipes(Recipes& recipes);

  // --- recipes: moving and reshaping data (generator_tensor.cc) ----------------------------
  void Transpose();
  void Concat();
  Ref Indices(int64_t extent, const graphgc::Shape& shape);
  void Gather(const std::string& op);
  void Slice();
  void Split();
  void Pad();
  void Tile();
  void Expand();
  void Reshaping(const std::string& op);
  void Trilu();
  static void AddTensorRecipes(Recipes& recipes);

  // --- recipes: convolution and pooling (generator_conv.cc) --------------------------------
  struct Window;  // a sliding window's attributes, per spatial axis
  Window RandomWindow(const graphgc::Shape& spatial, bool dilations, bool pads_below_kernel);
  void Conv();
  void ConvTranspose();
  void MaxPool();
  void AveragePool();
  void LpPool();
  void GlobalPool(const std::string& op);
  static void AddConvRecipes(Recipes& recipes);

  // --- recipes: normalization and resampling (generator_nn.cc) ------------------------------
  graphgc::Tensor SpreadHalves(const graphgc::Shape& shape, int64_t group);
  graphgc::Shape PowerOfTwoDims(int rank);
  void BatchNormalization();
  void InstanceNormalization();
  void Lrn();
  void LayerNormalization();
  void Resize();
  void GridSample();
  static void AddNnRecipes(Recipes& recipes);

  // --- recipes: the ops new in opsets 18 to 24 (generator_opset18.cc) ------------------------
  void NewActivation(const std::string& op);
  void Bitwise(const std::string& op);
  void RmsNormalization();
  void GroupNormalization();
  void Attention();
  void RotaryEmbedding();
  void CenterCropPad();
  void Col2Im();
  void AffineGrid();
  static void AddOpset18Recipes(Recipes& recipes);

  // --- recipes: recurrent networks (generator_recurrent.cc) ---------------------------------
  void Recurrent(const std::string& op);
  static void AddRecurrentRecipes(Recipes& recipes);

  // --- recipes: control flow (generator_control_flow.cc) -----------------------------------
  // Adds up to `count` random steps.
  void AddSteps(int count);
  // In a body's generator: a result for the loop-carried or state argument `like` (a value of
  // its type and shape, or itself).
  Ref BodyResult(const PoolEntry& like);
  // In a body's generator: `count` of its values as scan outputs, their ranks appended to `ranks`.
  std::vector<Ref> ScanOutputs(int count, std::vector<int64_t>& ranks);
  void Loop();
  void Scan();
  static void AddControlFlowRecipes(Recipes& recipes);

  std::mt19937_64 rng_;
  int depth_ = 0;  // how many bodies this generator is nested in; bodies use every kernel's op
  const Recipes* recipes_;
  graphgc::Graph graph_;
  Plan plan_;
  BuiltPlan built_;
  std::vector<PoolEntry> pool_;
};

}  // namespace difftest

#endif  // GRAPHGC_TESTS_DIFFTEST_GENERATOR_CORE_H_
