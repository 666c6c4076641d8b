#include "scenario_row.h"

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "json_text.h"

namespace graphgc::bench {
namespace {

template <class T>
std::string FieldText(const T& value) {
  if constexpr (std::is_same_v<T, bool>) {
    return value ? "1" : "0";
  } else if constexpr (std::is_same_v<T, std::string>) {
    return std::string(value.substr(0, value.find('\n')));
  } else {
    return absl::StrCat(value);
  }
}

template <class T>
bool ParseField(absl::string_view text, T& field) {
  if constexpr (std::is_same_v<T, bool>) {
    if (text != "0" && text != "1") return false;
    field = text == "1";
    return true;
  } else if constexpr (std::is_same_v<T, std::string>) {
    field = std::string(text);
    return true;
  } else if constexpr (std::is_same_v<T, double>) {
    return absl::SimpleAtod(text, &field);
  } else {
    return absl::SimpleAtoi(text, &field);
  }
}

template <class T>
std::string FieldJson(const T& value) {
  if constexpr (std::is_same_v<T, bool>) {
    return JsonBool(value);
  } else if constexpr (std::is_same_v<T, std::string>) {
    return JsonQuote(value);
  } else {
    return JsonNumber(value);
  }
}

}  // namespace

absl::string_view OutcomeName(RowOutcome outcome) {
  switch (outcome) {
    case RowOutcome::kRan:
      return "ran";
    case RowOutcome::kSkipped:
      return "skipped";
    case RowOutcome::kFailed:
      return "failed";
  }
  return "unknown";
}

std::string MetricsToText(const RowMetrics& metrics) {
  std::string text;
  ForEachMetric(metrics, [&](absl::string_view key, const auto& value) {
    absl::StrAppend(&text, key, "=", FieldText(value), "\n");
  });
  return text;
}

absl::StatusOr<RowMetrics> MetricsFromText(absl::string_view text) {
  absl::flat_hash_map<std::string, std::string> lines;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    const std::pair<std::string, std::string> kv = absl::StrSplit(line, absl::MaxSplits('=', 1));
    lines[kv.first] = kv.second;
  }
  RowMetrics metrics;
  absl::Status status;
  size_t known = 0;
  ForEachMetric(metrics, [&](absl::string_view key, auto& field) {
    if (!status.ok()) return;
    const auto line = lines.find(key);
    if (line == lines.end()) {
      status = absl::DataLossError(absl::StrCat("the child's report has no ", key));
    } else if (!ParseField(line->second, field)) {
      status = absl::DataLossError(
          absl::StrCat("the child's report has a malformed ", key, ": '", line->second, "'"));
    }
    ++known;
  });
  if (!status.ok()) return status;
  if (lines.size() != known) {
    return absl::DataLossError("the child's report has a line this version does not know");
  }
  return metrics;
}

std::string RowToJson(const ScenarioRow& row) {
  std::vector<std::string> members = {
      absl::StrCat("\"mode\": ", JsonQuote(SeedModeName(row.mode))),
      absl::StrCat("\"n\": ", row.n),
      absl::StrCat("\"status\": ", JsonQuote(OutcomeName(row.outcome))),
  };
  if (row.outcome == RowOutcome::kRan) {
    ForEachMetric(row.metrics, [&](absl::string_view key, const auto& value) {
      members.push_back(absl::StrCat(JsonQuote(key), ": ", FieldJson(value)));
    });
    members.push_back(absl::StrCat("\"propagation_ns_per_op\": ",
                                   JsonNumber(row.metrics.propagation_ns_per_op())));
  } else {
    members.push_back(absl::StrCat("\"note\": ", JsonQuote(row.note)));
  }
  return absl::StrCat("{", absl::StrJoin(members, ", "), "}");
}

}  // namespace graphgc::bench
