// TextTable: aligned columns for the benchmark's text output.
//
// The first column is left-aligned (a label), the others right-aligned (figures); a cell wider
// than its column pushes the rest of its row right rather than being cut.
#ifndef GRAPHGC_BENCH_TEXT_TABLE_H_
#define GRAPHGC_BENCH_TEXT_TABLE_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/types/span.h"

namespace graphgc::bench {

struct TextColumn {
  std::string header;
  int width = 0;
};

class TextTable {
 public:
  explicit TextTable(std::vector<TextColumn> columns) : columns_(std::move(columns)) {}

  std::string Header() const;  // the headers, one line
  // One line; `cells` has one entry per column (missing ones are blank).
  std::string Row(absl::Span<const std::string> cells) const;

 private:
  std::vector<TextColumn> columns_;
};

// "1.5 GiB", "78.1 KiB", "72 B": bytes for a reader, three significant digits or so.
std::string HumanBytes(double bytes);

}  // namespace graphgc::bench

#endif  // GRAPHGC_BENCH_TEXT_TABLE_H_
