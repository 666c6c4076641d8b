// Conformance of propagated values: runs an ONNX backend test case (a directory with model.onnx
// and test_data_set_*/input_*.pb, output_*.pb) by importing the model with its inputs bound as
// constants, and compares every output's propagated value with the expected tensor, within
// ONNX's tolerance (rtol 1e-3, atol 1e-7; integers, bools and strings exactly).
//
// Used by graphgc-conformance (tools/graphgc_conformance.cc) and its ctest.
#ifndef GRAPHGC_TOOLS_CONFORMANCE_H_
#define GRAPHGC_TOOLS_CONFORMANCE_H_

#include <map>
#include <string>
#include <vector>

namespace graphgc::conformance {

enum class Verdict { kPass, kFail, kSkip };

struct CaseResult {
  std::string name;  // the case directory's name
  Verdict verdict = Verdict::kSkip;
  std::string detail;  // FAIL: output, first mismatching index, got, expected; SKIP: the reason
};

// Every case directory under each path: a path holding model.onnx is one case; otherwise the
// directories below it that hold one (sorted by name). Unreadable paths are reported as missing.
std::vector<std::string> FindCases(const std::vector<std::string>& paths,
                                   std::vector<std::string>& missing);

CaseResult RunCase(const std::string& directory);

// "name reason" per line ('#' comments): cases whose failure is a known, explained difference.
std::map<std::string, std::string> ReadKnownDifferences(const std::string& path,
                                                        std::string& error);

}  // namespace graphgc::conformance

#endif  // GRAPHGC_TOOLS_CONFORMANCE_H_
