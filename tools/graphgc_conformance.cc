// graphgc-conformance DIR... — checks propagated values against ONNX backend test cases.
//
// Each DIR is one case (model.onnx plus test_data_set_*) or a folder of cases. One line per case:
//   PASS name | FAIL name: output, first mismatching index, got, expected | SKIP name: reason |
//   BAD_DATA name: how the case's test data contradicts its model (not counted as a failure)
// then "N passed, N failed, N skipped, N with bad test data". With --json, one JSON object instead.
// With
// --known-differences FILE (conformance.h says its format), failures and skips listed there are
// reported with their reason and do not make the exit status non-zero; any other failure does,
// and so does a skip the file does not list, so that every case without a value is explained.
// A listed failure that passes is reported as "listed but passes" (the suites share the list, and
// their data differ); a listed skip that passes fails the run, so that the list stays true.
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "conformance.h"

namespace {

using graphgc::conformance::CaseResult;
using graphgc::conformance::Verdict;

std::string JsonString(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += absl::StrCat("\\u00", c < 16 ? "0" : "", absl::Hex(c));
    } else {
      out += c;
    }
  }
  return out + "\"";
}

const char* VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kPass:
      return "PASS";
    case Verdict::kFail:
      return "FAIL";
    case Verdict::kSkip:
      return "SKIP";
    case Verdict::kBadData:
      return "BAD_DATA";
  }
  return "?";
}

int Usage() {
  std::fprintf(
      stderr,
      "usage: graphgc-conformance [--json] [--known-differences FILE] DIR...\n"
      "  DIR: an ONNX backend test case (model.onnx, test_data_set_*) or a folder of them\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  bool json = false;
  std::string known_path;
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--json") == 0) {
      json = true;
    } else if (std::strcmp(argv[i], "--known-differences") == 0 && i + 1 < argc) {
      known_path = argv[++i];
    } else if (argv[i][0] == '-') {
      return Usage();
    } else {
      paths.push_back(argv[i]);
    }
  }
  if (paths.empty()) return Usage();
  graphgc::conformance::KnownDifferences known;
  const bool check_listed = !known_path.empty();
  if (!known_path.empty()) {
    std::string error;
    known = graphgc::conformance::ReadKnownDifferences(known_path, error);
    if (!error.empty()) {
      std::fprintf(stderr, "graphgc-conformance: %s\n", error.c_str());
      return 2;
    }
  }
  std::vector<std::string> missing;
  const std::vector<std::string> cases = graphgc::conformance::FindCases(paths, missing);
  for (const std::string& path : missing) {
    std::fprintf(stderr, "graphgc-conformance: %s is not a test case or a folder of them\n",
                 path.c_str());
  }
  int passed = 0, failed = 0, skipped = 0, bad_data = 0, unexpected = 0, unlisted_skips = 0;
  int stale_listings = 0;  // listed as skipped, yet passing
  std::string json_cases;
  for (const std::string& dir : cases) {
    const std::string name = std::filesystem::path(dir).filename().string();
    const auto tolerance = known.tolerances.find(name);
    const bool loosened = tolerance != known.tolerances.end();
    const CaseResult result = graphgc::conformance::RunCase(
        dir, loosened ? std::optional<double>(tolerance->second.atol) : std::nullopt);
    std::string detail = result.detail;
    if (loosened) {
      detail += absl::StrCat(detail.empty() ? "" : " ", "[atol ", tolerance->second.atol, ": ",
                             tolerance->second.reason, "]");
    }
    if (result.verdict == Verdict::kPass) {
      ++passed;
      // Not counted: the two suites share the list, and a case may fail on one suite's data only.
      if (known.failures.count(result.name) > 0) detail = "listed as a known difference but passes";
      if (known.SkipReason(result.name) != nullptr) {
        detail = "listed as skipped but passes";
        ++stale_listings;
      }
    }
    if (result.verdict == Verdict::kBadData) ++bad_data;
    if (result.verdict == Verdict::kSkip) {
      ++skipped;
      const std::string* reason = known.SkipReason(result.name);
      if (reason != nullptr) {
        detail += absl::StrCat(" [listed: ", *reason, "]");
      } else if (check_listed) {
        ++unlisted_skips;
        detail += " [not listed in the known differences]";
      }
    }
    if (result.verdict == Verdict::kFail) {
      ++failed;
      auto it = known.failures.find(result.name);
      if (it == known.failures.end()) {
        ++unexpected;
      } else {
        detail += absl::StrCat(" [known difference: ", it->second, "]");
      }
    }
    if (json) {
      absl::StrAppend(&json_cases, json_cases.empty() ? "" : ",\n",
                      "  {\"name\": ", JsonString(result.name), ", \"verdict\": \"",
                      VerdictName(result.verdict), "\", \"detail\": ", JsonString(detail), "}");
    } else if (detail.empty()) {
      std::printf("%s %s\n", VerdictName(result.verdict), result.name.c_str());
    } else {
      std::printf("%s %s: %s\n", VerdictName(result.verdict), result.name.c_str(), detail.c_str());
    }
    std::fflush(stdout);
  }
  if (json) {
    std::printf(
        "{\"cases\": [\n%s\n], \"passed\": %d, \"failed\": %d, \"skipped\": %d, "
        "\"bad_test_data\": %d, \"unexpected_failures\": %d, \"unlisted_skips\": %d, "
        "\"stale_listings\": %d}\n",
        json_cases.c_str(), passed, failed, skipped, bad_data, unexpected, unlisted_skips,
        stale_listings);
  } else {
    std::printf("%d passed, %d failed, %d skipped, %d with bad test data\n", passed, failed,
                skipped, bad_data);
    if (unexpected > 0) std::printf("%d failures not listed as known differences\n", unexpected);
    if (unlisted_skips > 0) std::printf("%d skips not listed with a reason\n", unlisted_skips);
    if (stale_listings > 0) {
      std::printf("%d passing cases still listed as skipped\n", stale_listings);
    }
  }
  return unexpected == 0 && unlisted_skips == 0 && stale_listings == 0 && missing.empty() ? 0 : 1;
}
