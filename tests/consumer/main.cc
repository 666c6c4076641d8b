// Built against the installed package only; exits non-zero if anything is off.
#include <graphgc/graphgc.h>

#include <cstdio>

#include "onnx/checker.h"

namespace gg = graphgc;

int main() {
  gg::Graph g;
  gg::Var x = g.argument("x", gg::DataType::kFloat, {2, -1});
  gg::Var c = g.constant(gg::Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, {2, 3}));
  gg::Var y = gg::op::Relu(gg::op::Add(x, c));
  gg::Var a = g.constant(gg::Tensor::zeros(gg::DataType::kDouble, {10000}));
  for (int i = 0; i < 100; ++i) a = gg::op::Mul(a, a);
  g.collect();
  absl::StatusOr<onnx::ModelProto> m = gg::to_onnx(g, {{"y", y}, {"a", a}});
  if (!m.ok()) {
    std::fprintf(stderr, "%s\n", m.status().ToString().c_str());
    return 1;
  }
  onnx::checker::check_model(*m);
  std::printf("consumer: %d nodes, live value bytes %lld\n", m->graph().node_size(),
              static_cast<long long>(g.stats().live_value_bytes));
  return g.stats().live_value_bytes == 80000 ? 0 : 1;
}
