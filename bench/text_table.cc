#include "text_table.h"

#include <cmath>
#include <iterator>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace graphgc::bench {

std::string TextTable::Header() const {
  std::vector<std::string> headers;
  headers.reserve(columns_.size());
  for (const TextColumn& column : columns_) headers.push_back(column.header);
  return Row(headers);
}

std::string TextTable::Row(absl::Span<const std::string> cells) const {
  std::string line;
  for (size_t i = 0; i < columns_.size(); ++i) {
    const std::string cell = i < cells.size() ? cells[i] : "";
    const int width = columns_[i].width;
    if (i == 0) {
      absl::StrAppend(&line, absl::StrFormat("%-*s", width, cell));
    } else {
      absl::StrAppend(&line, " ", absl::StrFormat("%*s", width, cell));
    }
  }
  line.push_back('\n');
  return line;
}

std::string HumanBytes(double bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (std::abs(bytes) >= 1024 && unit + 1 < static_cast<int>(std::size(kUnits))) {
    bytes /= 1024;
    ++unit;
  }
  if (unit == 0) return absl::StrFormat("%.0f B", bytes);
  const double magnitude = std::abs(bytes);
  const int decimals = magnitude < 10 ? 2 : magnitude < 100 ? 1 : 0;
  return absl::StrFormat("%.*f %s", decimals, bytes, kUnits[unit]);
}

}  // namespace graphgc::bench
