// The recompute scenario: values on demand (OnBudget::kEvictAndRecompute) against a graph that
// keeps every value.
//
// A multilayer perceptron of n layers, x = Relu(Add(MatMul(x, W), b)), over a float[3584, 256]
// input (3.5 MiB per activation; W and b tied across layers, drawn from a fixed generator), keeps a
// Var for every one of its 3n values: 600 values of ~2.1 GiB at n = 200. Each row runs in a forked
// child: the graph is built, then every value is read in the order it was made and hashed (the
// Tensor dropped right after). The row without a budget runs first, keeping every value; the
// budgeted rows (64 MiB, 256 MiB, 1 GiB of GraphOptions::max_live_value_bytes) evict and compute
// again, and each of their hashes must equal the unbudgeted row's. A row is wrong when a hash
// differs, a value cannot be read, or its peak RSS passes twice its budget plus 64 MiB (not checked
// in an AddressSanitizer build, whose quarantine holds freed memory).
#ifndef GRAPHGC_BENCH_RECOMPUTE_SCENARIO_H_
#define GRAPHGC_BENCH_RECOMPUTE_SCENARIO_H_

#include <cstdint>
#include <string>
#include <vector>

namespace graphgc::bench {

inline constexpr char kRecomputePart[] = "recompute";

struct RecomputeRow {
  int64_t layers = 0;
  int64_t budget_bytes = 0;  // 0: no budget, every value kept
  double build_seconds = 0;
  double read_seconds = 0;
  int64_t peak_rss_kib = -1;
  int64_t values = 0;  // values read (3 per layer)
  int64_t value_bytes = 0;
  int64_t values_evicted = 0;
  int64_t values_recomputed = 0;
  int64_t recomputed_bytes = 0;
  double recompute_seconds = 0;
  int64_t mismatches = 0;  // values whose bytes differ from the unbudgeted row's
  std::string error;       // set when the row did not run through; its figures are then partial

  bool correct() const { return error.empty() && mismatches == 0; }
  double total_seconds() const { return build_seconds + read_seconds; }
};

// The budgets of every n, after the row without one.
std::vector<int64_t> RecomputeBudgets();
// Rows for every n in `layer_counts`: the unbudgeted row first, then one per budget.
std::vector<RecomputeRow> RunRecomputeScenario(const std::vector<int64_t>& layer_counts);

void PrintRecomputeRows(const std::vector<RecomputeRow>& rows);
// The rows as a JSON array, indented as a member of the suite's document (report.h).
std::string RecomputeRowsToJson(const std::vector<RecomputeRow>& rows);
// The chart's data: one block per budget (unbudgeted first), one line per n: layers, total
// seconds, peak RSS bytes, values computed again; gnuplot's `index` picks a budget.
std::string RecomputeDataFile(const std::vector<RecomputeRow>& rows);
std::string BudgetName(int64_t budget_bytes);

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_RECOMPUTE_SCENARIO_H_
