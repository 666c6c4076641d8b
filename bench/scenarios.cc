#include "scenarios.h"

#include <vector>

#include "chain_workload.h"
#include "fanout_workload.h"
#include "mlp_workload.h"
#include "shapes_workload.h"

namespace graphgc::bench {
namespace {

template <class W>
Scenario Make(absl::string_view name, absl::string_view summary, std::vector<int64_t> suite_sizes,
              std::vector<int64_t> alone_sizes) {
  return Scenario{.name = name,
                  .summary = summary,
                  .ops_per_step = W::kOpsPerStep,
                  .value_bytes_per_step = W::kValueBytesPerStep,
                  .suite_sizes = std::move(suite_sizes),
                  .alone_sizes = std::move(alone_sizes),
                  .make_workload = [] { return std::make_unique<W>(); }};
}

// Sizes: the default run stops where a row would take more than a few seconds on a loaded
// two-core machine (shapes at 10^6 steps takes half a minute per row); the larger sizes are there
// when a scenario runs alone.
const std::vector<Scenario>& Registry() {
  static const auto* const kScenarios = new std::vector<Scenario>{
      Make<ChainWorkload>("chain", "a = Mul(a, a) on 10000 doubles (80 000 B per value)",
                          {10, 100, 1000, 10000, 100000, 1000000},
                          {10, 100, 1000, 10000, 100000, 1000000}),
      Make<FanoutWorkload>("fanout",
                           "y = Add(c, one), c a constant float[262144] (1 MiB per value); "
                           "the previous y dropped",
                           {10, 100, 1000, 10000, 100000}, {10, 100, 1000, 10000, 100000}),
      Make<MlpWorkload>("mlp",
                        "one layer x = Relu(Add(MatMul(x, W), b)), x float[16, 256], "
                        "W and b shared; n = layers",
                        {10, 100, 1000, 10000, 100000}, {10, 100, 1000, 10000, 100000}),
      Make<ShapesWorkload>("shapes",
                           "s = Shape(x); x = Reshape(x, Concat(Gather(s, [1, 2]), "
                           "Gather(s, [0]))), x an argument float[2, 3, 5]",
                           {10, 100, 1000, 10000, 100000}, {10, 100, 1000, 10000, 100000, 1000000}),
  };
  return *kScenarios;
}

}  // namespace

absl::Span<const Scenario> AllScenarios() { return Registry(); }

const Scenario* FindScenario(absl::string_view name) {
  if (name == "seed") name = "chain";
  for (const Scenario& scenario : Registry()) {
    if (scenario.name == name) return &scenario;
  }
  return nullptr;
}

}  // namespace graphgc::bench
