#include "recompute_scenario.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "graphgc/graphgc.h"
#include "isolated_run.h"
#include "json_text.h"
#include "process_stats.h"

namespace graphgc::bench {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int64_t kBatch = 3584;
constexpr int64_t kWidth = 256;
constexpr int64_t kMiB = int64_t{1} << 20;
// Past this a row's RSS is wrong: twice its budget (the allocator keeps some freed memory for a
// while) and the process's own footprint.
constexpr int64_t kRssSlackBytes = 64 * kMiB;

// AddressSanitizer keeps freed memory in quarantine (and adds shadow memory): RSS says nothing
// about the graph's memory then, so a sanitizer build does not check it.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kRssIsTheGraphs = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kRssIsTheGraphs = false;
#else
constexpr bool kRssIsTheGraphs = true;
#endif
#else
constexpr bool kRssIsTheGraphs = true;
#endif

// Numbers from a fixed linear congruential generator in [-scale, scale): the same in every run.
Tensor Drawn(std::vector<int64_t> shape, float scale, uint64_t seed) {
  int64_t count = 1;
  for (int64_t dim : shape) count *= dim;
  std::vector<float> values(static_cast<size_t>(count));
  uint64_t state = seed;
  for (float& value : values) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const double unit = static_cast<double>(state >> 11) * 0x1.0p-53;  // [0, 1)
    value = static_cast<float>((2 * unit - 1) * scale);
  }
  return Tensor::from_vector(std::move(values), shape);
}

// A hash that changes with any one word of `tensor`'s bytes (multiplying by an odd constant is a
// bijection): enough to tell two runs' values apart, and fast on 2 GiB.
uint64_t HashOf(const Tensor& tensor) {
  const auto* bytes = static_cast<const unsigned char*>(tensor.raw_data());
  uint64_t hash = 1469598103934665603ULL;
  size_t offset = 0;
  for (; offset + sizeof(uint64_t) <= tensor.nbytes(); offset += sizeof(uint64_t)) {
    uint64_t word = 0;
    std::memcpy(&word, bytes + offset, sizeof word);
    hash = (hash ^ word) * 1099511628211ULL;
  }
  for (; offset < tensor.nbytes(); ++offset) hash = (hash ^ bytes[offset]) * 1099511628211ULL;
  return hash;
}

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

struct Measured {
  RecomputeRow row;
  std::vector<uint64_t> hashes;
};

// In the child: builds the MLP keeping every value's Var, reads them all in order.
Measured Measure(int64_t layers, int64_t budget_bytes) {
  Measured measured;
  RecomputeRow& row = measured.row;
  GraphOptions options;
  if (budget_bytes > 0) {
    options.max_live_value_bytes = budget_bytes;
    options.on_budget = OnBudget::kEvictAndRecompute;
  }
  Graph graph(options);
  // LeCun's scale (variance 1/width) keeps the activations of a deep stack of tied layers finite.
  const float scale = static_cast<float>(std::sqrt(3.0 / kWidth));
  const Var weights = graph.constant(Drawn({kWidth, kWidth}, scale, 1));
  const Var bias = graph.constant(Drawn({kWidth}, 0.5f, 2));
  Var x = graph.constant(Drawn({kBatch, kWidth}, 1.0f, 3));
  std::vector<Var> kept;
  kept.reserve(static_cast<size_t>(3 * layers));
  const Clock::time_point build_start = Clock::now();
  for (int64_t layer = 0; layer < layers; ++layer) {
    kept.push_back(op::MatMul(x, weights));
    kept.push_back(op::Add(kept.back(), bias));
    kept.push_back(op::Relu(kept.back()));
    x = kept.back();
  }
  row.build_seconds = SecondsSince(build_start);
  const Clock::time_point read_start = Clock::now();
  for (const Var& var : kept) {
    const std::optional<Tensor> value = var.value();
    if (!value.has_value()) {
      row.error = absl::StrCat("value ", measured.hashes.size(), " of ", kept.size(),
                               " could not be read: ", var.value_status().ToString());
      break;
    }
    measured.hashes.push_back(HashOf(*value));
    row.value_bytes += static_cast<int64_t>(value->nbytes());
  }
  row.read_seconds = SecondsSince(read_start);
  row.values = static_cast<int64_t>(measured.hashes.size());
  const GraphStats stats = graph.stats();
  row.values_evicted = stats.values_evicted;
  row.values_recomputed = stats.values_recomputed;
  row.recomputed_bytes = stats.recomputed_bytes;
  row.recompute_seconds = static_cast<double>(stats.recompute_ns) * 1e-9;
  row.peak_rss_kib = ReadProcessMemory().peak_rss_kib;
  return measured;
}

// The child's report: the figures on one line, the hashes on the next, the error on the last.
std::string Report(const Measured& measured) {
  const RecomputeRow& row = measured.row;
  std::string text =
      absl::StrFormat("%.9f %.9f %d %d %d %d %d %d %.9f\n", row.build_seconds, row.read_seconds,
                      row.peak_rss_kib, row.values, row.value_bytes, row.values_evicted,
                      row.values_recomputed, row.recomputed_bytes, row.recompute_seconds);
  for (uint64_t hash : measured.hashes) absl::StrAppend(&text, hash, " ");
  absl::StrAppend(&text, "\n", row.error);
  return text;
}

bool ParseReport(absl::string_view text, Measured& measured) {
  const std::vector<absl::string_view> lines = absl::StrSplit(text, absl::MaxSplits('\n', 2));
  if (lines.size() != 3) return false;
  const std::vector<absl::string_view> figures = absl::StrSplit(lines[0], ' ');
  RecomputeRow& row = measured.row;
  if (figures.size() != 9 || !absl::SimpleAtod(figures[0], &row.build_seconds) ||
      !absl::SimpleAtod(figures[1], &row.read_seconds) ||
      !absl::SimpleAtoi(figures[2], &row.peak_rss_kib) ||
      !absl::SimpleAtoi(figures[3], &row.values) ||
      !absl::SimpleAtoi(figures[4], &row.value_bytes) ||
      !absl::SimpleAtoi(figures[5], &row.values_evicted) ||
      !absl::SimpleAtoi(figures[6], &row.values_recomputed) ||
      !absl::SimpleAtoi(figures[7], &row.recomputed_bytes) ||
      !absl::SimpleAtod(figures[8], &row.recompute_seconds)) {
    return false;
  }
  for (absl::string_view hash : absl::StrSplit(lines[1], ' ', absl::SkipEmpty())) {
    uint64_t value = 0;
    if (!absl::SimpleAtoi(hash, &value)) return false;
    measured.hashes.push_back(value);
  }
  row.error = std::string(lines[2]);
  return true;
}

// One row in a child; an unbudgeted reference is compared value by value.
Measured RunRow(int64_t layers, int64_t budget_bytes, const std::vector<uint64_t>* reference) {
  Measured measured;
  absl::StatusOr<std::string> report =
      RunInChild([&] { return Report(Measure(layers, budget_bytes)); });
  if (!report.ok()) {
    measured.row.error = std::string(report.status().message());
  } else if (!ParseReport(*report, measured)) {
    measured.row.error = "the child's report does not parse";
  }
  RecomputeRow& row = measured.row;
  row.layers = layers;
  row.budget_bytes = budget_bytes;
  if (reference != nullptr) {
    for (size_t i = 0; i < measured.hashes.size(); ++i) {
      if (i >= reference->size() || (*reference)[i] != measured.hashes[i]) ++row.mismatches;
    }
  }
  if (row.error.empty() && row.values != 3 * layers) {
    row.error = absl::StrCat(row.values, " values read of ", 3 * layers);
  }
  if (kRssIsTheGraphs && row.error.empty() && budget_bytes > 0 &&
      row.peak_rss_kib * 1024 > 2 * budget_bytes + kRssSlackBytes) {
    row.error = absl::StrCat("peak RSS ", row.peak_rss_kib, " KiB is past twice the budget and ",
                             kRssSlackBytes / kMiB, " MiB");
  }
  return measured;
}

}  // namespace

std::vector<int64_t> RecomputeBudgets() { return {64 * kMiB, 256 * kMiB, 1024 * kMiB}; }

std::string BudgetName(int64_t budget_bytes) {
  if (budget_bytes <= 0) return "none";
  if (budget_bytes % (1024 * kMiB) == 0) return absl::StrCat(budget_bytes / (1024 * kMiB), " GiB");
  return absl::StrCat(budget_bytes / kMiB, " MiB");
}

std::vector<RecomputeRow> RunRecomputeScenario(const std::vector<int64_t>& layer_counts) {
  std::vector<RecomputeRow> rows;
  for (int64_t layers : layer_counts) {
    const Measured reference = RunRow(layers, 0, nullptr);
    rows.push_back(reference.row);
    for (int64_t budget : RecomputeBudgets()) {
      rows.push_back(RunRow(layers, budget, &reference.hashes).row);
      if (!reference.row.error.empty() && rows.back().error.empty()) {
        rows.back().error = "no reference: the unbudgeted row failed";
      }
    }
  }
  return rows;
}

void PrintRecomputeRows(const std::vector<RecomputeRow>& rows) {
  std::printf(
      "\nrecompute: an MLP of n layers (MatMul, Add, Relu over float[%lld, %lld], 3.5 MiB a "
      "value) keeps all 3n values, reads each in order; under a budget values are evicted and "
      "computed again (OnBudget::kEvictAndRecompute). Each row runs in its own process; x is its "
      "total time over the unbudgeted row's of the same n, measured one after the other\n",
      static_cast<long long>(kBatch), static_cast<long long>(kWidth));
  std::printf("%6s %8s %9s %8s %8s %7s %11s %9s %11s %12s %10s %s\n", "n", "budget", "build s",
              "read s", "total s", "x", "peak RSS", "values", "evicted", "recomputed", "recomp s",
              "same bytes");
  double unbudgeted_seconds = 0;
  for (const RecomputeRow& row : rows) {
    if (row.budget_bytes == 0) unbudgeted_seconds = row.total_seconds();
    const double ratio = unbudgeted_seconds > 0 ? row.total_seconds() / unbudgeted_seconds : 0;
    std::printf("%6lld %8s %9.2f %8.2f %8.2f %6.2fx %7lld MiB %9lld %11lld %12lld %10.2f %s\n",
                static_cast<long long>(row.layers), BudgetName(row.budget_bytes).c_str(),
                row.build_seconds, row.read_seconds, row.total_seconds(), ratio,
                static_cast<long long>(row.peak_rss_kib / 1024), static_cast<long long>(row.values),
                static_cast<long long>(row.values_evicted),
                static_cast<long long>(row.values_recomputed), row.recompute_seconds,
                row.budget_bytes == 0 ? "(reference)"
                : row.mismatches == 0 ? "yes"
                                      : absl::StrCat("NO: ", row.mismatches, " differ").c_str());
    if (!row.error.empty()) std::printf("       failed: %s\n", row.error.c_str());
  }
}

std::string RecomputeRowsToJson(const std::vector<RecomputeRow>& rows) {
  std::string json = "[";
  for (size_t i = 0; i < rows.size(); ++i) {
    const RecomputeRow& row = rows[i];
    absl::StrAppend(&json, i == 0 ? "" : ",", "\n    {\"layers\": ", JsonNumber(row.layers),
                    ", \"budget_bytes\": ", JsonNumber(row.budget_bytes),
                    ", \"build_seconds\": ", absl::StrFormat("%.3f", row.build_seconds),
                    ", \"read_seconds\": ", absl::StrFormat("%.3f", row.read_seconds),
                    ", \"peak_rss_bytes\": ", JsonNumber(row.peak_rss_kib * 1024),
                    ", \"values\": ", JsonNumber(row.values),
                    ", \"value_bytes\": ", JsonNumber(row.value_bytes),
                    ", \"values_evicted\": ", JsonNumber(row.values_evicted),
                    ", \"values_recomputed\": ", JsonNumber(row.values_recomputed),
                    ", \"recomputed_bytes\": ", JsonNumber(row.recomputed_bytes),
                    ", \"recompute_seconds\": ", absl::StrFormat("%.3f", row.recompute_seconds),
                    ", \"mismatches\": ", JsonNumber(row.mismatches),
                    ", \"correct\": ", JsonBool(row.correct()),
                    row.error.empty() ? "" : absl::StrCat(", \"error\": ", JsonQuote(row.error)),
                    "}");
  }
  absl::StrAppend(&json, rows.empty() ? "]" : "\n  ]");
  return json;
}

std::string RecomputeDataFile(const std::vector<RecomputeRow>& rows) {
  std::vector<int64_t> budgets = {0};
  for (int64_t budget : RecomputeBudgets()) budgets.push_back(budget);
  std::string text;
  for (size_t block = 0; block < budgets.size(); ++block) {
    absl::StrAppend(&text, block == 0 ? "" : "\n\n", "# budget ", BudgetName(budgets[block]),
                    ": layers, total seconds, peak RSS bytes, values computed again\n");
    for (const RecomputeRow& row : rows) {
      if (row.budget_bytes != budgets[block] || !row.correct()) continue;
      // A log scale cannot show zero recomputations: gnuplot leaves NaN out.
      const std::string recomputed =
          row.values_recomputed > 0 ? absl::StrCat(row.values_recomputed) : "NaN";
      absl::StrAppend(&text, row.layers, " ", absl::StrFormat("%.3f", row.total_seconds()), " ",
                      row.peak_rss_kib * 1024, " ", recomputed, "\n");
    }
  }
  return text;
}

}  // namespace graphgc::bench
