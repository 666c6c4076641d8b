// TfIdfVectorizer: counts the pool's n-grams in each row of a [C] or [B, C] input of int32, int64
// (pool_int64s) or strings (pool_strings), then weighs the counts (TF: as they are; IDF: 1 or the
// weight where the count is positive; TFIDF: count times weight).
//
// N-grams are matched as ONNX Runtime does: 1-grams once per position; longer ones for every
// skip distance 1..max_skip_count+1, each n-gram's items that distance apart, every length in
// [max(min_gram_length, 2), max_gram_length] counted from each start. The weight of the pool's
// i-th n-gram, weights[i], applies at its coordinate ngram_indexes[i] (as ONNX says and ONNX
// Runtime 1.30 does; older runtimes used weights[coordinate]). Attribute sets ONNX Runtime would
// read out of bounds or that are ambiguous (an n-gram twice in the pool, two weighted n-grams on
// one coordinate, more n-grams than ngram_indexes) get no value.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/text/text_kernels.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

enum class Weighting { kTf, kIdf, kTfIdf };

struct TfIdfAttributes {
  Weighting mode = Weighting::kTf;
  int64_t min_gram = 1;
  int64_t max_gram = 1;
  int64_t max_skip = 0;
  std::vector<int64_t> ngram_counts;
  std::vector<int64_t> ngram_indexes;
  std::vector<float> coordinate_weights;  // per output coordinate (1 without weights)
  int64_t output_size = 0;                // max(ngram_indexes) + 1
};

absl::Status AttributeError(absl::string_view name, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("attribute '", name, "' ", why));
}

absl::StatusOr<TfIdfAttributes> ReadAttributes(const KernelContext& ctx) {
  TfIdfAttributes a;
  const std::string mode = ctx.string_attribute("mode");
  if (mode == "TF") {
    a.mode = Weighting::kTf;
  } else if (mode == "IDF") {
    a.mode = Weighting::kIdf;
  } else if (mode == "TFIDF") {
    a.mode = Weighting::kTfIdf;
  } else {
    return AttributeError("mode", absl::StrCat("is \"", mode, "\", not TF, IDF or TFIDF"));
  }
  a.min_gram = ctx.int_attribute("min_gram_length");
  a.max_gram = ctx.int_attribute("max_gram_length");
  a.max_skip = ctx.int_attribute("max_skip_count");
  a.ngram_counts = ctx.ints_attribute("ngram_counts").value_or(std::vector<int64_t>{});
  a.ngram_indexes = ctx.ints_attribute("ngram_indexes").value_or(std::vector<int64_t>{});
  const std::vector<float> weights = ctx.floats_attribute("weights").value_or(std::vector<float>{});
  if (a.min_gram < 1) return AttributeError("min_gram_length", "must be positive");
  if (a.max_gram < a.min_gram) return AttributeError("max_gram_length", "is below min_gram_length");
  if (a.max_skip < 0) return AttributeError("max_skip_count", "is negative");
  if (a.ngram_counts.empty() || a.max_gram > static_cast<int64_t>(a.ngram_counts.size())) {
    return AttributeError("ngram_counts", "does not cover max_gram_length");
  }
  if (a.ngram_indexes.empty()) return AttributeError("ngram_indexes", "is empty");
  for (int64_t index : a.ngram_indexes) {
    if (index < 0) return AttributeError("ngram_indexes", absl::StrCat("holds ", index));
    a.output_size = std::max(a.output_size, index + 1);
  }
  if (!weights.empty() && weights.size() != a.ngram_indexes.size()) {
    return AttributeError("weights", "and ngram_indexes differ in length");
  }
  if (!ctx.within_budget(DataType::kFloat, a.output_size)) {
    return absl::ResourceExhaustedError(
        "ngram_indexes ask for more coordinates than the budget holds");
  }
  a.coordinate_weights.assign(static_cast<size_t>(a.output_size), 0.0f);
  std::vector<bool> taken(static_cast<size_t>(a.output_size), false);
  for (size_t i = 0; i < a.ngram_indexes.size(); ++i) {
    const size_t coordinate = static_cast<size_t>(a.ngram_indexes[i]);
    // Counts on a shared coordinate add up (as ONNX Runtime counts); whose weight applies is open.
    if (taken[coordinate] && a.mode != Weighting::kTf) {
      return Decline("ngram_indexes puts two weighted n-grams on one coordinate");
    }
    taken[coordinate] = true;
    a.coordinate_weights[coordinate] = weights.empty() ? 1.0f : weights[i];
  }
  return a;
}

// The pool's n-grams of the lengths counted, each with its id (its position among all the
// pool's n-grams, which ngram_indexes maps to an output coordinate).
template <class Item>
absl::StatusOr<absl::flat_hash_map<std::vector<Item>, int64_t>> ReadPool(
    const TfIdfAttributes& a, const std::vector<Item>& pool) {
  // [begin, end) of the pool's n-grams of each length n = i + 1, checked before any is read.
  const int64_t total = static_cast<int64_t>(pool.size());
  std::vector<std::pair<int64_t, int64_t>> ranges;
  for (size_t i = 0; i < a.ngram_counts.size(); ++i) {
    const int64_t n = static_cast<int64_t>(i) + 1;
    const int64_t begin = a.ngram_counts[i];
    const int64_t end = i + 1 < a.ngram_counts.size() ? a.ngram_counts[i + 1] : total;
    if (begin < 0 || end < begin || end > total || (end - begin) % n != 0) {
      return AttributeError("ngram_counts",
                            absl::StrCat("does not split the pool into whole ", n, "-grams"));
    }
    ranges.emplace_back(begin, end);
  }
  absl::flat_hash_map<std::vector<Item>, int64_t> ngrams;
  int64_t id = 0;
  for (size_t i = 0; i < ranges.size(); ++i) {
    const int64_t n = static_cast<int64_t>(i) + 1;
    for (int64_t at = ranges[i].first; at < ranges[i].second; at += n, ++id) {
      if (n < a.min_gram || n > a.max_gram) continue;
      std::vector<Item> ngram(pool.begin() + at, pool.begin() + at + n);
      if (!ngrams.emplace(std::move(ngram), id).second)
        return Decline("the pool repeats an n-gram");
    }
  }
  if (id > static_cast<int64_t>(a.ngram_indexes.size())) {
    return Decline("the pool has more n-grams than ngram_indexes");
  }
  return ngrams;
}

// Adds the counts of row [first, first + size) to `counts` (one per output coordinate).
template <class Item>
void CountRow(const TfIdfAttributes& a,
              const absl::flat_hash_map<std::vector<Item>, int64_t>& ngrams,
              const std::vector<Item>& row, uint32_t* counts) {
  auto record = [&](const std::vector<Item>& sample) {
    const auto hit = ngrams.find(sample);
    if (hit != ngrams.end()) ++counts[a.ngram_indexes[static_cast<size_t>(hit->second)]];
  };
  const int64_t size = static_cast<int64_t>(row.size());
  std::vector<Item> sample;
  int64_t shortest = a.min_gram;
  if (shortest == 1) {
    for (const Item& item : row) {
      sample.assign(1, item);
      record(sample);
    }
    if (++shortest > a.max_gram) return;
  }
  for (int64_t skip = 1; skip <= a.max_skip + 1; ++skip) {
    for (int64_t start = 0; start + skip * (shortest - 1) < size; ++start) {
      sample.clear();
      for (int64_t n = 1, at = start; n <= a.max_gram && at < size; ++n, at += skip) {
        sample.push_back(row[static_cast<size_t>(at)]);
        if (n >= shortest) record(sample);
      }
    }
  }
}

template <class Item, class X>
KernelResult Vectorize(const KernelContext& ctx, const TfIdfAttributes& a,
                       const std::vector<Item>& pool) {
  GRAPHGC_ASSIGN_OR_RETURN(const auto ngrams, ReadPool(a, pool));
  const Tensor& x = ctx.input(0);
  const int64_t rows = x.rank() == 2 ? x.shape()[0] : 1;
  const int64_t columns = x.shape().back();
  Shape out_shape = {a.output_size};
  if (x.rank() == 2) out_shape.insert(out_shape.begin(), rows);
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(DataType::kFloat, out_shape));
  std::vector<uint32_t> counts(static_cast<size_t>(a.output_size));
  const absl::Span<const X> values = x.data<X>();
  float* y = out.mutable_data<float>().data();
  std::vector<Item> row;
  for (int64_t r = 0; r < rows; ++r) {
    row.assign(values.begin() + r * columns, values.begin() + (r + 1) * columns);
    std::fill(counts.begin(), counts.end(), 0u);
    CountRow(a, ngrams, row, counts.data());
    for (int64_t i = 0; i < a.output_size; ++i) {
      const float count = static_cast<float>(counts[static_cast<size_t>(i)]);
      const float weight = a.coordinate_weights[static_cast<size_t>(i)];
      float& value = y[r * a.output_size + i];
      switch (a.mode) {
        case Weighting::kTf:
          value = count;
          break;
        case Weighting::kIdf:
          value = count > 0 ? weight : 0.0f;
          break;
        case Weighting::kTfIdf:
          value = count * weight;
          break;
      }
    }
  }
  return KernelOutputs{std::move(out).freeze()};
}

KernelResult TfIdfVectorizerKernel(const KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.rank() != 1 && x.rank() != 2) {
    return ctx.input_error(0, absl::StrCat("has shape ", ShapeToString(x.shape()),
                                           "; only [C] and [B, C] are vectorized"));
  }
  if (x.rank() == 2 && x.shape()[0] == 0) return Decline("an input of no rows");
  GRAPHGC_ASSIGN_OR_RETURN(const TfIdfAttributes a, ReadAttributes(ctx));
  const std::optional<std::vector<std::string>> strings = ctx.strings_attribute("pool_strings");
  const std::optional<std::vector<int64_t>> ints = ctx.ints_attribute("pool_int64s");
  if (strings.has_value() == ints.has_value()) {
    return absl::InvalidArgumentError(
        "exactly one of attributes 'pool_strings' and 'pool_int64s' is needed");
  }
  switch (x.dtype()) {
    case DataType::kString:
      if (strings.has_value()) return Vectorize<std::string, std::string>(ctx, a, *strings);
      break;
    case DataType::kInt64:
      if (ints.has_value()) return Vectorize<int64_t, int64_t>(ctx, a, *ints);
      break;
    case DataType::kInt32:
      if (ints.has_value()) return Vectorize<int64_t, int32_t>(ctx, a, *ints);
      break;
    default:
      break;
  }
  return Decline("the input's element type does not match the pool's");
}

}  // namespace

void RegisterTfIdfVectorizerKernels(KernelTable& table) {
  // TfIdfVectorizerKernel's cases (strings with pool_strings, the integers with pool_int64s).
  table.add("", "TfIdfVectorizer", 9, KernelTable::kLatest,
            {{"T", {DataType::kString, DataType::kInt64, DataType::kInt32}}},
            TfIdfVectorizerKernel);
}

}  // namespace graphgc::kernels
