// Conformance of propagated values: runs an ONNX backend test case (a directory with model.onnx
// and test_data_set_*/input_*.pb, output_*.pb) by importing the model with its inputs bound as
// constants, and compares every output's propagated value with the expected tensor, within
// ONNX's tolerance (rtol 1e-3, atol 1e-7; integers, bools and strings exactly).
//
// Used by graphgc-conformance (tools/graphgc_conformance.cc) and its ctest.
#ifndef GRAPHGC_TOOLS_CONFORMANCE_H_
#define GRAPHGC_TOOLS_CONFORMANCE_H_

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace graphgc::conformance {

// kBadData: the case's own test data contradicts its model (an input of another rank or fixed dim
// than the model declares, which ONNX Runtime refuses too): not graphgc's failure, not a pass.
enum class Verdict { kPass, kFail, kSkip, kBadData };

struct CaseResult {
  std::string name;  // the case directory's name
  Verdict verdict = Verdict::kSkip;
  // FAIL: output, first mismatching index, got, expected; SKIP, BAD_DATA: the reason
  std::string detail;
};

// Every case directory under each path: a path holding model.onnx is one case; otherwise the
// directories below it that hold one (sorted by name). Unreadable paths are reported as missing.
std::vector<std::string> FindCases(const std::vector<std::string>& paths,
                                   std::vector<std::string>& missing);

// `atol`: the absolute tolerance for floating-point outputs, when not ONNX's default (1e-7).
CaseResult RunCase(const std::string& directory, std::optional<double> atol = std::nullopt);

// The cases whose failure or skip is known and explained, read from a file with one case per
// line ('#' starts a comment):
//   NAME REASON         a failure that is a known difference (graphgc follows ONNX Runtime, or
//                       the case's own data is wrong)
//   SKIP NAME REASON    a case graphgc gives no value for, and why; NAME may end in '*' to cover
//                       every case it starts (test_image_decoder_*)
//   ATOL NAME A REASON  a case checked with the absolute tolerance A, as ONNX's own tests check it
struct KnownDifferences {
  struct Tolerance {
    double atol = 0;
    std::string reason;
  };
  std::map<std::string, std::string> failures;
  std::map<std::string, Tolerance> tolerances;
  std::vector<std::pair<std::string, std::string>> skips;  // name or prefix*, reason

  // The reason listed for skipping `name`, or null when its skip is not listed.
  const std::string* SkipReason(const std::string& name) const;
};

KnownDifferences ReadKnownDifferences(const std::string& path, std::string& error);

}  // namespace graphgc::conformance

#endif  // GRAPHGC_TOOLS_CONFORMANCE_H_
