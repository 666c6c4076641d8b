// graphgc-conformance DIR... — checks propagated values against ONNX backend test cases.
//
// Each DIR is one case (model.onnx plus test_data_set_*) or a folder of cases. One line per case:
//   PASS name | FAIL name: output, first mismatching index, got, expected | SKIP name: reason
// then "N passed, N failed, N skipped". With --json, one JSON object instead. With
// --known-differences FILE, failures listed there (with their reason) are reported but do not
// make the exit status non-zero; any other failure does.
#include <cstdio>
#include <cstring>
#include <map>
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
  std::map<std::string, std::string> known;
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
  int passed = 0, failed = 0, skipped = 0, unexpected = 0;
  std::string json_cases;
  for (const std::string& dir : cases) {
    const CaseResult result = graphgc::conformance::RunCase(dir);
    std::string detail = result.detail;
    if (result.verdict == Verdict::kPass) ++passed;
    if (result.verdict == Verdict::kSkip) ++skipped;
    if (result.verdict == Verdict::kFail) {
      ++failed;
      auto it = known.find(result.name);
      if (it == known.end()) {
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
        "\"unexpected_failures\": %d}\n",
        json_cases.c_str(), passed, failed, skipped, unexpected);
  } else {
    std::printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
  }
  return unexpected == 0 && missing.empty() ? 0 : 1;
}
