#include "kernel_bench.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "graphgc/graphgc.h"

namespace graphgc::bench {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using Buffer = std::vector<float>;

struct KernelCase {
  std::string name;
  std::vector<Tensor> inputs;
  std::vector<Tensor> constant_inputs;  // inputs the op needs as values (ReduceSum's axes)
  std::function<Var(const std::vector<Var>&)> op;
  // The plain loop: the same result from the inputs' data, into `out` (allocated and touched
  // before timing starts, so the loop is timed without the allocation graphgc pays for).
  std::function<void(const std::vector<Tensor>&, float* out)> loop;
  int64_t result_size = 0;
  int repetitions = 20;
};

struct Timing {
  double graphgc_ns = 0;
  double loop_ns = 0;
  std::optional<double> ort_ns;
  double max_difference = 0;  // between graphgc's value and the loop's result
  bool has_value = false;
};

Tensor RandomFloats(std::vector<int64_t> shape, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(-1, 1);
  int64_t count = 1;
  for (int64_t d : shape) count *= d;
  std::vector<float> values(static_cast<size_t>(count));
  for (float& v : values) v = uniform(rng);
  return Tensor::from_vector<float>(std::move(values), shape);
}

double Seconds(Clock::duration d) { return std::chrono::duration<double, std::nano>(d).count(); }

std::vector<KernelCase> Cases() {
  constexpr int64_t kN = 1024;
  std::vector<KernelCase> cases;
  cases.push_back({"Add 2^20 float",
                   {RandomFloats({1 << 20}, 1), RandomFloats({1 << 20}, 2)},
                   {},
                   [](const std::vector<Var>& v) { return op::Add(v[0], v[1]); },
                   [](const std::vector<Tensor>& in, float* out) {
                     auto a = in[0].data<float>(), b = in[1].data<float>();
                     for (size_t i = 0; i < a.size(); ++i) out[i] = a[i] + b[i];
                   }});
  cases.push_back({"MatMul 512x512 float",
                   {RandomFloats({512, 512}, 3), RandomFloats({512, 512}, 4)},
                   {},
                   [](const std::vector<Var>& v) { return op::MatMul(v[0], v[1]); },
                   [](const std::vector<Tensor>& in, float* out) {
                     auto a = in[0].data<float>(), b = in[1].data<float>();
                     constexpr int64_t n = 512;
                     std::fill(out, out + n * n, 0.0f);
                     for (int64_t i = 0; i < n; ++i) {
                       for (int64_t k = 0; k < n; ++k) {
                         const float x = a[i * n + k];
                         for (int64_t j = 0; j < n; ++j) out[i * n + j] += x * b[k * n + j];
                       }
                     }
                   },
                   5});
  cases.push_back({"Softmax [1024,1024]",
                   {RandomFloats({kN, kN}, 5)},
                   {},
                   [](const std::vector<Var>& v) { return op::Softmax(v[0], {.axis = -1}); },
                   [](const std::vector<Tensor>& in, float* out) {
                     auto x = in[0].data<float>();
                     for (int64_t r = 0; r < kN; ++r) {
                       const float* row = x.data() + r * kN;
                       float* o = out + r * kN;
                       float max = row[0];
                       for (int64_t c = 1; c < kN; ++c) max = std::max(max, row[c]);
                       float sum = 0;
                       for (int64_t c = 0; c < kN; ++c) sum += (o[c] = std::exp(row[c] - max));
                       const float scale = 1.0f / sum;
                       for (int64_t c = 0; c < kN; ++c) o[c] *= scale;
                     }
                   }});
  cases.push_back({"ReduceSum axis 1 [1024,1024]",
                   {RandomFloats({kN, kN}, 6)},
                   {Tensor::from_vector<int64_t>({1})},
                   [](const std::vector<Var>& v) { return op::ReduceSum(v[0], v[1]); },
                   [](const std::vector<Tensor>& in, float* out) {
                     auto x = in[0].data<float>();
                     for (int64_t r = 0; r < kN; ++r) {
                       float sum = 0;
                       for (int64_t c = 0; c < kN; ++c) sum += x[r * kN + c];
                       out[r] = sum;
                     }
                   }});
  cases.push_back({"Transpose [1024,1024]",
                   {RandomFloats({kN, kN}, 7)},
                   {},
                   [](const std::vector<Var>& v) { return op::Transpose(v[0]); },
                   [](const std::vector<Tensor>& in, float* out) {
                     auto x = in[0].data<float>();
                     for (int64_t r = 0; r < kN; ++r) {
                       for (int64_t c = 0; c < kN; ++c) out[c * kN + r] = x[r * kN + c];
                     }
                   }});
  cases.push_back({"Conv 3x3 64->64 [1,64,56,56]",
                   {RandomFloats({1, 64, 56, 56}, 10), RandomFloats({64, 64, 3, 3}, 11)},
                   {},
                   [](const std::vector<Var>& v) {
                     return op::Conv(v[0], v[1], Var(), {.pads = {{1, 1, 1, 1}}});
                   },
                   [](const std::vector<Tensor>& in, float* out) {
                     auto x = in[0].data<float>(), w = in[1].data<float>();
                     constexpr int64_t c = 64, h = 56, wd = 56;
                     std::fill(out, out + c * h * wd, 0.0f);
                     for (int64_t m = 0; m < c; ++m) {
                       for (int64_t ci = 0; ci < c; ++ci) {
                         for (int64_t ky = 0; ky < 3; ++ky) {
                           for (int64_t kx = 0; kx < 3; ++kx) {
                             const float k = w[((m * c + ci) * 3 + ky) * 3 + kx];
                             for (int64_t y = std::max<int64_t>(0, 1 - ky);
                                  y < std::min<int64_t>(h, h + 1 - ky); ++y) {
                               const float* row = x.data() + (ci * h + y + ky - 1) * wd + kx - 1;
                               float* o = out + (m * h + y) * wd;
                               for (int64_t i = std::max<int64_t>(0, 1 - kx);
                                    i < std::min<int64_t>(wd, wd + 1 - kx); ++i)
                                 o[i] += k * row[i];
                             }
                           }
                         }
                       }
                     }
                   },
                   5});
  std::vector<int64_t> rows(100000);
  std::mt19937 rng(8);
  for (int64_t& r : rows) r = std::uniform_int_distribution<int64_t>(0, 99999)(rng);
  cases.push_back({"Gather 1e5 rows of 16 float",
                   {RandomFloats({100000, 16}, 9), Tensor::from_vector<int64_t>(rows)},
                   {},
                   [](const std::vector<Var>& v) { return op::Gather(v[0], v[1]); },
                   [](const std::vector<Tensor>& in, float* out) {
                     auto table = in[0].data<float>();
                     auto index = in[1].data<int64_t>();
                     for (size_t i = 0; i < index.size(); ++i) {
                       for (int c = 0; c < 16; ++c) out[i * 16 + c] = table[index[i] * 16 + c];
                     }
                   }});
  cases.push_back({"MaxPool 3x3/2 [1,64,112,112]",
                   {RandomFloats({1, 64, 112, 112}, 10)},
                   {},
                   [](const std::vector<Var>& v) {
                     return make_node("MaxPool", {v[0]},
                                      {{"kernel_shape", std::vector<int64_t>{3, 3}},
                                       {"strides", std::vector<int64_t>{2, 2}},
                                       {"pads", std::vector<int64_t>{1, 1, 1, 1}}})[0];
                   },
                   [](const std::vector<Tensor>& in, float* out) {
                     auto x = in[0].data<float>();
                     constexpr int64_t kIn = 112, kOut = 56;
                     for (int64_t c = 0; c < 64; ++c) {
                       const float* plane = x.data() + c * kIn * kIn;
                       for (int64_t oh = 0; oh < kOut; ++oh) {
                         const int64_t h0 = std::max<int64_t>(oh * 2 - 1, 0);
                         const int64_t h1 = std::min<int64_t>(oh * 2 + 2, kIn);
                         for (int64_t ow = 0; ow < kOut; ++ow) {
                           const int64_t w0 = std::max<int64_t>(ow * 2 - 1, 0);
                           const int64_t w1 = std::min<int64_t>(ow * 2 + 2, kIn);
                           float max = -INFINITY;
                           for (int64_t h = h0; h < h1; ++h) {
                             for (int64_t w = w0; w < w1; ++w)
                               max = std::max(max, plane[h * kIn + w]);
                           }
                           *out++ = max;
                         }
                       }
                     }
                   }});
  cases.push_back({"LSTM seq 32 batch 8 in 128 hidden 128",
                   {RandomFloats({32, 8, 128}, 10), RandomFloats({1, 512, 128}, 11),
                    RandomFloats({1, 512, 128}, 12), RandomFloats({1, 1024}, 13)},
                   {},
                   [](const std::vector<Var>& v) {
                     return make_node("LSTM", v, {{"hidden_size", int64_t{128}}})[0];
                   },
                   [](const std::vector<Tensor>& in, float* out) {
                     constexpr int64_t kSeq = 32, kBatch = 8, kIn = 128, kHidden = 128;
                     auto x = in[0].data<float>(), w = in[1].data<float>();
                     auto r = in[2].data<float>(), b = in[3].data<float>();
                     std::vector<float> h(kBatch * kHidden), c(kBatch * kHidden);
                     std::vector<float> g(4 * kHidden);
                     const auto sigmoid = [](float v) { return 1.0f / (1.0f + std::exp(-v)); };
                     for (int64_t s = 0; s < kSeq; ++s) {
                       for (int64_t n = 0; n < kBatch; ++n) {
                         const float* xt = x.data() + (s * kBatch + n) * kIn;
                         float* ht = h.data() + n * kHidden;
                         float* ct = c.data() + n * kHidden;
                         for (int64_t j = 0; j < 4 * kHidden; ++j) {  // gates i, o, f, c
                           float sum = b[j] + b[4 * kHidden + j];
                           for (int64_t k = 0; k < kIn; ++k) sum += xt[k] * w[j * kIn + k];
                           for (int64_t k = 0; k < kHidden; ++k) sum += ht[k] * r[j * kHidden + k];
                           g[j] = sum;
                         }
                         for (int64_t j = 0; j < kHidden; ++j) {
                           ct[j] = sigmoid(g[2 * kHidden + j]) * ct[j] +
                                   sigmoid(g[j]) * std::tanh(g[3 * kHidden + j]);
                           ht[j] = sigmoid(g[kHidden + j]) * std::tanh(ct[j]);
                           out[(s * kBatch + n) * kHidden + j] = ht[j];
                         }
                       }
                     }
                   },
                   0,
                   5});
  cases.push_back({"Gelu 2^20 float",
                   {RandomFloats({1 << 20}, 14)},
                   {},
                   [](const std::vector<Var>& v) { return make_node("Gelu", {v[0]})[0]; },
                   [](const std::vector<Tensor>& in, float* out) {
                     auto x = in[0].data<float>();
                     for (size_t i = 0; i < x.size(); ++i)
                       out[i] = 0.5f * x[i] * (1.0f + std::erf(x[i] * float(M_SQRT1_2)));
                   }});
  cases.push_back({"RMSNormalization [1024,1024]",
                   {RandomFloats({kN, kN}, 15), RandomFloats({kN}, 16)},
                   {},
                   [](const std::vector<Var>& v) {
                     return make_node("RMSNormalization", {v[0], v[1]}, {{"axis", int64_t{-1}}})[0];
                   },
                   [](const std::vector<Tensor>& in, float* out) {
                     auto x = in[0].data<float>(), scale = in[1].data<float>();
                     for (int64_t r = 0; r < kN; ++r) {
                       const float* row = x.data() + r * kN;
                       float squares = 0;
                       for (int64_t c = 0; c < kN; ++c) squares += row[c] * row[c];
                       const float inverse = 1.0f / std::sqrt(squares / kN + 1e-5f);
                       for (int64_t c = 0; c < kN; ++c)
                         out[r * kN + c] = row[c] * inverse * scale[c];
                     }
                   }});
  cases.push_back(
      {"Attention causal [1,8,128,64]",
       {RandomFloats({1, 8, 128, 64}, 17), RandomFloats({1, 8, 128, 64}, 18),
        RandomFloats({1, 8, 128, 64}, 19)},
       {},
       [](const std::vector<Var>& v) {
         return make_node("Attention", {v[0], v[1], v[2]}, {{"is_causal", int64_t{1}}})[0];
       },
       [](const std::vector<Tensor>& in, float* out) {
         constexpr int64_t kHeads = 8, kSeq = 128, kHead = 64;
         auto q = in[0].data<float>(), k = in[1].data<float>(), v = in[2].data<float>();
         const float scale = 1.0f / std::sqrt(float(kHead));
         std::vector<float> weights(kSeq);
         for (int64_t h = 0; h < kHeads; ++h) {
           const int64_t base = h * kSeq * kHead;
           for (int64_t i = 0; i < kSeq; ++i) {
             float max = -INFINITY;
             for (int64_t j = 0; j <= i; ++j) {
               float dot = 0;
               for (int64_t d = 0; d < kHead; ++d)
                 dot += q[base + i * kHead + d] * k[base + j * kHead + d];
               weights[j] = dot * scale;
               max = std::max(max, weights[j]);
             }
             float sum = 0;
             for (int64_t j = 0; j <= i; ++j) sum += (weights[j] = std::exp(weights[j] - max));
             float* o = out + base + i * kHead;
             std::fill(o, o + kHead, 0.0f);
             for (int64_t j = 0; j <= i; ++j) {
               const float w = weights[j] / sum;
               for (int64_t d = 0; d < kHead; ++d) o[d] += w * v[base + j * kHead + d];
             }
           }
         }
       },
       0,
       10});
  return cases;
}

std::vector<Var> Constants(Graph& g, const KernelCase& c) {
  std::vector<Var> vars;
  for (const Tensor& t : c.inputs) vars.push_back(g.constant(t));
  for (const Tensor& t : c.constant_inputs) vars.push_back(g.constant(t));
  return vars;
}

// Minimum ns of the op over the repetitions, and the last value it made.
double TimeGraphgc(const KernelCase& c, std::optional<Tensor>& value) {
  Graph g;
  const std::vector<Var> vars = Constants(g, c);
  double best = INFINITY;
  for (int r = 0; r <= c.repetitions; ++r) {
    const Clock::time_point start = Clock::now();
    Var y = c.op(vars);
    const double ns = Seconds(Clock::now() - start);
    if (r > 0) best = std::min(best, ns);  // the first run warms up
    value = y.value();
  }
  return best;
}

double TimeLoop(const KernelCase& c, Buffer& result) {
  result.assign(static_cast<size_t>(c.result_size), 0.0f);
  double best = INFINITY;
  for (int r = 0; r <= c.repetitions; ++r) {
    const Clock::time_point start = Clock::now();
    c.loop(c.inputs, result.data());
    const double ns = Seconds(Clock::now() - start);
    if (r > 0) best = std::min(best, ns);
  }
  return best;
}

// The loop's result size: the size of the value graphgc's op gives.
int64_t ResultSize(const KernelCase& c) {
  Graph g;
  const Var y = c.op(Constants(g, c));
  std::optional<std::vector<int64_t>> shape = y.shape();
  int64_t size = 1;
  for (int64_t d : shape.value_or(std::vector<int64_t>{})) size *= std::max<int64_t>(d, 0);
  return size;
}

bool OrtAvailable() {
  return fs::exists(GRAPHGC_ORT_TIME_JS) &&
         fs::exists(fs::path(GRAPHGC_ORT_NODE_MODULES) / "onnxruntime-node") &&
         std::system("node --version > /dev/null 2>&1") == 0;
}

// The op as a one-node model with its inputs as arguments, timed by bench/ort_time.js.
std::optional<double> TimeOrt(const KernelCase& c, const fs::path& dir) {
  Graph g;
  std::vector<Var> vars;
  std::string feeds;
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    const Tensor& t = c.inputs[i];
    const std::string name = absl::StrCat("x", i);
    vars.push_back(g.argument(name, t.dtype(), t.shape()));
    std::ofstream(dir / (name + ".bin"), std::ios::binary)
        .write(static_cast<const char*>(t.raw_data()), static_cast<std::streamsize>(t.nbytes()));
    absl::StrAppend(&feeds, name, " ", DataTypeName(t.dtype()), " ", absl::StrJoin(t.shape(), ","),
                    " ", name, ".bin\n");
  }
  for (const Tensor& t : c.constant_inputs) vars.push_back(g.constant(t));
  const Var y = c.op(vars);
  if (!save_onnx(g, {{"y", y}}, (dir / "model.onnx").string()).ok()) return std::nullopt;
  std::ofstream(dir / "feeds.txt") << feeds;
  const std::string command =
      absl::StrCat("node '", GRAPHGC_ORT_TIME_JS, "' '", (dir / "model.onnx").string(), "' '",
                   (dir / "feeds.txt").string(), "' ", c.repetitions, " '",
                   GRAPHGC_ORT_NODE_MODULES, "' 2>/dev/null");
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return std::nullopt;
  double ns = 0;
  const bool read = std::fscanf(pipe, "%lf", &ns) == 1;
  const bool ok = pclose(pipe) == 0 && read;
  return ok ? std::optional<double>(ns) : std::nullopt;
}

double MaxDifference(const Tensor& value, const Buffer& loop) {
  auto data = value.data<float>();
  if (data.size() != loop.size()) return INFINITY;
  double worst = 0;
  for (size_t i = 0; i < data.size(); ++i)
    worst = std::max(worst, std::fabs(double(data[i]) - loop[i]));
  return worst;
}

std::string Ratio(double a, std::optional<double> b) {
  return b.has_value() && *b > 0 ? absl::StrFormat("%.2f", a / *b) : "n/a";
}

}  // namespace

int RunKernelBenchmarks() {
  const bool ort = OrtAvailable();
  char pattern[] = "/tmp/graphgc-kernel-bench-XXXXXX";
  const char* dir = mkdtemp(pattern);
  std::printf("Value propagation, minimum ns over repetitions, side by side in one run%s\n",
              ort ? "" : " (ONNX Runtime not installed: ort_ns n/a)");
  std::printf("%-30s %14s %14s %14s %12s %11s  %s\n", "op", "graphgc_ns", "loop_ns", "ort_ns",
              "graphgc/loop", "graphgc/ort", "check");
  for (KernelCase& c : Cases()) {
    c.result_size = ResultSize(c);
    Timing t;
    std::optional<Tensor> value;
    Buffer loop;
    t.graphgc_ns = TimeGraphgc(c, value);
    t.loop_ns = TimeLoop(c, loop);
    if (ort && dir != nullptr) t.ort_ns = TimeOrt(c, dir);
    const std::string check = !value.has_value() ? "NO VALUE"
                                                 : absl::StrFormat("max |graphgc - loop| = %.3g",
                                                                   MaxDifference(*value, loop));
    std::printf("%-30s %14.0f %14.0f %14s %12s %11s  %s\n", c.name.c_str(), t.graphgc_ns, t.loop_ns,
                t.ort_ns.has_value() ? absl::StrFormat("%.0f", *t.ort_ns).c_str() : "n/a",
                Ratio(t.graphgc_ns, t.loop_ns).c_str(), Ratio(t.graphgc_ns, t.ort_ns).c_str(),
                check.c_str());
    std::fflush(stdout);
  }
  if (dir != nullptr) fs::remove_all(dir);
  return 0;
}

}  // namespace graphgc::bench
