// graphgc-fold's argument parsing (tools/fold_cli.h): byte counts with and without units, and
// each flag reaching its option. The command's behaviour on files is tests/fold_cli_test.sh's.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "fold_cli.h"

namespace graphgc::tools {
namespace {

using ::testing::HasSubstr;

TEST(ParseByteCountTest, TakesBinaryUnits) {
  EXPECT_EQ(ParseByteCount("0"), 0);
  EXPECT_EQ(ParseByteCount("1500"), 1500);
  EXPECT_EQ(ParseByteCount("1500B"), 1500);
  EXPECT_EQ(ParseByteCount("64K"), 64 << 10);
  EXPECT_EQ(ParseByteCount("64M"), int64_t{64} << 20);
  EXPECT_EQ(ParseByteCount("64m"), int64_t{64} << 20);
  EXPECT_EQ(ParseByteCount("64MiB"), int64_t{64} << 20);
  EXPECT_EQ(ParseByteCount("64MB"), int64_t{64} << 20);
  EXPECT_EQ(ParseByteCount("2G"), int64_t{2} << 30);
  EXPECT_EQ(ParseByteCount("3T"), int64_t{3} << 40);
  EXPECT_EQ(ParseByteCount("8388607T"), int64_t{8388607} << 40);  // the largest count of TiB
}

TEST(ParseByteCountTest, RefusesWhatIsNotACount) {
  for (const char* text : {"", "M", "-1", "-1M", "64Q", "64MM", "64 M", "1.5G", "64Mi B", "0x40",
                           "8388608T", "99999999999999999999"}) {
    EXPECT_EQ(ParseByteCount(text), std::nullopt) << text;
  }
}

absl::StatusOr<FoldCommand> Parse(std::vector<const char*> args) { return ParseFoldCommand(args); }

TEST(ParseFoldCommandTest, ByteFlagsTakeUnitsInBothForms) {
  absl::StatusOr<FoldCommand> command = Parse({"in.onnx", "out.onnx", "--memory-budget=64M",
                                               "--max-fold-bytes", "2K", "--external-data=1M"});
  ASSERT_TRUE(command.ok()) << command.status();
  EXPECT_EQ(command->options.memory_budget_bytes, int64_t{64} << 20);
  EXPECT_EQ(command->options.max_fold_bytes, 2048);
  EXPECT_EQ(command->external_data_threshold, int64_t{1} << 20);
  EXPECT_EQ(command->input_path, "in.onnx");
  EXPECT_EQ(command->output_path, "out.onnx");
}

TEST(ParseFoldCommandTest, ABadByteCountNamesTheFlagAndTheText) {
  absl::StatusOr<FoldCommand> command = Parse({"in.onnx", "out.onnx", "--memory-budget", "64Q"});
  ASSERT_FALSE(command.ok());
  EXPECT_EQ(command.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(command.status().message(), HasSubstr("--memory-budget takes a byte count"));
  EXPECT_THAT(command.status().message(), HasSubstr("'64Q'"));
  EXPECT_FALSE(Parse({"in.onnx", "out.onnx", "--external-data=-1"}).ok());
  EXPECT_FALSE(Parse({"in.onnx", "out.onnx", "--max-fold-bytes"}).ok());  // no value
}

}  // namespace
}  // namespace graphgc::tools
