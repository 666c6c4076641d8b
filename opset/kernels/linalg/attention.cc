// Attention (opsets 23, 24): softmax(Q K^T * scale + bias) V per head, with the inputs as
// [batch, heads, sequence, head_size] (4-D) or [batch, sequence, heads * head_size] (3-D, with
// q_num_heads and kv_num_heads). Grouped-query attention shares each K/V head among
// q_heads / kv_heads consecutive Q heads. past_key/past_value are put before K/V along the
// sequence (and given back as present_key/present_value). The bias is the attention mask (bool:
// false masks; float: added), shorter than the total sequence by masked positions, plus the
// causal mask (key j masked for query i when j > past + i) with is_causal; softcap squashes the
// scores to softcap * tanh(score / softcap) before the softmax.
//
// The products run through the batched GEMM in the work type (float, or double for double).
// No value where ONNX's versions and runtimes disagree or the kernel does not go: a query row
// with every key masked (ONNX 1.19's function body gives NaN; ONNX Runtime 1.32 and ONNX's
// current reference give 0), softcap with a bias (ONNX 1.19 adds the bias first and squashes
// after; ONNX Runtime 1.32 and ONNX's current reference squash the products, then add), a
// softmax_precision of a 16-bit type, and Q/K and V of different types.
// nonpad_kv_seqlen (opset 24) masks batch b's keys from nonpad_kv_seqlen[b] on; the optional
// fourth output gives the scores as qk_matmul_output_mode says: 0 the scaled products, 2 after
// the bias and softcap, 3 after the softmax. Mode 1 is where ONNX's versions part: ONNX 1.19
// (and its node suite) gives the products plus the bias, ONNX 1.23's revised text, ONNX
// Runtime 1.32 and ONNX's current reference give the softcapped products without the bias. The
// two agree only without a bias and without softcap; otherwise the fourth output has no value
// (the others keep theirs).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/common/dispatch.h"
#include "graphgc/opset/kernels/common/fast_exp.h"
#include "graphgc/opset/kernels/linalg/batched_gemm.h"
#include "graphgc/opset/kernels/linalg/linalg_kernels.h"
#include "graphgc/opset/kernels/linalg/work_buffer.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

using linalg::Scratch;
using linalg::WorkType;

constexpr int kQ = 0, kK = 1, kV = 2, kMask = 3, kPastKey = 4, kPastValue = 5, kNonPad = 6;

// The problem's sizes, every input read as 4-D.
struct AttentionShape {
  bool three_d = false;
  int64_t batch = 0;
  int64_t q_heads = 0;
  int64_t kv_heads = 0;
  int64_t q_length = 0;
  int64_t kv_length = 0;  // K and V's own
  int64_t past = 0;
  int64_t head = 0;    // Q and K's
  int64_t v_head = 0;  // V's
  int64_t total() const { return past + kv_length; }
};

absl::Status ShapeError(const KernelContext& ctx, int input, const Tensor& t,
                        absl::string_view expected) {
  return ctx.input_error(input,
                         absl::StrCat("shape ", ShapeToString(t.shape()), " is not ", expected));
}

// [b, s, heads * size] as (heads, size) when `heads` divides it.
absl::Status SplitHeads(const KernelContext& ctx, int input, int64_t heads, int64_t& size) {
  const Tensor& t = ctx.input(input);
  if (heads <= 0 || t.shape()[2] % heads != 0) {
    return ctx.input_error(input, absl::StrCat("its last dim ", t.shape()[2],
                                               " does not split into ", heads, " heads"));
  }
  size = t.shape()[2] / heads;
  return absl::OkStatus();
}

absl::StatusOr<AttentionShape> ShapeOf(const KernelContext& ctx) {
  const Tensor& q = ctx.input(kQ);
  const Tensor& k = ctx.input(kK);
  const Tensor& v = ctx.input(kV);
  AttentionShape s;
  if (q.rank() != k.rank() || q.rank() != v.rank() || (q.rank() != 3 && q.rank() != 4)) {
    return ctx.input_error(kQ, "Q, K and V must all be 3-D or all 4-D");
  }
  s.three_d = q.rank() == 3;
  s.batch = q.shape()[0];
  if (s.three_d) {
    s.q_heads = ctx.int_attribute("q_num_heads", 0);
    s.kv_heads = ctx.int_attribute("kv_num_heads", 0);
    s.q_length = q.shape()[1];
    s.kv_length = k.shape()[1];
    GRAPHGC_RETURN_IF_ERROR(SplitHeads(ctx, kQ, s.q_heads, s.head));
    int64_t k_head = 0;
    GRAPHGC_RETURN_IF_ERROR(SplitHeads(ctx, kK, s.kv_heads, k_head));
    GRAPHGC_RETURN_IF_ERROR(SplitHeads(ctx, kV, s.kv_heads, s.v_head));
    if (k_head != s.head) return ctx.input_error(kK, "its head size is not Q's");
    if (v.shape()[1] != s.kv_length) return ctx.input_error(kV, "its sequence is not K's");
  } else {
    s.q_heads = q.shape()[1];
    s.kv_heads = k.shape()[1];
    s.q_length = q.shape()[2];
    s.kv_length = k.shape()[2];
    s.head = q.shape()[3];
    s.v_head = v.shape()[3];
    const Shape k_expected = {s.batch, s.kv_heads, s.kv_length, s.head};
    if (k.shape() != absl::Span<const int64_t>(k_expected)) {
      return ShapeError(ctx, kK, k, ShapeToString(k_expected));
    }
    const Shape v_expected = {s.batch, s.kv_heads, s.kv_length, s.v_head};
    if (v.shape() != absl::Span<const int64_t>(v_expected)) {
      return ShapeError(ctx, kV, v, ShapeToString(v_expected));
    }
  }
  if (k.shape()[0] != s.batch || v.shape()[0] != s.batch) {
    return ctx.input_error(kK, "K and V must have Q's batch");
  }
  if (s.kv_heads <= 0 || s.q_heads % s.kv_heads != 0) {
    return ctx.input_error(
        kK, absl::StrCat(s.kv_heads, " K/V heads do not divide ", s.q_heads, " Q heads"));
  }
  const Tensor* past_key = ctx.optional_input(kPastKey);
  const Tensor* past_value = ctx.optional_input(kPastValue);
  if ((past_key == nullptr) != (past_value == nullptr)) {
    return ctx.input_error(kPastKey, "past_key and past_value come together");
  }
  if (past_key != nullptr) {
    s.past = past_key->rank() == 4 ? past_key->shape()[2] : -1;
    const Shape key_expected = {s.batch, s.kv_heads, s.past, s.head};
    const Shape value_expected = {s.batch, s.kv_heads, s.past, s.v_head};
    if (past_key->shape() != absl::Span<const int64_t>(key_expected)) {
      return ShapeError(ctx, kPastKey, *past_key, "[batch, kv_heads, past, head_size]");
    }
    if (past_value->shape() != absl::Span<const int64_t>(value_expected)) {
      return ShapeError(ctx, kPastValue, *past_value, "[batch, kv_heads, past, v_head_size]");
    }
  }
  return s;
}

// Reads `t` as W into `out`, laid out [batch, heads, out_length, size], at sequence positions
// `offset` to `offset + length` (3-D inputs are transposed from [batch, length, heads * size]).
template <class T>
void ReadHeads(const Tensor& t, bool three_d, int64_t heads, int64_t length, int64_t size,
               WorkType<T>* out, int64_t out_length, int64_t offset) {
  const T* in = t.data<T>().data();
  const int64_t batch = t.shape()[0];
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t h = 0; h < heads; ++h) {
      for (int64_t s = 0; s < length; ++s) {
        const T* row = three_d ? in + ((b * length + s) * heads + h) * size
                               : in + ((b * heads + h) * length + s) * size;
        WorkType<T>* to = out + ((b * heads + h) * out_length + offset + s) * size;
        for (int64_t d = 0; d < size; ++d) to[d] = linalg::ToWork(row[d]);
      }
    }
  }
}

// past ++ current along the sequence: [batch, heads, past + length, size].
template <class T>
absl::StatusOr<std::vector<WorkType<T>>> Concatenated(const KernelContext& ctx, const Tensor* past,
                                                      const Tensor& current, bool three_d,
                                                      int64_t heads, int64_t past_length,
                                                      int64_t length, int64_t size) {
  const int64_t total = past_length + length;
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<WorkType<T>> all,
                           Scratch<WorkType<T>>(ctx, current.shape()[0] * heads * total * size));
  if (past != nullptr) ReadHeads<T>(*past, false, heads, past_length, size, all.data(), total, 0);
  ReadHeads<T>(current, three_d, heads, length, size, all.data(), total, past_length);
  return all;
}

// The attention mask as a bias to add: for (b, h, i, j), masked is -inf.
class MaskBias {
 public:
  static absl::StatusOr<MaskBias> Of(const KernelContext& ctx, const AttentionShape& s) {
    MaskBias bias;
    bias.mask_ = ctx.optional_input(kMask);
    if (bias.mask_ == nullptr) return bias;
    const Tensor& m = *bias.mask_;
    const Shape full = {s.batch, s.q_heads, s.q_length, s.total()};
    if (m.rank() < 2 || m.rank() > 4) {
      return ctx.input_error(kMask, "attn_mask must have rank 2 to 4");
    }
    bias.columns_ = m.shape().back();
    if (bias.columns_ > s.total()) {
      return ctx.input_error(kMask, absl::StrCat("its last dim ", bias.columns_,
                                                 " is longer than the total sequence ", s.total()));
    }
    const Shape strides = ContiguousStrides(m.shape());
    for (int v = 0; v < 3; ++v) {
      const int64_t a = v - (4 - m.rank());
      if (a < 0) continue;
      const int64_t dim = m.shape()[a];
      if (dim != 1 && dim != full[v]) {
        return ctx.input_error(kMask, absl::StrCat("shape ", ShapeToString(m.shape()),
                                                   " does not broadcast to ", ShapeToString(full)));
      }
      bias.strides_[v] = dim == 1 ? 0 : strides[a];
    }
    return bias;
  }

  // How many leading keys the mask may let through: the mask's own columns (the rest are
  // masked), or all `total` without a mask.
  int64_t Columns(int64_t total) const { return mask_ == nullptr ? total : columns_; }

  // The row of biases for (b, h, i), `total` long.
  template <class W>
  void Row(int64_t b, int64_t h, int64_t i, int64_t total, W* row) const {
    if (mask_ == nullptr) {
      std::fill(row, row + total, W{0});
      return;
    }
    const int64_t at = b * strides_[0] + h * strides_[1] + i * strides_[2];
    const W masked = -std::numeric_limits<W>::infinity();
    if (mask_->dtype() == DataType::kBool) {
      const bool* keep = mask_->data<bool>().data() + at;
      for (int64_t j = 0; j < columns_; ++j) row[j] = keep[j] ? W{0} : masked;
    } else {
      internal::TypeList<float, double, Float16, BFloat16>::Dispatch(mask_->dtype(), [&](auto tag) {
        using M = typename decltype(tag)::type;
        const M* add = mask_->data<M>().data() + at;
        for (int64_t j = 0; j < columns_; ++j) row[j] = static_cast<W>(internal::Load(add[j]));
      });
    }
    std::fill(row + columns_, row + total, masked);
  }

 private:
  const Tensor* mask_ = nullptr;
  int64_t columns_ = 0;
  int64_t strides_[3] = {0, 0, 0};
};

// The stages a row of scores goes through, each kept for qk_matmul_output when asked.
enum class Stage { kProduct = 0, kBiased = 1, kSoftcapped = 2, kSoftmax = 3 };

// scores + bias, squashed by softcap, through the softmax, over one row of `total` whose keys
// from `active` on are masked; `keep` gets
// the row at stage `kept` when not null. False for a row the kernel gives no value for (every
// key masked, or softcap meeting a bias).
template <class W>
bool SoftmaxRow(W* scores, const W* bias, int64_t total, int64_t active, W softcap, Stage kept,
                W* keep) {
  const auto save = [&](Stage stage) {
    if (keep != nullptr && stage == kept) std::copy_n(scores, total, keep);
  };
  // The keys from `active` on are masked (a causal row, a short mask): their weights are 0, and
  // the loops below skip them, unless a stage before the softmax is kept whole.
  if (keep == nullptr && active < total) {
    std::fill(scores + active, scores + total, W{0});
    total = active;
  }
  save(Stage::kProduct);
  for (int64_t j = 0; j < total; ++j) scores[j] += bias[j];
  save(Stage::kBiased);
  W max = -std::numeric_limits<W>::infinity();
  for (int64_t j = 0; j < total; ++j) {
    if (softcap > 0) {
      if (bias[j] != W{0}) return false;
      scores[j] = softcap * std::tanh(scores[j] / softcap);
    }
    max = std::max(max, scores[j]);
  }
  save(Stage::kSoftcapped);
  if (std::isinf(max) && max < 0) return false;
  W sum = 0;
  if constexpr (std::is_same_v<W, float>) {
    bool any_nan = false;  // std::max passes NaN over: a NaN score takes the exact path
    for (int64_t j = 0; j < total; ++j) any_nan |= std::isnan(scores[j]);
    if (std::isfinite(max) && !any_nan) {  // every score finite or -inf: FastExp's domain
      for (int64_t j = 0; j < total; ++j) {
        const float shifted = scores[j] - max;
        scores[j] = shifted == -std::numeric_limits<float>::infinity() ? 0.0f : FastExp(shifted);
      }
      for (int64_t j = 0; j < total; ++j) sum += scores[j];
      const W scale = W{1} / sum;
      for (int64_t j = 0; j < total; ++j) scores[j] *= scale;
      save(Stage::kSoftmax);
      return true;
    }
  }
  for (int64_t j = 0; j < total; ++j) sum += (scores[j] = std::exp(scores[j] - max));
  const W scale = W{1} / sum;
  for (int64_t j = 0; j < total; ++j) scores[j] *= scale;
  save(Stage::kSoftmax);
  return true;
}

// nonpad_kv_seqlen: each batch's count of keys that take part, or none.
absl::StatusOr<std::vector<int64_t>> NonPadLengths(const KernelContext& ctx,
                                                   const AttentionShape& s) {
  const Tensor* lengths = ctx.optional_input(kNonPad);
  if (lengths == nullptr) return std::vector<int64_t>();
  if (lengths->rank() != 1 || lengths->shape()[0] != s.batch) {
    return ctx.input_error(kNonPad, absl::StrCat("shape ", ShapeToString(lengths->shape()),
                                                 " is not [", s.batch, "]"));
  }
  return ReadInt64s(*lengths);
}

template <class T>
KernelResult AttentionOfType(const KernelContext& ctx, const AttentionShape& s) {
  using W = WorkType<T>;
  const int64_t total = s.total();
  // 4-D inputs of the work type without a past are read in place; others are copied to the
  // [batch, heads, sequence, size] layout in the work type.
  const bool in_place = linalg::kComputesInPlace<T> && !s.three_d && s.past == 0;
  std::vector<W> keys, values, queries;
  if (!in_place) {
    GRAPHGC_ASSIGN_OR_RETURN(
        keys, Concatenated<T>(ctx, ctx.optional_input(kPastKey), ctx.input(kK), s.three_d,
                              s.kv_heads, s.past, s.kv_length, s.head));
    GRAPHGC_ASSIGN_OR_RETURN(
        values, Concatenated<T>(ctx, ctx.optional_input(kPastValue), ctx.input(kV), s.three_d,
                                s.kv_heads, s.past, s.kv_length, s.v_head));
    GRAPHGC_ASSIGN_OR_RETURN(queries, Scratch<W>(ctx, s.batch * s.q_heads * s.q_length * s.head));
    ReadHeads<T>(ctx.input(kQ), s.three_d, s.q_heads, s.q_length, s.head, queries.data(),
                 s.q_length, 0);
  }
  const auto data = [&](int input, const std::vector<W>& copy) {
    return in_place ? reinterpret_cast<const W*>(ctx.input(input).data<T>().data()) : copy.data();
  };
  const W* key_data = data(kK, keys);
  const W* value_data = data(kV, values);
  const W* query_data = data(kQ, queries);
  GRAPHGC_ASSIGN_OR_RETURN(const MaskBias mask, MaskBias::Of(ctx, s));

  // One product per (b, q head); its K/V head is q head / group.
  const int64_t group = s.q_heads / s.kv_heads;
  std::vector<int64_t> q_offsets, k_offsets, v_offsets;
  for (int64_t b = 0; b < s.batch; ++b) {
    for (int64_t h = 0; h < s.q_heads; ++h) {
      const int64_t kv = b * s.kv_heads + h / group;
      q_offsets.push_back((b * s.q_heads + h) * s.q_length * s.head);
      k_offsets.push_back(kv * total * s.head);
      v_offsets.push_back(kv * total * s.v_head);
    }
  }
  const float given_scale = ctx.float_attribute("scale", 0.0f);
  const W scale =
      given_scale != 0.0f ? static_cast<W>(given_scale) : W{1} / std::sqrt(static_cast<W>(s.head));
  const int64_t heads = s.batch * s.q_heads;
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<W> scores, Scratch<W>(ctx, heads * s.q_length * total));
  linalg::BatchedGemm<W>({.m = s.q_length, .n = total, .k = s.head, .trans_b = true}, scale,
                         query_data, q_offsets, key_data, k_offsets, W{0}, scores.data(),
                         ctx.threads());
  const W softcap = static_cast<W>(ctx.float_attribute("softcap", 0.0f));
  const bool causal = ctx.int_attribute("is_causal", 0) != 0;
  GRAPHGC_ASSIGN_OR_RETURN(const std::vector<int64_t> nonpad, NonPadLengths(ctx, s));
  const int64_t mode = ctx.int_attribute("qk_matmul_output_mode", 0);
  if (mode < 0 || mode > 3) {
    return absl::InvalidArgumentError(
        absl::StrCat("attribute qk_matmul_output_mode is ", mode, "; it must be 0 to 3"));
  }
  std::vector<W> kept;
  if (ctx.num_outputs() > 3) {
    GRAPHGC_ASSIGN_OR_RETURN(kept, Scratch<W>(ctx, heads * s.q_length * total));
  }
  // Mode 1's scores with a bias or softcap: see the top of the file.
  bool contested_scores = mode == static_cast<int64_t>(Stage::kBiased) && softcap > 0;
  std::vector<W> bias(static_cast<size_t>(total));
  for (int64_t b = 0; b < s.batch; ++b) {
    for (int64_t h = 0; h < s.q_heads; ++h) {
      for (int64_t i = 0; i < s.q_length; ++i) {
        mask.Row(b, h, i, total, bias.data());
        const W masked = -std::numeric_limits<W>::infinity();
        if (causal) std::fill(bias.begin() + std::min(total, s.past + i + 1), bias.end(), masked);
        if (!nonpad.empty()) {
          const int64_t keys = std::clamp<int64_t>(nonpad[static_cast<size_t>(b)], 0, total);
          std::fill(bias.begin() + keys, bias.end(), masked);
        }
        if (mode == static_cast<int64_t>(Stage::kBiased) && !kept.empty()) {
          contested_scores |= std::any_of(bias.begin(), bias.end(), [](W w) { return w != W{0}; });
        }
        const int64_t at = ((b * s.q_heads + h) * s.q_length + i) * total;
        int64_t active = causal ? std::min(total, s.past + i + 1) : total;
        if (!nonpad.empty()) active = std::min(active, nonpad[static_cast<size_t>(b)]);
        active = std::max<int64_t>(std::min(active, mask.Columns(total)), 0);
        if (!SoftmaxRow(scores.data() + at, bias.data(), total, active, softcap,
                        static_cast<Stage>(mode), kept.empty() ? nullptr : kept.data() + at)) {
          return Decline(softcap > 0
                             ? "softcap with a mask, whose order ONNX's versions disagree on"
                             : "a query with every key masked, where ONNX's versions and "
                               "runtimes disagree (NaN or 0)");
        }
      }
    }
  }
  std::vector<int64_t> score_offsets;
  for (int64_t i = 0; i < heads; ++i) score_offsets.push_back(i * s.q_length * total);
  GRAPHGC_ASSIGN_OR_RETURN(std::vector<W> y, Scratch<W>(ctx, heads * s.q_length * s.v_head));
  linalg::BatchedGemm<W>({.m = s.q_length, .n = s.v_head, .k = total}, W{1}, scores.data(),
                         score_offsets, value_data, v_offsets, W{0}, y.data(), ctx.threads());

  KernelOutputs outputs(static_cast<size_t>(ctx.num_outputs()));
  const Shape y_shape = s.three_d ? Shape{s.batch, s.q_length, s.q_heads * s.v_head}
                                  : Shape{s.batch, s.q_heads, s.q_length, s.v_head};
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(ctx.input(kQ).dtype(), y_shape));
  T* to = out.mutable_data<T>().data();
  for (int64_t b = 0; b < s.batch; ++b) {
    for (int64_t h = 0; h < s.q_heads; ++h) {
      for (int64_t i = 0; i < s.q_length; ++i) {
        const W* from = y.data() + ((b * s.q_heads + h) * s.q_length + i) * s.v_head;
        T* row = s.three_d ? to + ((b * s.q_length + i) * s.q_heads + h) * s.v_head
                           : to + ((b * s.q_heads + h) * s.q_length + i) * s.v_head;
        for (int64_t d = 0; d < s.v_head; ++d) row[d] = linalg::FromWork<T>(from[d]);
      }
    }
  }
  outputs[0] = std::move(out).freeze();
  // present_key and present_value: the whole caches, 4-D.
  const W* caches[] = {key_data, value_data};
  const int64_t sizes[] = {s.head, s.v_head};
  for (int o = 1; o <= 2 && o < ctx.num_outputs(); ++o) {
    GRAPHGC_ASSIGN_OR_RETURN(
        MutableTensor cache,
        ctx.allocate(ctx.input(kQ).dtype(), {s.batch, s.kv_heads, total, sizes[o - 1]}));
    T* c = cache.mutable_data<T>().data();
    for (int64_t e = 0; e < cache.size(); ++e) c[e] = linalg::FromWork<T>(caches[o - 1][e]);
    outputs[static_cast<size_t>(o)] = std::move(cache).freeze();
  }
  if (!kept.empty() && !contested_scores) {
    GRAPHGC_ASSIGN_OR_RETURN(
        MutableTensor qk,
        ctx.allocate(ctx.input(kQ).dtype(), {s.batch, s.q_heads, s.q_length, total}));
    T* q = qk.mutable_data<T>().data();
    for (size_t e = 0; e < kept.size(); ++e) q[e] = linalg::FromWork<T>(kept[e]);
    outputs[3] = std::move(qk).freeze();
  }
  return outputs;
}

absl::Status Unsupported(const KernelContext& ctx) {
  if (ctx.input(kQ).dtype() != ctx.input(kV).dtype() ||
      ctx.input(kQ).dtype() != ctx.input(kK).dtype()) {
    return Decline("Q, K and V of different element types");
  }
  // ONNX's element type numbers: 1 float, 11 double (the work types the softmax runs in).
  const int64_t precision = ctx.int_attribute("softmax_precision", 0);
  if (precision != 0 && precision != 1 && precision != 11) {
    return Decline("a softmax_precision other than float or double");
  }
  return absl::OkStatus();
}

KernelResult Attention(const KernelContext& ctx) {
  GRAPHGC_RETURN_IF_ERROR(Unsupported(ctx));
  GRAPHGC_ASSIGN_OR_RETURN(const AttentionShape shape, ShapeOf(ctx));
  KernelResult result = Decline("an element type Attention does not compute");
  internal::TypeList<float, double, Float16, BFloat16>::Dispatch(
      ctx.input(kQ).dtype(),
      [&](auto tag) { result = AttentionOfType<typename decltype(tag)::type>(ctx, shape); });
  return result;
}

}  // namespace

void RegisterAttentionKernels(KernelTable& table) {
  using Reals = internal::TypeList<float, double, Float16, BFloat16>;
  const KernelTypes types = {
      {"T1", Reals::kSet}, {"T2", Reals::kSet}, {"U", Reals::kSet | DataTypeSet{DataType::kBool}}};
  // Opset 24 adds the input nonpad_kv_seqlen, which opset 23's nodes never have.
  table.add("", "Attention", 23, 23, types, Attention);
  table.add("", "Attention", 24, KernelTable::kLatest, types, Attention);
}

}  // namespace graphgc::kernels
