#include "tensor_text.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "graphgc/opset/kernels/common/dispatch.h"

namespace difftest {
namespace {

using graphgc::DataType;
using graphgc::Tensor;

// Calls f with the C++ type of any non-string dtype.
template <class F>
bool DispatchAny(DataType dtype, F&& f) {
  return graphgc::internal::DispatchNumericOrBool(dtype, std::forward<F>(f));
}

template <class T>
std::string ValueText(T v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v ? "true" : "false";
  } else {
    const auto x = graphgc::internal::Load(v);
    if constexpr (std::is_floating_point_v<decltype(x)>) {
      return absl::StrFormat("%.9g", static_cast<double>(x));
    } else {
      return absl::StrCat(x);
    }
  }
}

struct Tolerance {
  double rtol;
  double atol;
};

Tolerance ToleranceOf(DataType dtype) {
  switch (dtype) {
    // ONNX Runtime computes some double ops in float (Shrink): float-sized differences pass.
    case DataType::kDouble:
      return {1e-6, 1e-12};
    case DataType::kFloat:
      return {1e-4, 1e-6};
    case DataType::kFloat16:
      return {4e-3, 1e-3};
    case DataType::kBfloat16:
      return {1.6e-2, 1e-2};
    default:
      return {0, 0};
  }
}

}  // namespace

std::string TensorText(const Tensor& tensor) {
  std::vector<std::string> values;
  DispatchAny(tensor.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto data = tensor.data<T>();
    for (size_t i = 0; i < data.size() && i < 16; ++i) values.push_back(ValueText(data[i]));
  });
  if (tensor.size() > 16) values.push_back("...");
  return absl::StrCat(graphgc::DataTypeName(tensor.dtype()), graphgc::ShapeToString(tensor.shape()),
                      " {", absl::StrJoin(values, ", "), "}");
}

std::string RawBytes(const Tensor& tensor) {
  return std::string(static_cast<const char*>(tensor.raw_data()), tensor.nbytes());
}

std::optional<Tensor> FromRawBytes(const std::string& type, const std::vector<int64_t>& dims,
                                   const std::string& bytes) {
  for (int code = 1; code <= 16; ++code) {
    if (!graphgc::IsSupportedDataType(code)) continue;
    const DataType dtype = static_cast<DataType>(code);
    if (graphgc::DataTypeName(dtype) != type || dtype == DataType::kString) continue;
    absl::StatusOr<graphgc::MutableTensor> out = graphgc::MutableTensor::allocate(dtype, dims);
    if (!out.ok() ||
        static_cast<size_t>(out->size()) * graphgc::ElementSize(dtype) != bytes.size()) {
      return std::nullopt;
    }
    if (!bytes.empty()) std::memcpy(out->raw_mutable_data(), bytes.data(), bytes.size());
    return std::move(*out).freeze();
  }
  return std::nullopt;
}

std::string CompareTensors(const Tensor& got, const Tensor& ort, double min_atol,
                           absl::string_view oracle) {
  if (got.dtype() != ort.dtype()) {
    return absl::StrCat("element type ", graphgc::DataTypeName(got.dtype()), ", ", oracle, " ",
                        graphgc::DataTypeName(ort.dtype()));
  }
  if (got.shape() != ort.shape()) {
    return absl::StrCat("shape ", graphgc::ShapeToString(got.shape()), ", ", oracle, " ",
                        graphgc::ShapeToString(ort.shape()));
  }
  Tolerance tolerance = ToleranceOf(got.dtype());
  if (tolerance.rtol > 0) tolerance.atol = std::max(tolerance.atol, min_atol);
  std::string difference;
  DispatchAny(got.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto a = got.data<T>();
    auto b = ort.data<T>();
    for (size_t i = 0; i < a.size() && difference.empty(); ++i) {
      bool same;
      if constexpr (std::is_same_v<T, bool>) {
        same = a[i] == b[i];
      } else {
        const auto x = graphgc::internal::Load(a[i]);
        const auto y = graphgc::internal::Load(b[i]);
        if constexpr (std::is_floating_point_v<decltype(x)>) {
          const double u = x, v = y;
          same = (std::isnan(u) && std::isnan(v)) || u == v ||
                 std::fabs(u - v) <= tolerance.atol + tolerance.rtol * std::fabs(v);
        } else {
          same = x == y;
        }
      }
      if (!same) {
        difference = absl::StrCat("index ", i, ": graphgc ", ValueText(a[i]), ", ", oracle, " ",
                                  ValueText(b[i]));
      }
    }
  });
  return difference;
}

}  // namespace difftest
