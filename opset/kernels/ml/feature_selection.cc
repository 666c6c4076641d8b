// Feature selection and assembly: ArrayFeatureExtractor (picks features along the last axis by
// index; a 1-D input gives one row [1, k]) and FeatureVectorizer (concatenates the inputs' rows
// into [N, sum(inputdimensions)] floats, each input cut or zero-padded to its declared width).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/ml/ml_common.h"
#include "graphgc/opset/kernels/ml/ml_kernels.h"
#include "graphgc/opset/kernels/tensor/tensor_util.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

KernelResult ArrayFeatureExtractorKernel(const KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& indices = ctx.input(1);
  if (x.rank() == 0) return ctx.input_error(0, "is a scalar; features need an axis");
  const int64_t width = x.shape().back();
  const auto picked = indices.data<int64_t>();
  if (picked.empty()) return Decline("no indices (ONNX Runtime rejects them)");
  for (int64_t index : picked) {
    // ONNX leaves negative indices undefined and ONNX Runtime reads outside the row with them.
    if (index < 0) return Decline("a negative index");
    if (index >= width) {
      return ctx.input_error(1, absl::StrCat("holds index ", index, ", outside [0, ", width,
                                             ") of input 0's last axis"));
    }
  }
  Shape shape(x.shape().begin(), x.shape().end());
  if (shape.size() == 1) shape.insert(shape.begin(), 1);
  shape.back() = static_cast<int64_t>(picked.size());
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(x.dtype(), shape));
  if (width == 0) return KernelOutputs{std::move(out).freeze()};
  const int64_t rows = x.size() / width;
  DispatchByElementSize(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = ElementsOf<T>(x);
    T* y = MutableElementsOf<T>(out);
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t index : picked) *y++ = in[r * width + index];
    }
  });
  return KernelOutputs{std::move(out).freeze()};
}

KernelResult FeatureVectorizerKernel(const KernelContext& ctx) {
  const std::vector<int64_t> widths = ml::IntsOrEmpty(ctx, "inputdimensions");
  if (static_cast<int>(widths.size()) != ctx.num_inputs()) {
    return Decline("inputdimensions does not give one width per input");
  }
  int64_t total = 0;
  for (int64_t w : widths) {
    if (w < 0) return Decline("a negative input dimension");
    // Widths are attribute data: their sum may overflow (found by kernel_fuzzer, UBSan).
    if (w > std::numeric_limits<int64_t>::max() - total) return Decline("the widths overflow");
    total += w;
  }
  std::vector<ml::FeatureRows> inputs;
  for (int i = 0; i < ctx.num_inputs(); ++i) {
    GRAPHGC_ASSIGN_OR_RETURN(ml::FeatureRows rows, ml::ReadFeatureRows(ctx, i));
    if (!inputs.empty() && rows.rows != inputs.front().rows) {
      return Decline("inputs with different numbers of rows");
    }
    inputs.push_back(std::move(rows));
  }
  const int64_t rows = inputs.empty() ? 0 : inputs.front().rows;
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(DataType::kFloat, {rows, total}));
  float* y = out.mutable_data<float>().data();
  std::fill_n(y, out.size(), 0.0f);
  int64_t column = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ml::FeatureRows& in = inputs[i];
    const int64_t copied = std::min(in.width, widths[i]);
    for (int64_t r = 0; r < rows; ++r) {
      std::copy_n(in.values.data() + r * in.width, copied, y + r * total + column);
    }
    column += widths[i];
  }
  return KernelOutputs{std::move(out).freeze()};
}

}  // namespace

void RegisterFeatureSelectionKernels(KernelTable& table) {
  // ArrayFeatureExtractor copies elements of any type.
  table.add(kMlDomain, "ArrayFeatureExtractor", 1, KernelTable::kLatest, {{"T", data_types::kAll}},
            ArrayFeatureExtractorKernel);
  table.add(kMlDomain, "FeatureVectorizer", 1, KernelTable::kLatest, {{"T1", ml::MlNumbers::kSet}},
            FeatureVectorizerKernel);
}

}  // namespace graphgc::kernels
