// The big-model scenario: graphgc::fold on generated language models from 256 MiB of weights up to
// a size given on the command line, against `cp` of the same data on the same disk.
//
// Each row writes a decoder-only transformer (tools/model_gen/llm_model.h: half its weight bytes
// behind a foldable Transpose) with its weights in external data, in a folder of its own under
// the chosen directory; copies the data file with `cp` (the reference: the least any tool that
// writes a model of this size must spend); then, in a forked child, loads the model without its
// data, folds it with FoldOptions::external_data_file into a second folder and saves it. The row
// reports the data's bytes, the fold's time, peak RSS (the child's VmHWM) and throughput against
// cp's, and deletes its files. `sync` runs, untimed, before cp and before the fold, so that
// neither pays for the other's writes; both read the data from a warm page cache (the model was
// just written). A row is wrong when the fold fails or folds fewer than the model's three weight
// Transposes per layer.
// Not in "all": it writes twice the model's size to disk and runs only when named.
#ifndef GRAPHGC_BENCH_BIG_MODEL_SCENARIO_H_
#define GRAPHGC_BENCH_BIG_MODEL_SCENARIO_H_

#include <cstdint>
#include <string>
#include <vector>

namespace graphgc::bench {

inline constexpr char kBigModelPart[] = "big-model";

struct BigModelRow {
  int64_t layers = 0;
  int64_t width = 0;
  int64_t data_bytes = 0;  // the model's external data, as written
  double write_seconds = 0;
  double cp_seconds = 0;
  double fold_seconds = 0;  // load, fold and save, in the child
  int64_t peak_rss_kib = -1;
  int64_t nodes_folded = 0;
  int64_t output_bytes = 0;  // the folded model's external data
  std::string error;         // set when the row did not run through

  bool correct() const { return error.empty(); }
  double fold_gb_per_second() const;
  double cp_gb_per_second() const;
};

// The weight sizes of the rows: 256 MiB, doubling, up to and including `max_bytes`.
std::vector<int64_t> BigModelSizes(int64_t max_bytes);
// One row per size, each in `directory` (created if needed; everything written is deleted).
std::vector<BigModelRow> RunBigModelScenario(const std::vector<int64_t>& sizes,
                                             const std::string& directory);

void PrintBigModelRows(const std::vector<BigModelRow>& rows);
// The rows as a JSON array, indented as a member of the suite's document (report.h).
std::string BigModelRowsToJson(const std::vector<BigModelRow>& rows);
// The chart's data, one line per correct row: data bytes, fold seconds, cp seconds, peak RSS
// bytes.
std::string BigModelDataFile(const std::vector<BigModelRow>& rows);

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_BIG_MODEL_SCENARIO_H_
