// Value propagation of the text kernels (StringNormalizer, TfIdfVectorizer) through the public
// API: stop words with and without case sensitivity, case changes, the empty result, [1, C]
// inputs, locale-dependent mappings left without a value; n-grams with skips, every weighting
// mode, int32/int64/string pools, 1-D and 2-D inputs, empty rows, bad attributes and inputs.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "graphgc/graphgc.h"
#include "kernel_test_util.h"

namespace {

using namespace graphgc::kernel_test;  // NOLINT(build/namespaces): shared test helpers
using Strings = std::vector<std::string>;

template <class T>
::testing::AssertionResult Is(const Var& var, const std::vector<T>& expected, const Dims& shape) {
  if (!var.ok()) return ::testing::AssertionFailure() << "the var failed: " << var.status();
  const std::optional<Tensor> value = var.value();
  if (!value.has_value()) return ::testing::AssertionFailure() << "no value";
  const Dims value_shape(value->shape().begin(), value->shape().end());
  if (value_shape != shape) {
    return ::testing::AssertionFailure() << "shape [" << absl::StrJoin(value_shape, ",") << "]";
  }
  const auto data = value->data<T>();
  const std::vector<T> actual(data.begin(), data.end());
  if (actual != expected) {
    return ::testing::AssertionFailure() << "values {" << absl::StrJoin(actual, ", ") << "}";
  }
  return ::testing::AssertionSuccess();
}

Var Words(Graph& g, Strings words, Dims shape) {
  return g.constant(Tensor::from_vector<std::string>(std::move(words), shape));
}

// ---------------------------------------------------------------------------------------------
// StringConcat and StringSplit (opset 20, built at 24); the values are ONNX Runtime 1.32's and
// ONNX's reference's.

TEST(StringConcatKernel, JoinsElementsBroadcasting) {
  Graph g;
  const Var y = gg::opset24::StringConcat(Words(g, {"a", "bc"}, {2}), Words(g, {"!"}, {1}));
  EXPECT_TRUE(Is<std::string>(y, {"a!", "bc!"}, {2}));
}

TEST(StringSplitKernel, AtADelimiterOrWhitespace) {
  Graph g;
  const Var x = Words(g, {"  a b  c ", "a,,b,", "", "x"}, {4});
  auto spaced = gg::opset24::StringSplit(x);
  EXPECT_TRUE(
      Is<std::string>(spaced.Y, {"a", "b", "c", "a,,b,", "", "", "", "", "", "x", "", ""}, {4, 3}));
  EXPECT_TRUE(Is<int64_t>(spaced.Z, {3, 1, 0, 1}, {4}));
  const Var y = Words(g, {"a,,b,", "x"}, {2});
  auto commas = gg::opset24::StringSplit(y, {.delimiter = ","});
  EXPECT_TRUE(Is<std::string>(commas.Y, {"a", "", "b", "", "x", "", "", ""}, {2, 4}));
  EXPECT_TRUE(Is<int64_t>(commas.Z, {4, 1}, {2}));
  auto once = gg::opset24::StringSplit(y, {.delimiter = ",", .maxsplit = 1});
  EXPECT_TRUE(Is<std::string>(once.Y, {"a", ",b,", "x", ""}, {2, 2}));
  auto pairs = gg::opset24::StringSplit(y, {.delimiter = ",,"});
  EXPECT_TRUE(Is<std::string>(pairs.Y, {"a", "b,", "x", ""}, {2, 2}));
  auto grid = gg::opset24::StringSplit(Words(g, {"a b", "c"}, {1, 2}));
  EXPECT_TRUE(Is<std::string>(grid.Y, {"a", "b", "c", ""}, {1, 2, 2}));
  EXPECT_TRUE(Is<int64_t>(grid.Z, {2, 1}, {1, 2}));
}

// Where ONNX's reference (Python's str.split) and ONNX Runtime disagree: no value.
TEST(StringSplitKernel, WhereTheOraclesDisagreeThereIsNoValue) {
  Graph g;
  const Var x = Words(g, {"  a b  c ", "x"}, {2});
  EXPECT_TRUE(HasNoValue(gg::opset24::StringSplit(x, {.maxsplit = 1}).Y));  // "b  c " or "b  c"
  EXPECT_TRUE(
      HasNoValue(gg::opset24::StringSplit(Words(g, {"", "a,b"}, {2}), {.delimiter = ","}).Z));
  EXPECT_TRUE(HasNoValue(gg::opset24::StringSplit(Words(g,
                                                        {"a\x1c"
                                                         "b"},
                                                        {1}))
                             .Y));
  EXPECT_TRUE(HasNoValue(gg::opset24::StringSplit(Words(g, {"a\u00a0b"}, {1})).Y));
}

// ---------------------------------------------------------------------------------------------
// StringNormalizer

TEST(StringNormalizerKernel, StopWordsAndCase) {
  Graph g;
  const Var x = Words(g, {"Monday", "tuesday", "MONDAY", "Wed"}, {4});
  // Case-insensitive (the default): every Monday goes; NONE keeps the others as they are.
  EXPECT_TRUE(Is<std::string>(op::StringNormalizer(x, {.stopwords = Strings{"monday"}}),
                              {"tuesday", "Wed"}, {2}));
  // Case-sensitive: only the exact word goes.
  EXPECT_TRUE(Is<std::string>(op::StringNormalizer(x, {.case_change_action = "LOWER",
                                                       .is_case_sensitive = 1,
                                                       .stopwords = Strings{"MONDAY"}}),
                              {"monday", "tuesday", "wed"}, {3}));
  EXPECT_TRUE(Is<std::string>(op::StringNormalizer(x, {.case_change_action = "UPPER"}),
                              {"MONDAY", "TUESDAY", "MONDAY", "WED"}, {4}));
  // Insensitive with UPPER compares upper-cased: "mOnDaY" matches every Monday.
  EXPECT_TRUE(Is<std::string>(
      op::StringNormalizer(x, {.case_change_action = "UPPER", .stopwords = Strings{"mOnDaY", "x"}}),
      {"TUESDAY", "WED"}, {2}));
}

TEST(StringNormalizerKernel, EverythingDroppedLeavesOneEmptyString) {
  Graph g;
  EXPECT_TRUE(Is<std::string>(
      op::StringNormalizer(Words(g, {"a", "A"}, {2}), {.stopwords = Strings{"a"}}), {""}, {1}));
  EXPECT_TRUE(Is<std::string>(
      op::StringNormalizer(Words(g, {"a", "b"}, {1, 2}), {.stopwords = Strings{"a", "b"}}), {""},
      {1, 1}));
  EXPECT_TRUE(Is<std::string>(
      op::StringNormalizer(Words(g, {"a", "b"}, {1, 2}), {.case_change_action = "UPPER"}),
      {"A", "B"}, {1, 2}));
}

TEST(StringNormalizerKernel, LocaleDependentMappingsGetNoValue) {
  Graph g;
  const Var accented = Words(g, {"\xC3\xA9t\xC3\xA9", "ok"}, {2});  // "été"
  EXPECT_TRUE(HasNoValue(op::StringNormalizer(accented, {.case_change_action = "UPPER"})));
  // Without a case change or a case-insensitive comparison the bytes are kept as they are.
  EXPECT_TRUE(Is<std::string>(
      op::StringNormalizer(accented, {.is_case_sensitive = 1, .stopwords = Strings{"ok"}}),
      {"\xC3\xA9t\xC3\xA9"}, {1}));
  // Turkish upper-cases i to a dotted capital.
  EXPECT_TRUE(HasNoValue(op::StringNormalizer(
      Words(g, {"i"}, {1}), {.case_change_action = "UPPER", .locale = "tr_TR.UTF-8"})));
  EXPECT_TRUE(Is<std::string>(
      op::StringNormalizer(Words(g, {"i"}, {1}),
                           {.case_change_action = "UPPER", .locale = "en_US.UTF-8"}),
      {"I"}, {1}));
}

TEST(StringNormalizerKernel, OnlyCAndOneByCInputs) {
  Graph g;
  const Var x = Words(g, {"a", "b", "c", "d"}, {2, 2});
  const Var y = op::StringNormalizer(x);
  EXPECT_FALSE(y.ok() && y.value().has_value());
  EXPECT_TRUE(HasNoValue(op::StringNormalizer(Words(g, {}, {0}))));
}

// ---------------------------------------------------------------------------------------------
// TfIdfVectorizer

gg::opset17::TfIdfVectorizerAttributes Bigrams(std::string mode, int64_t skip) {
  // Pool: 1-grams {2, 3, 5, 4}, 2-grams {(5, 6), (7, 8), (6, 7)}; output coordinates 0..6.
  return {.max_gram_length = 2,
          .max_skip_count = skip,
          .min_gram_length = 1,
          .mode = std::move(mode),
          .ngram_counts = std::vector<int64_t>{0, 4},
          .ngram_indexes = std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6},
          .pool_int64s = std::vector<int64_t>{2, 3, 5, 4, 5, 6, 7, 8, 6, 7}};
}

TEST(TfIdfVectorizerKernel, CountsUnigramsAndSkippedBigrams) {
  Graph g;
  const Var x =
      g.constant(Tensor::from_vector<int32_t>({1, 1, 3, 3, 3, 7, 8, 6, 7, 5, 6, 8}, {12}));
  // Unigrams: 2 x0, 3 x3, 5 x1, 4 x0. Bigrams without skips: (5,6) 1, (7,8) 1, (6,7) 1.
  EXPECT_TRUE(Is<float>(op::TfIdfVectorizer(x, Bigrams("TF", 0)), {0, 3, 1, 0, 1, 1, 1}, {7}));
  // One skip adds the pairs two apart, (1,3) (1,3) (3,3) (3,7) (3,8) (7,6) (8,7) (6,5) (7,6)
  // (5,8): none is pooled, and the unigrams are still counted once.
  EXPECT_TRUE(Is<float>(op::TfIdfVectorizer(x, Bigrams("TF", 1)), {0, 3, 1, 0, 1, 1, 1}, {7}));
}

TEST(TfIdfVectorizerKernel, SkipsFindDistantPairs) {
  Graph g;
  const Var x = g.constant(Tensor::from_vector<int64_t>({5, 1, 6, 7, 2, 8}, {6}));
  // Unigrams 5 and 2; pairs one apart: (6,7); two apart (with one skip): (5,6) and (7,8).
  EXPECT_TRUE(Is<float>(op::TfIdfVectorizer(x, Bigrams("TF", 0)), {1, 0, 1, 0, 0, 0, 1}, {7}));
  EXPECT_TRUE(Is<float>(op::TfIdfVectorizer(x, Bigrams("TF", 1)), {1, 0, 1, 0, 1, 1, 1}, {7}));
}

TEST(TfIdfVectorizerKernel, WeightingModes) {
  Graph g;
  const Var x = g.constant(Tensor::from_vector<int64_t>({3, 3, 5, 6, 2, 2, 2}, {1, 7}));
  auto attributes = Bigrams("IDF", 0);
  attributes.weights = std::vector<float>{0.5f, 1, 2, 3, 4, 5, 6};
  // Counts: 2 x3, 3 x2, 5 x1, (5,6) x1.
  EXPECT_TRUE(Is<float>(op::TfIdfVectorizer(x, attributes), {0.5f, 1, 2, 0, 4, 0, 0}, {1, 7}));
  attributes.mode = "TFIDF";
  EXPECT_TRUE(Is<float>(op::TfIdfVectorizer(x, attributes), {1.5f, 2, 2, 0, 4, 0, 0}, {1, 7}));
  attributes.weights.reset();
  attributes.mode = "IDF";
  EXPECT_TRUE(Is<float>(op::TfIdfVectorizer(x, attributes), {1, 1, 1, 0, 1, 0, 0}, {1, 7}));
}

TEST(TfIdfVectorizerKernel, WeightsFollowTheirNgramToItsCoordinate) {
  Graph g;
  // Pool 1, 2, 3 on coordinates 2, 0, 1 with weights 10, 20, 30: counts 1 x1, 2 x2, 3 x1.
  const Var x = g.constant(Tensor::from_vector<int64_t>({1, 2, 2, 3}, {4}));
  gg::opset17::TfIdfVectorizerAttributes attributes{.max_gram_length = 1,
                                                    .max_skip_count = 0,
                                                    .min_gram_length = 1,
                                                    .mode = "TFIDF",
                                                    .ngram_counts = std::vector<int64_t>{0},
                                                    .ngram_indexes = std::vector<int64_t>{2, 0, 1},
                                                    .pool_int64s = std::vector<int64_t>{1, 2, 3},
                                                    .weights = std::vector<float>{10, 20, 30}};
  EXPECT_TRUE(Is<float>(op::TfIdfVectorizer(x, attributes), {40, 30, 10}, {3}));
  // Two n-grams on one coordinate: their counts add up (TF); whose weight applies is open.
  attributes.ngram_indexes = std::vector<int64_t>{0, 0, 1};
  EXPECT_TRUE(HasNoValue(op::TfIdfVectorizer(x, attributes)));
  attributes.mode = "TF";
  EXPECT_TRUE(Is<float>(op::TfIdfVectorizer(x, attributes), {3, 1}, {2}));
  // A coordinate past the value budget.
  attributes.ngram_indexes = std::vector<int64_t>{0, 1, int64_t{1} << 40};
  EXPECT_TRUE(HasNoValue(op::TfIdfVectorizer(x, attributes)));
}

TEST(TfIdfVectorizerKernel, StringPoolsBatchesAndIndexes) {
  Graph g;
  const Var x = Words(g, {"a", "b", "a", "c", "c", "c"}, {2, 3});
  // Only 2-grams: (a,b) -> coordinate 2, (c,c) -> coordinate 0; coordinate 1 is never hit.
  const Var y = op::TfIdfVectorizer(x, {.max_gram_length = 2,
                                        .max_skip_count = 0,
                                        .min_gram_length = 2,
                                        .mode = "TF",
                                        .ngram_counts = std::vector<int64_t>{0, 1},
                                        .ngram_indexes = std::vector<int64_t>{1, 2, 0},
                                        .pool_strings = Strings{"a", "a", "b", "c", "c"}});
  EXPECT_TRUE(Is<float>(y, {0, 0, 1, 2, 0, 0}, {2, 3}));
}

TEST(TfIdfVectorizerKernel, EmptyRowsAndBadInputs) {
  Graph g;
  const Var empty = g.constant(Tensor::from_vector<int64_t>({}, {0}));
  EXPECT_TRUE(Is<float>(op::TfIdfVectorizer(empty, Bigrams("TF", 0)), {0, 0, 0, 0, 0, 0, 0}, {7}));
  const Var rows = g.constant(Tensor::from_vector<int64_t>({}, {2, 0}));
  EXPECT_TRUE(
      Is<float>(op::TfIdfVectorizer(rows, Bigrams("TF", 0)), std::vector<float>(14, 0.0f), {2, 7}));
  const Var x = g.constant(Tensor::from_vector<int64_t>({1, 2}, {2}));
  auto bad = Bigrams("TF", 0);
  bad.mode = "BM25";
  EXPECT_TRUE(FailsWith(op::TfIdfVectorizer(x, {bad}), {"mode"}));
  bad = Bigrams("TF", 0);
  bad.ngram_counts = std::vector<int64_t>{0, 5};  // 5 items of 2-grams
  EXPECT_TRUE(FailsWith(op::TfIdfVectorizer(x, {bad}), {"whole 2-grams"}));
  bad = Bigrams("TF", 0);
  bad.pool_int64s = std::vector<int64_t>{2, 2, 5, 4, 5, 6, 7, 8, 6, 7};  // 1-gram 2 twice
  EXPECT_TRUE(HasNoValue(op::TfIdfVectorizer(x, bad)));
  // A string input against an integer pool.
  EXPECT_TRUE(HasNoValue(op::TfIdfVectorizer(Words(g, {"a"}, {1}), Bigrams("TF", 0))));
}

}  // namespace

// RegexFullMatch (opset 20): RE2 syntax, the whole string; a pattern RE2 refuses is an error.
TEST(RegexFullMatchKernel, MatchesWholeStringsWithRe2) {
  Graph g;
  const Var x = g.constant(Tensor::from_vector<std::string>(
      {"www.google.com", "www.facebook.com", "google.com", "", "www.google.com/x"}, {5}));
  const Var y =
      One(NodeAt("RegexFullMatch", {x}, {{"pattern", std::string(R"(www\.[\w.-]+\.\bcom)")}}, 20));
  ASSERT_TRUE(y.value().has_value()) << y.value_status();
  const std::vector<bool> expected = {true, true, false, false, false};
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(y.value()->data<bool>()[i], expected[i]) << i;
  }
  // RE2 has no backreferences: an error naming the attribute, not a crash.
  const Var bad = One(NodeAt("RegexFullMatch", {x}, {{"pattern", std::string(R"((a)\1)")}}, 20));
  EXPECT_FALSE(bad.ok() && bad.value().has_value());
  if (!bad.ok())
    EXPECT_NE(std::string(bad.status().message()).find("pattern"), std::string::npos);
  else
    EXPECT_NE(std::string(bad.value_status().message()).find("pattern"), std::string::npos);
}
