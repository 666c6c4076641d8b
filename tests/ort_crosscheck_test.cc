// Cross-checks graphgc's propagated values against ONNX Runtime.
//
// Each test builds graphs whose leaves are constants, so every output has a propagated value
// (Var::value()); exports them with to_onnx and save_model; writes those values to a JSON file;
// and runs tests/ort_run.js, which runs the model in ONNX Runtime (the npm package
// onnxruntime-node) and compares every output's element type, dims and values. A graph with
// arguments is fed from the JSON, and its expected values come from the same computation built on
// constants in a second graph.
//
// Needs node on PATH and onnxruntime-node in tools/.ort/node_modules; tools/bootstrap installs
// both. Without them every test here fails, saying so.
#include <sys/wait.h>
#include <unistd.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "graphgc/graphgc.h"
#include "gtest/gtest.h"
#include "onnx/defs/parser.h"
#include "two_level_functions.h"

#if !defined(GRAPHGC_ORT_RUN_JS) || !defined(GRAPHGC_ORT_NODE_MODULES)
#error "ort_crosscheck.cmake defines GRAPHGC_ORT_RUN_JS and GRAPHGC_ORT_NODE_MODULES"
#endif

namespace graphgc {
namespace {

namespace fs = std::filesystem;

constexpr char kOrtRunJs[] = GRAPHGC_ORT_RUN_JS;
constexpr char kOrtNodeModules[] = GRAPHGC_ORT_NODE_MODULES;

struct NamedTensor {
  std::string name;
  Tensor value;
};

// ---------------------------------------------------------------------------------------------
// Building inputs.

template <class T>
Tensor ConvertedTensor(const std::vector<double>& values, const std::vector<int64_t>& shape) {
  std::vector<T> converted;
  converted.reserve(values.size());
  for (double v : values) {
    if constexpr (std::is_same_v<T, Float16>) {
      converted.push_back(Float16::FromFloat(static_cast<float>(v)));
    } else if constexpr (std::is_same_v<T, bool>) {
      converted.push_back(v != 0);
    } else {
      converted.push_back(static_cast<T>(v));
    }
  }
  return Tensor::from_vector<T>(std::move(converted), shape);
}

// A tensor of `dtype` holding `values` (exactly representable in it; bool: nonzero is true).
Tensor MakeTensor(DataType dtype, const std::vector<double>& values,
                  const std::vector<int64_t>& shape) {
  switch (dtype) {
    case DataType::kFloat:
      return ConvertedTensor<float>(values, shape);
    case DataType::kDouble:
      return ConvertedTensor<double>(values, shape);
    case DataType::kFloat16:
      return ConvertedTensor<Float16>(values, shape);
    case DataType::kInt8:
      return ConvertedTensor<int8_t>(values, shape);
    case DataType::kInt16:
      return ConvertedTensor<int16_t>(values, shape);
    case DataType::kInt32:
      return ConvertedTensor<int32_t>(values, shape);
    case DataType::kInt64:
      return ConvertedTensor<int64_t>(values, shape);
    case DataType::kUint8:
      return ConvertedTensor<uint8_t>(values, shape);
    case DataType::kUint16:
      return ConvertedTensor<uint16_t>(values, shape);
    case DataType::kUint32:
      return ConvertedTensor<uint32_t>(values, shape);
    case DataType::kUint64:
      return ConvertedTensor<uint64_t>(values, shape);
    case DataType::kBool:
      return ConvertedTensor<bool>(values, shape);
    default:
      ADD_FAILURE() << "MakeTensor: unsupported element type " << static_cast<int>(dtype);
      return Tensor();
  }
}

Var Const(Graph& graph, DataType dtype, const std::vector<double>& values,
          const std::vector<int64_t>& shape) {
  return graph.constant(MakeTensor(dtype, values, shape));
}

// The int64 1-D shape operand of Reshape.
Var ShapeConst(Graph& graph, std::vector<int64_t> dims) {
  return graph.constant(Tensor::from_vector<int64_t>(std::move(dims)));
}

// `count` small values in [-5, 5] times `scale` (sums of products stay exact in float).
std::vector<double> Sequence(int64_t count, int seed, double scale) {
  std::vector<double> values;
  for (int64_t i = 0; i < count; ++i) {
    values.push_back(static_cast<double>((i * 7 + seed) % 11 - 5) * scale);
  }
  return values;
}

Var SequenceConst(Graph& graph, DataType dtype, const std::vector<int64_t>& shape, int seed) {
  int64_t count = 1;
  for (int64_t d : shape) count *= d;
  const double scale = IsFloatingPoint(dtype) ? 0.5 : 1.0;
  return Const(graph, dtype, Sequence(count, seed, scale), shape);
}

// ONNX's name of an element type (as ort_run.js expects it).
std::string TypeName(DataType dtype) {
  switch (dtype) {
    case DataType::kFloat:
      return "float";
    case DataType::kDouble:
      return "double";
    case DataType::kFloat16:
      return "float16";
    case DataType::kInt8:
      return "int8";
    case DataType::kInt16:
      return "int16";
    case DataType::kInt32:
      return "int32";
    case DataType::kInt64:
      return "int64";
    case DataType::kUint8:
      return "uint8";
    case DataType::kUint16:
      return "uint16";
    case DataType::kUint32:
      return "uint32";
    case DataType::kUint64:
      return "uint64";
    case DataType::kBool:
      return "bool";
    default:
      return "unsupported" + std::to_string(static_cast<int>(dtype));
  }
}

// ---------------------------------------------------------------------------------------------
// The expectations file read by ort_run.js.

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

template <class F>
std::string JsonFloat(F v) {
  if (std::isnan(v)) return "\"NaN\"";
  if (std::isinf(v)) return v > 0 ? "\"Infinity\"" : "\"-Infinity\"";
  char buffer[64];
  const std::to_chars_result result = std::to_chars(buffer, buffer + sizeof(buffer), v);
  return std::string(buffer, result.ptr);
}

// One element as JSON: shortest round-trip floats, 64-bit integers as strings (exact in JS).
template <class T>
std::string ElementJson(T v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v ? "true" : "false";
  } else if constexpr (std::is_same_v<T, Float16>) {
    return JsonFloat(v.ToFloat());
  } else if constexpr (std::is_floating_point_v<T>) {
    return JsonFloat(v);
  } else if constexpr (sizeof(T) == 8) {
    return "\"" + std::to_string(v) + "\"";
  } else {
    return std::to_string(static_cast<int64_t>(v));
  }
}

template <class T>
std::string ElementsJson(const Tensor& tensor) {
  std::string out = "[";
  for (const T& v : tensor.data<T>()) {
    if (out.size() > 1) out += ",";
    out += ElementJson(v);
  }
  return out + "]";
}

std::string ValuesJson(const Tensor& tensor) {
  switch (tensor.dtype()) {
    case DataType::kFloat:
      return ElementsJson<float>(tensor);
    case DataType::kDouble:
      return ElementsJson<double>(tensor);
    case DataType::kFloat16:
      return ElementsJson<Float16>(tensor);
    case DataType::kInt8:
      return ElementsJson<int8_t>(tensor);
    case DataType::kInt16:
      return ElementsJson<int16_t>(tensor);
    case DataType::kInt32:
      return ElementsJson<int32_t>(tensor);
    case DataType::kInt64:
      return ElementsJson<int64_t>(tensor);
    case DataType::kUint8:
      return ElementsJson<uint8_t>(tensor);
    case DataType::kUint16:
      return ElementsJson<uint16_t>(tensor);
    case DataType::kUint32:
      return ElementsJson<uint32_t>(tensor);
    case DataType::kUint64:
      return ElementsJson<uint64_t>(tensor);
    case DataType::kBool:
      return ElementsJson<bool>(tensor);
    default:
      ADD_FAILURE() << "no JSON form for element type " << static_cast<int>(tensor.dtype());
      return "[]";
  }
}

std::string TensorJson(const NamedTensor& named) {
  std::string shape = "[";
  for (int64_t d : named.value.shape()) {
    if (shape.size() > 1) shape += ",";
    shape += std::to_string(d);
  }
  shape += "]";
  return "{\"name\":" + JsonString(named.name) +
         ",\"type\":" + JsonString(TypeName(named.value.dtype())) + ",\"shape\":" + shape +
         ",\"values\":" + ValuesJson(named.value) + "}";
}

std::string TensorListJson(const std::vector<NamedTensor>& tensors) {
  std::string out = "[";
  for (const NamedTensor& t : tensors) {
    if (out.size() > 1) out += ",\n";
    out += TensorJson(t);
  }
  return out + "]";
}

std::string ExpectationsJson(const std::vector<NamedTensor>& expected,
                             const std::vector<NamedTensor>& feeds) {
  return "{\"inputs\":" + TensorListJson(feeds) + ",\n\"outputs\":" + TensorListJson(expected) +
         "}\n";
}

bool WriteFile(const fs::path& path, const std::string& contents) {
  std::ofstream file(path, std::ios::binary);
  file << contents;
  return file.good();
}

// ---------------------------------------------------------------------------------------------
// Running node.

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

CommandResult RunCommand(const std::string& command) {
  CommandResult result;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) {
    result.output = "popen failed for: " + command;
    return result;
  }
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof(buffer), pipe)) > 0) result.output.append(buffer, n);
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

// Why node or onnxruntime-node cannot be used, or "" when both are there.
std::string OrtMissingReason() {
  const fs::path package = fs::path(kOrtNodeModules) / "onnxruntime-node" / "package.json";
  if (!fs::exists(package)) {
    return "onnxruntime-node is not installed (no " + package.string() + ")";
  }
  const CommandResult node = RunCommand("node --version");
  if (node.exit_code != 0) {
    return "node does not run (exit status " + std::to_string(node.exit_code) + ": " +
           node.output.substr(0, node.output.find('\n')) + ")";
  }
  return "";
}

CommandResult RunOrt(const fs::path& model, const fs::path& expectations) {
  return RunCommand("node " + ShellQuote(kOrtRunJs) + " " + ShellQuote(model.string()) + " " +
                    ShellQuote(expectations.string()) + " " + ShellQuote(kOrtNodeModules));
}

// The outputs that ort_run.js reported as matching (its lines "ok NAME TYPE DIMS").
std::set<std::string> MatchedOutputs(const std::string& output) {
  std::set<std::string> matched;
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string status, name;
    if (words >> status >> name && status == "ok") matched.insert(name);
  }
  return matched;
}

std::string SummaryLine(const std::string& output) {
  const size_t at = output.rfind("ort_run: ");
  return at == std::string::npos ? "" : output.substr(at, output.find('\n', at) - at);
}

// ---------------------------------------------------------------------------------------------
// Expected values.

// The outputs that have a propagated value, and those values; a test failure for each output that
// failed or has no value.
std::pair<NamedVars, std::vector<NamedTensor>> PropagatedOutputs(const NamedVars& outputs) {
  std::pair<NamedVars, std::vector<NamedTensor>> propagated;
  for (const auto& [name, var] : outputs) {
    if (!var.ok()) {
      ADD_FAILURE() << name << " failed: " << var.status();
      continue;
    }
    std::optional<Tensor> value = var.value();
    if (!value.has_value()) {
      ADD_FAILURE() << name << " has no propagated value";
      continue;
    }
    propagated.first.emplace_back(name, var);
    propagated.second.push_back({name, *std::move(value)});
  }
  return propagated;
}

class OrtCrosscheckTest : public testing::Test {
 protected:
  void SetUp() override {
    const std::string missing = OrtMissingReason();
    ASSERT_TRUE(missing.empty()) << missing
                                 << ": run tools/bootstrap to install node and onnxruntime-node";
    const testing::TestInfo* info = testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::path(testing::TempDir()) /
           ("graphgc_ort_" + std::string(info->name()) + "_" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }

  void TearDown() override {
    if (dir_.empty()) return;
    if (HasFailure()) {
      std::printf("models and expectations kept in %s\n", dir_.c_str());
    } else {
      std::error_code ignored;
      fs::remove_all(dir_, ignored);
    }
  }

  // Exports `outputs` of `graph`, runs the model in ONNX Runtime with `feeds`, and expects every
  // output to match `expected`.
  void ExpectOrtAgrees(const Graph& graph, const NamedVars& outputs,
                       const std::vector<NamedTensor>& expected,
                       const std::vector<NamedTensor>& feeds = {}) {
    const std::string stem = "model" + std::to_string(models_++);
    absl::StatusOr<onnx::ModelProto> model = to_onnx(graph, outputs);
    ASSERT_TRUE(model.ok()) << model.status();
    const fs::path model_path = dir_ / (stem + ".onnx");
    const absl::Status saved = save_model(*model, model_path.string());
    ASSERT_TRUE(saved.ok()) << saved;
    const fs::path json_path = dir_ / (stem + ".json");
    ASSERT_TRUE(WriteFile(json_path, ExpectationsJson(expected, feeds))) << json_path;

    const CommandResult run = RunOrt(model_path, json_path);
    EXPECT_EQ(run.exit_code, 0) << "ONNX Runtime and graphgc disagree on " << model_path
                                << " (expected values in " << json_path << "):\n"
                                << run.output;
    ExpectAllMatched(expected, run.output);
    const std::string summary = SummaryLine(run.output);
    if (!summary.empty()) std::printf("[ ort      ] %s\n", summary.c_str());
  }

  // ExpectOrtAgrees with the propagated values of `outputs` as the expected values.
  void ExpectOrtAgreesWithPropagation(const Graph& graph, const NamedVars& outputs) {
    const auto [with_values, expected] = PropagatedOutputs(outputs);
    ExpectOrtAgrees(graph, with_values, expected);
  }

 private:
  static void ExpectAllMatched(const std::vector<NamedTensor>& expected,
                               const std::string& output) {
    const std::set<std::string> matched = MatchedOutputs(output);
    std::string unmatched;
    for (const NamedTensor& t : expected) {
      if (!matched.contains(t.name)) unmatched += " " + t.name;
    }
    EXPECT_EQ(unmatched, "") << "outputs ort_run.js did not report as ok:" << unmatched << "\n"
                             << output;
  }

  fs::path dir_;
  int models_ = 0;
};

// ---------------------------------------------------------------------------------------------
// The graphs.

struct BinaryOp {
  const char* name;
  Var (*make)(const Var&, const Var&);
};

constexpr BinaryOp kArithmeticOps[] = {
    {"add", op::Add}, {"sub", op::Sub}, {"mul", op::Mul}, {"div", op::Div}};

// Operands of shapes [2,3], [3], [4,1], [1,5]; no zeros, every result in range for the type.
struct ArithmeticInputs {
  std::vector<double> a, b, c, d;
};

ArithmeticInputs ArithmeticInputsFor(DataType dtype) {
  if (IsFloatingPoint(dtype)) {
    return {{1.5, -2.25, 3, -4.5, 5.75, 0.5},
            {0.5, -1.25, 4},
            {1, -2.5, 3.25, 10},
            {2, -0.5, 8, 1.25, -3}};
  }
  if (IsUnsignedInteger(dtype)) {
    return {{12, 18, 24, 30, 36, 42}, {1, 2, 5}, {10, 20, 30, 40}, {1, 2, 3, 4, 5}};
  }
  return {{12, -18, 24, -30, 36, 7}, {5, -2, 3}, {10, -20, 33, -41}, {1, -2, 3, -4, 5}};
}

// Each op with [2,3] and [3], [4,1] and [1,5], and those operand pairs swapped (except unsigned
// subtraction, which would wrap).
void AddArithmetic(Graph& graph, DataType dtype, NamedVars& outputs) {
  const ArithmeticInputs in = ArithmeticInputsFor(dtype);
  const Var a = Const(graph, dtype, in.a, {2, 3});
  const Var b = Const(graph, dtype, in.b, {3});
  const Var c = Const(graph, dtype, in.c, {4, 1});
  const Var d = Const(graph, dtype, in.d, {1, 5});
  const std::string type = TypeName(dtype);
  for (const BinaryOp& binary : kArithmeticOps) {
    const std::string prefix = std::string(binary.name) + "_" + type;
    outputs.emplace_back(prefix + "_2x3_3", binary.make(a, b));
    outputs.emplace_back(prefix + "_4x1_1x5", binary.make(c, d));
    if (IsUnsignedInteger(dtype) && binary.make == op::Sub) continue;
    outputs.emplace_back(prefix + "_3_2x3", binary.make(b, a));
    outputs.emplace_back(prefix + "_1x5_4x1", binary.make(d, c));
  }
}

TEST_F(OrtCrosscheckTest, BroadcastArithmetic) {
  Graph graph;
  NamedVars outputs;
  for (DataType dtype : {DataType::kFloat, DataType::kDouble, DataType::kInt32, DataType::kInt64,
                         DataType::kUint8, DataType::kFloat16}) {
    AddArithmetic(graph, dtype, outputs);
  }
  ExpectOrtAgreesWithPropagation(graph, outputs);
}

TEST_F(OrtCrosscheckTest, IntegerDivisionTruncatesTowardZero) {
  Graph graph;
  NamedVars outputs;
  for (DataType dtype : {DataType::kInt32, DataType::kInt64}) {
    const Var a = Const(graph, dtype, {-7, 7, -7, 7, -1, 1, -9, 9, 0, -6}, {10});
    const Var b = Const(graph, dtype, {2, -2, -2, 2, 3, -3, 4, -4, -5, 3}, {10});
    const Var minus_four = Const(graph, dtype, {-4}, {});
    const std::string type = TypeName(dtype);
    outputs.emplace_back("div_" + type + "_signs", op::Div(a, b));
    outputs.emplace_back("div_" + type + "_by_scalar", op::Div(a, minus_four));
    outputs.emplace_back("div_" + type + "_scalar_by", op::Div(minus_four, b));
  }
  ExpectOrtAgreesWithPropagation(graph, outputs);
}

TEST_F(OrtCrosscheckTest, NegAndRelu) {
  Graph graph;
  NamedVars outputs;
  const Var f = Const(graph, DataType::kFloat, {-3.5, 0, 2.25, -0.125, 1e30, -1e-30}, {2, 3});
  const Var i32 = Const(graph, DataType::kInt32, {-3, 0, 2, -100, 7, 2147483647}, {2, 3});
  // 2^53 + 1: not a double, so the expectation must carry it exactly.
  const Var i64 =
      graph.constant(Tensor::from_vector<int64_t>({-3, 0, 2, -100, 7, 9007199254740993}, {2, 3}));
  outputs.emplace_back("neg_float", op::Neg(f));
  outputs.emplace_back("neg_int32", op::Neg(i32));
  outputs.emplace_back("neg_int64", op::Neg(i64));
  outputs.emplace_back("relu_float", op::Relu(f));
  outputs.emplace_back("relu_int32", op::Relu(i32));
  // ONNX Runtime's CPU provider has no int64 Relu kernel: see ReluInt64.Propagates below.
  outputs.emplace_back("relu_neg_float", op::Relu(op::Neg(f)));
  ExpectOrtAgreesWithPropagation(graph, outputs);
}

// Not a cross-check: ONNX Runtime cannot run an int64 Relu (no CPU kernel), so the propagated
// value is compared with max(x, 0) by hand.
TEST(ReluInt64, Propagates) {
  Graph graph;
  const Var x =
      graph.constant(Tensor::from_vector<int64_t>({-3, 0, 2, -100, 7, 9007199254740993}, {2, 3}));
  const Var y = op::Relu(x);
  ASSERT_TRUE(y.ok()) << y.status();
  const std::optional<Tensor> value = y.value();
  ASSERT_TRUE(value.has_value());
  ASSERT_EQ(value->dtype(), DataType::kInt64);
  EXPECT_EQ(std::vector<int64_t>(value->shape().begin(), value->shape().end()),
            (std::vector<int64_t>{2, 3}));
  const absl::Span<const int64_t> data = value->data<int64_t>();
  EXPECT_EQ(std::vector<int64_t>(data.begin(), data.end()),
            (std::vector<int64_t>{0, 0, 2, 0, 7, 9007199254740993}));
}

void AddMatMuls(Graph& graph, DataType dtype, NamedVars& outputs) {
  struct Case {
    const char* name;
    std::vector<int64_t> a, b;
  };
  const Case cases[] = {
      {"2x3_3x4", {2, 3}, {3, 4}},
      {"2x3x4_4x5", {2, 3, 4}, {4, 5}},
      {"3_3x4", {3}, {3, 4}},
      {"2x3_3", {2, 3}, {3}},
      {"4_4", {4}, {4}},
      {"2x1x3x4_3x4x2", {2, 1, 3, 4}, {3, 4, 2}},
      {"2x3x4_2x4x5", {2, 3, 4}, {2, 4, 5}},
  };
  int seed = 0;
  for (const Case& c : cases) {
    const Var a = SequenceConst(graph, dtype, c.a, ++seed);
    const Var b = SequenceConst(graph, dtype, c.b, ++seed);
    outputs.emplace_back("matmul_" + TypeName(dtype) + "_" + c.name, op::MatMul(a, b));
  }
}

TEST_F(OrtCrosscheckTest, MatMul) {
  Graph graph;
  NamedVars outputs;
  AddMatMuls(graph, DataType::kFloat, outputs);
  AddMatMuls(graph, DataType::kInt32, outputs);
  ExpectOrtAgreesWithPropagation(graph, outputs);
}

void AddReshapes(Graph& graph, DataType dtype, NamedVars& outputs) {
  const Var x = SequenceConst(graph, dtype, {2, 3, 4}, 1);
  const std::string prefix = "reshape_" + TypeName(dtype);
  const op::ReshapeAttributes copy_zeros{.allowzero = 0};
  outputs.emplace_back(prefix + "_0_m1", op::Reshape(x, ShapeConst(graph, {0, -1})));
  outputs.emplace_back(prefix + "_4_0_m1",
                       op::Reshape(x, ShapeConst(graph, {4, 0, -1}), copy_zeros));
  outputs.emplace_back(prefix + "_m1_0_2", op::Reshape(x, ShapeConst(graph, {-1, 0, 2})));
  outputs.emplace_back(prefix + "_0_0_m1_1", op::Reshape(x, ShapeConst(graph, {0, 0, -1, 1})));
  outputs.emplace_back(prefix + "_m1", op::Reshape(x, ShapeConst(graph, {-1})));
  const Var flat = op::Reshape(x, ShapeConst(graph, {0, -1}));
  outputs.emplace_back(prefix + "_twice", op::Reshape(flat, ShapeConst(graph, {6, -1})));
  outputs.emplace_back(prefix + "_then_add", op::Add(flat, SequenceConst(graph, dtype, {12}, 5)));
}

TEST_F(OrtCrosscheckTest, Reshape) {
  Graph graph;
  NamedVars outputs;
  AddReshapes(graph, DataType::kFloat, outputs);
  AddReshapes(graph, DataType::kInt32, outputs);
  ExpectOrtAgreesWithPropagation(graph, outputs);
}

// Casts `values` (of shape [values.size()]), as each source type, to each target type.
void AddCasts(Graph& graph, const std::string& set, const std::vector<double>& values,
              std::initializer_list<DataType> sources, std::initializer_list<DataType> targets,
              NamedVars& outputs) {
  const int64_t count = static_cast<int64_t>(values.size());
  for (DataType from : sources) {
    const Var x = Const(graph, from, values, {count});
    for (DataType to : targets) {
      outputs.emplace_back("cast_" + set + "_" + TypeName(from) + "_to_" + TypeName(to),
                           op::Cast(x, to));
    }
  }
}

TEST_F(OrtCrosscheckTest, Cast) {
  using enum DataType;
  Graph graph;
  NamedVars outputs;
  // Every value below is exact in each source and in range for each target, so that conversion
  // (truncation toward zero from floating point) has one right answer.
  const auto all = {kFloat, kDouble, kInt32, kInt64, kUint8, kBool, kFloat16};
  const auto signed_targets = {kFloat, kDouble, kInt32, kInt64, kBool, kFloat16};
  AddCasts(graph, "small", {0, 1, 2, 3, 100, 255},
           {kFloat, kDouble, kInt32, kInt64, kUint8, kFloat16}, all, outputs);
  AddCasts(graph, "fraction", {-2.75, -1, 0.5, 1.25, 7.5, -100}, {kFloat, kDouble, kFloat16},
           signed_targets, outputs);
  AddCasts(graph, "signed", {-7, -1, 0, 5, 1000, -2048}, {kInt32, kInt64}, signed_targets, outputs);
  AddCasts(graph, "bool", {1, 0, 1, 1, 0, 0}, {kBool}, all, outputs);
  AddCasts(graph, "large", {1099511627776.0, -4294967296.0, 16777216, 12345678, -1},
           {kInt64, kDouble}, {kFloat, kDouble, kInt64}, outputs);
  ExpectOrtAgreesWithPropagation(graph, outputs);
}

TEST_F(OrtCrosscheckTest, Identity) {
  Graph graph;
  NamedVars outputs;
  for (DataType dtype : {DataType::kFloat, DataType::kInt64, DataType::kUint8, DataType::kBool,
                         DataType::kFloat16}) {
    const Var x = Const(graph, dtype, {1, 0, 3, 0, 5, 6}, {3, 2});
    outputs.emplace_back("identity_" + TypeName(dtype), op::Identity(x));
  }
  const Var scalar = Const(graph, DataType::kDouble, {-2.5}, {});
  outputs.emplace_back("identity_twice", op::Identity(op::Identity(scalar)));
  ExpectOrtAgreesWithPropagation(graph, outputs);
}

TEST_F(OrtCrosscheckTest, MixedChain) {
  Graph graph;
  const Var x = SequenceConst(graph, DataType::kFloat, {2, 3, 4}, 3);
  const Var flat = op::Reshape(x, ShapeConst(graph, {0, -1}));                   // [2,12]
  const Var w = Const(graph, DataType::kFloat, Sequence(36, 4, 0.25), {12, 3});  // [12,3]
  const Var product = op::MatMul(flat, w);                                       // [2,3]
  const Var relu = op::Relu(op::Add(product, Const(graph, DataType::kFloat, {-1, 0.5, 2}, {3})));
  const Var ints = op::Cast(op::Sub(relu, product), DataType::kInt32);
  const Var divided = op::Div(op::Neg(ints), Const(graph, DataType::kInt32, {3}, {}));
  const Var shifted = op::Sub(divided, Const(graph, DataType::kInt32, {1, -1}, {2, 1}));
  const Var doubled =
      op::Mul(op::Cast(shifted, DataType::kDouble), Const(graph, DataType::kDouble, {0.5}, {}));
  const Var half = op::Cast(doubled, DataType::kFloat16);
  const NamedVars outputs = {
      {"chain_product", product},
      {"chain_relu", relu},
      {"chain_divided", divided},
      {"chain_doubled", doubled},
      {"chain_half_sum", op::Add(half, op::Identity(half))},
      {"chain_bool", op::Cast(shifted, DataType::kBool)},
  };
  ExpectOrtAgreesWithPropagation(graph, outputs);
}

TEST_F(OrtCrosscheckTest, Float16Add) {
  using enum DataType;
  Graph graph;
  // Sums that round: 1024.5 (a tie, to even), 2049 (a tie), 0.1 + 0.2, 65504 + 8 (down to the
  // largest finite), 60000 + 10000 (overflow to infinity), -0.5 + 0.5.
  const Var a = Const(graph, kFloat16, {1024, 2048, 0.1, 65504, 60000, -0.5}, {2, 3});
  const Var b = Const(graph, kFloat16, {0.5, 1, 0.2, 8, 10000, 0.5}, {2, 3});
  const Var row = Const(graph, kFloat16, {0.25, -3, 1000}, {3});
  const Var column = Const(graph, kFloat16, {1, -2.5, 0.125, 7}, {4, 1});
  const Var wide = Const(graph, kFloat16, {-1, 0.5, 3, 1.75, -8}, {1, 5});
  const NamedVars outputs = {
      {"half_add_rounding", op::Add(a, b)},
      {"half_add_2x3_3", op::Add(op::Sub(a, b), row)},
      {"half_add_4x1_1x5", op::Add(column, wide)},
      {"half_add_cast", op::Add(op::Cast(Const(graph, kFloat, {1.5, -2, 4}, {3}), kFloat16), row)},
  };
  ExpectOrtAgreesWithPropagation(graph, outputs);
}

// The same computation, whatever x (float [2,3]), n (int64 [k]) and h (float16 [3]) are.
NamedVars ArgumentComputation(Graph& graph, const Var& x, const Var& n, const Var& h) {
  using enum DataType;
  const Var scale = Const(graph, kFloat, {2, -1, 0.5}, {3});
  const Var shift = Const(graph, kFloat, {1, -1}, {2, 1});
  return {
      {"arg_affine", op::Relu(op::Sub(op::Mul(x, scale), shift))},
      {"arg_matmul", op::MatMul(x, SequenceConst(graph, kFloat, {3, 2}, 2))},
      {"arg_truncate", op::Cast(op::Reshape(x, ShapeConst(graph, {-1})), kInt64)},
      {"arg_int",
       op::Div(op::Mul(n, Const(graph, kInt64, {3, -5}, {2, 1})), Const(graph, kInt64, {2}, {}))},
      {"arg_bool", op::Cast(n, kBool)},
      {"arg_half", op::Add(h, Const(graph, kFloat16, {0.25, 2, -1.5}, {3}))},
  };
}

TEST_F(OrtCrosscheckTest, GraphWithArguments) {
  using enum DataType;
  const std::vector<NamedTensor> feeds = {
      {"x", MakeTensor(kFloat, {1.5, -2, 0.25, 3, -0.75, 4}, {2, 3})},
      {"n", Tensor::from_vector<int64_t>({7, -9, 0, 9007199254740993})},
      {"h", MakeTensor(kFloat16, {0.5, -1.25, 3}, {3})},
  };
  Graph with_arguments;
  const Var x = with_arguments.argument("x", kFloat, {2, 3});
  const Var n = with_arguments.argument("n", kInt64, {-1});
  const Var h = with_arguments.argument("h", kFloat16, {3});
  const NamedVars outputs = ArgumentComputation(with_arguments, x, n, h);
  for (const auto& [name, var] : outputs) {
    ASSERT_TRUE(var.ok()) << name << ": " << var.status();
  }

  Graph with_constants;
  const Var x_value = with_constants.constant(feeds[0].value);
  const Var n_value = with_constants.constant(feeds[1].value);
  const Var h_value = with_constants.constant(feeds[2].value);
  const NamedVars reference = ArgumentComputation(with_constants, x_value, n_value, h_value);
  const auto [reference_outputs, expected] = PropagatedOutputs(reference);
  ASSERT_EQ(expected.size(), outputs.size());
  ExpectOrtAgrees(with_arguments, outputs, expected, feeds);
}

// An opset-6 model of ONNX's test data (PyTorch's Conv2d), imported (converted to opset 17 on the
// way), extended with a Relu made today, exported and run on the test data's input: ONNX Runtime
// computes what graphgc propagates for the same input bound as a constant.
TEST_F(OrtCrosscheckTest, ImportedOpset6ModelExtendedWithANewOp) {
  const std::string dir = "/usr/share/libonnx-testdata/data/pytorch-converted/test_Conv2d/";
  absl::StatusOr<onnx::ModelProto> conv = load_model(dir + "model.onnx");
  ASSERT_TRUE(conv.ok()) << conv.status();
  absl::StatusOr<Tensor> input = load_tensor(dir + "test_data_set_0/input_0.pb");
  ASSERT_TRUE(input.ok()) << input.status();
  const std::string input_name = conv->graph().input(0).name();
  const std::string output_name = conv->graph().output(0).name();

  Graph with_argument;
  auto imported = inline_model(with_argument, *conv);
  ASSERT_TRUE(imported.ok()) << imported.status();
  const NamedVars outputs = {{"relu", op::Relu(imported->at(output_name))},
                             {"conv", imported->at(output_name)}};

  Graph with_constant;
  auto reference =
      inline_model(with_constant, *conv, {{input_name, with_constant.constant(*input)}});
  ASSERT_TRUE(reference.ok()) << reference.status();
  const auto [reference_outputs, expected] = PropagatedOutputs(
      {{"relu", op::Relu(reference->at(output_name))}, {"conv", reference->at(output_name)}});
  ASSERT_EQ(expected.size(), 2u);
  ExpectOrtAgrees(with_argument, outputs, expected, {{input_name, *input}});
}

// If, Loop and Scan, run by ONNX Runtime on fed inputs: the exported bodies (outer-scope uses,
// pass-through results, a nested If) compute what the hand-computed values say.
TEST_F(OrtCrosscheckTest, ControlFlow) {
  using enum DataType;
  using Vars = std::vector<Var>;
  using Args = absl::Span<const Var>;
  Graph graph;
  const Var flag = graph.argument("flag", kBool, {});
  const Var x = graph.argument("x", kFloat, {3});
  const Var rows = graph.argument("rows", kFloat, {4, 3});
  const Var two = Const(graph, kFloat, {2}, {});
  NamedVars outputs;

  const Vars chosen = op::If(flag, {.else_branch =
                                        [&] {
                                          return Vars{op::Neg(x), x};
                                        },
                                    .then_branch =
                                        [&] {
                                          return Vars{op::Mul(x, two), x};
                                        }});
  outputs.emplace_back("if_value", chosen[0]);
  outputs.emplace_back("if_pass", chosen[1]);

  // acc += x * (i + 1) for i in 0..3, collecting acc each time; a nested If on the outer flag.
  const Var trips = graph.constant(Tensor::scalar<int64_t>(4));
  const Vars loop =
      op::Loop(trips, Var(), {Const(graph, kFloat, {0, 0, 0}, {3})}, {.body = [&](Args a) {
                 const Var step =
                     op::Cast(op::Add(a[0], graph.constant(Tensor::scalar<int64_t>(1))), kFloat);
                 const Var next = op::Add(a[2], op::Mul(x, step));
                 const Vars kept = op::If(flag, {.else_branch = [&] { return Vars{a[2]}; },
                                                 .then_branch = [&] { return Vars{next}; }});
                 return Vars{a[1], kept[0], kept[0]};
               }});
  outputs.emplace_back("loop_final", loop[0]);
  outputs.emplace_back("loop_scan", loop[1]);

  // Column sums of `rows` as the state, and each row doubled as the scan output.
  const Vars scan = op::Scan({Const(graph, kFloat, {0, 0, 0}, {3}), rows},
                             {.body =
                                  [&](Args a) {
                                    return Vars{op::Add(a[0], a[1]), op::Mul(a[1], two)};
                                  },
                              .num_scan_inputs = 1});
  outputs.emplace_back("scan_state", scan[0]);
  outputs.emplace_back("scan_rows", scan[1]);
  for (const auto& [name, var] : outputs) ASSERT_TRUE(var.ok()) << name << ": " << var.status();

  const std::vector<double> xs = {1.5, -2, 0.25};
  const std::vector<double> row_values = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  const std::vector<NamedTensor> feeds = {{"flag", Tensor::scalar<bool>(true)},
                                          {"x", MakeTensor(kFloat, xs, {3})},
                                          {"rows", MakeTensor(kFloat, row_values, {4, 3})}};
  std::vector<double> doubled, partial(3, 0), collected, sums(3, 0), doubled_rows;
  for (double v : xs) doubled.push_back(2 * v);
  for (int i = 1; i <= 4; ++i) {
    for (int c = 0; c < 3; ++c) partial[c] += xs[c] * i;
    collected.insert(collected.end(), partial.begin(), partial.end());
  }
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 3; ++c) {
      sums[c] += row_values[r * 3 + c];
      doubled_rows.push_back(2 * row_values[r * 3 + c]);
    }
  }
  const std::vector<NamedTensor> expected = {
      {"if_value", MakeTensor(kFloat, doubled, {3})},
      {"if_pass", MakeTensor(kFloat, xs, {3})},
      {"loop_final", MakeTensor(kFloat, partial, {3})},
      {"loop_scan", MakeTensor(kFloat, collected, {4, 3})},
      {"scan_state", MakeTensor(kFloat, sums, {3})},
      {"scan_rows", MakeTensor(kFloat, doubled_rows, {4, 3})},
  };
  ExpectOrtAgrees(graph, outputs, expected, feeds);
}

// Sequences through ONNX Runtime: built from tensors, indexed, concatenated and mapped.
TEST_F(OrtCrosscheckTest, Sequences) {
  using enum DataType;
  Graph graph;
  const Var x = graph.argument("x", kFloat, {4, 2});
  const Var pieces = op::SplitToSequence(x, Var(), {.axis = 0});
  const Var second = op::SequenceAt(pieces, graph.constant(Tensor::scalar<int64_t>(1)));
  const Var twice = op::ConcatFromSequence(op::SequenceConstruct({x, x}), {.axis = 1});
  const Var count = op::SequenceLength(pieces);
  const NamedVars outputs = {{"second", second}, {"twice", twice}, {"count", count}};
  for (const auto& [name, var] : outputs) ASSERT_TRUE(var.ok()) << name << ": " << var.status();
  EXPECT_EQ(second.shape(), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(twice.shape(), (std::vector<int64_t>{4, -1}));  // a sequence's length is not typed

  const std::vector<double> xs = {1, 2, 3, 4, 5, 6, 7, 8};
  const std::vector<NamedTensor> feeds = {{"x", MakeTensor(kFloat, xs, {4, 2})}};
  const std::vector<NamedTensor> expected = {
      {"second", MakeTensor(kFloat, {3, 4}, {1, 2})},
      {"twice", MakeTensor(kFloat, {1, 2, 1, 2, 3, 4, 3, 4, 5, 6, 5, 6, 7, 8, 7, 8}, {4, 4})},
      {"count", Tensor::scalar<int64_t>(4)},
  };
  ExpectOrtAgrees(graph, outputs, expected, feeds);
}

// A model with two levels of its own functions (a layer calling an activation, an attribute
// passed down by reference), imported with its calls kept: ONNX Runtime runs the export, with
// the functions written once, and agrees with the values graphgc computed through the bodies.
TEST_F(OrtCrosscheckTest, CallsOfModelFunctions) {
  onnx::ModelProto model;
  const std::string text = std::string(R"(
    <ir_version: 10, opset_import: ["" : 18, "local" : 1]>
    g (float[2, 3] x) => (float[2, 3] y1, float[2, 3] y2) {
      a = local.Layer <alpha = 0.5> (x)
      y1 = local.Layer <alpha = 0.25> (a)
      y2 = local.Layer (x)
    }
  )") + testing_models::kTwoLevelFunctions;
  const onnx::Status parsed = onnx::OnnxParser::Parse(model, text.c_str());
  ASSERT_TRUE(parsed.IsOK()) << parsed.ErrorMessage();
  Graph graph;
  Var x = SequenceConst(graph, DataType::kFloat, {2, 3}, 3);
  auto outputs = inline_model(graph, model, {{"x", x}});
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  ExpectOrtAgreesWithPropagation(graph, {{"y1", outputs->at("y1")}, {"y2", outputs->at("y2")}});
}

// Functions defined from code: Layer(x) = Act(x * w + b) with Act(x) = x * Sigmoid(x), called
// three times; the export holds both functions once, and ONNX Runtime agrees with the values
// graphgc computed through the bodies.
TEST_F(OrtCrosscheckTest, FunctionsDefinedFromCode) {
  const VarType traced = VarType::Tensor(DataType::kFloat, std::vector<int64_t>{3});
  absl::StatusOr<Function> act = define_function(
      {.domain = "local", .name = "Act", .inputs = {{"x", traced}}, .output_names = {"y"}},
      [](absl::Span<const Var> x) { return std::vector<Var>{op::Mul(x[0], op::Sigmoid(x[0]))}; });
  ASSERT_TRUE(act.ok()) << act.status();
  absl::StatusOr<Function> layer = define_function(
      {.domain = "local", .name = "Layer", .inputs = {{"x", traced}}, .output_names = {"y"}},
      [&](Graph& g, absl::Span<const Var> x) {
        const Var w = g.constant(Tensor::from_vector<float>({1, -2, 3}, {3}));
        const Var b = g.constant(Tensor::from_vector<float>({0.5f}, {}));
        return call(*act, {op::Add(op::Mul(x[0], w), b)});
      });
  ASSERT_TRUE(layer.ok()) << layer.status();
  Graph graph;
  Var y = SequenceConst(graph, DataType::kFloat, {2, 3}, 5);
  for (int i = 0; i < 3; ++i) y = call(*layer, {y})[0];
  ExpectOrtAgreesWithPropagation(graph, {{"y", y}, {"z", call(*act, {y})[0]}});
}

}  // namespace
}  // namespace graphgc
