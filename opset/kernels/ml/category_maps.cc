// Lookups from one value to another: CategoryMapper (strings <-> int64 through paired lists),
// LabelEncoder 1 (strings <-> their index in classes_strings) and LabelEncoder 2 (keys_* to
// values_* for string, int64 and float). A value not found maps to the default attribute.
//
// When a key repeats, ONNX Runtime keeps its last pairing in CategoryMapper and LabelEncoder 1, its
// first in LabelEncoder 2; so do these kernels. Float keys match by ==
// (-0 finds 0, NaN finds nothing), as ONNX Runtime's hash maps do.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "graphgc/opset/kernels/ml/ml_common.h"
#include "graphgc/opset/kernels/ml/ml_kernels.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

template <class K>
K NormalizedKey(K key) {
  if constexpr (std::is_floating_point_v<K>) {
    if (key == 0) return K{0};  // -0 and 0 are one key
  }
  return key;
}

enum class RepeatedKey { kLastWins, kFirstWins };

// Maps every element of input 0 (of type K) through keys -> values, `fallback` where not found.
template <class K, class V>
KernelResult MapValues(const KernelContext& ctx, const std::vector<K>& keys,
                       const std::vector<V>& values, const V& fallback,
                       RepeatedKey repeated = RepeatedKey::kLastWins) {
  if (keys.size() != values.size()) return Decline("keys and values of different lengths");
  const Tensor& x = ctx.input(0);
  absl::flat_hash_map<K, size_t> index;
  for (size_t i = 0; i < keys.size(); ++i) {
    const auto [at, inserted] = index.try_emplace(NormalizedKey(keys[i]), i);
    if (!inserted && repeated == RepeatedKey::kLastWins) at->second = i;
  }
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(DataTypeOf<V>::value, x.shape()));
  const auto in = x.data<K>();
  auto y = out.mutable_data<V>();
  for (size_t i = 0; i < in.size(); ++i) {
    bool searchable = true;
    if constexpr (std::is_floating_point_v<K>) searchable = !std::isnan(in[i]);
    const auto found = searchable ? index.find(NormalizedKey(in[i])) : index.end();
    y[i] = found == index.end() ? fallback : values[found->second];
  }
  return KernelOutputs{std::move(out).freeze()};
}

KernelResult CategoryMapperKernel(const KernelContext& ctx) {
  const std::vector<std::string> strings = ml::StringsOrEmpty(ctx, "cats_strings");
  const std::vector<int64_t> ints = ml::IntsOrEmpty(ctx, "cats_int64s");
  if (ctx.input(0).dtype() == DataType::kString) {
    return MapValues<std::string, int64_t>(ctx, strings, ints,
                                           ctx.int_attribute("default_int64", -1));
  }
  return MapValues<int64_t, std::string>(ctx, ints, strings,
                                         ctx.string_attribute("default_string", "_Unused"));
}

// LabelEncoder 1: a string's label is its index in classes_strings, an index's is its string.
KernelResult LabelEncoder1Kernel(const KernelContext& ctx) {
  const std::vector<std::string> classes = ml::StringsOrEmpty(ctx, "classes_strings");
  std::vector<int64_t> indices(classes.size());
  for (size_t i = 0; i < classes.size(); ++i) indices[i] = static_cast<int64_t>(i);
  if (ctx.input(0).dtype() == DataType::kString) {
    return MapValues<std::string, int64_t>(ctx, classes, indices,
                                           ctx.int_attribute("default_int64", -1));
  }
  return MapValues<int64_t, std::string>(ctx, indices, classes,
                                         ctx.string_attribute("default_string", "_Unused"));
}

// LabelEncoder 2's keys_<type> / values_<type> / default_<type> for one element type.
template <class T>
struct EncoderAttributes;
template <>
struct EncoderAttributes<std::string> {
  static std::vector<std::string> Read(const KernelContext& ctx, absl::string_view what) {
    return ml::StringsOrEmpty(ctx, std::string(what) + "_strings");
  }
  static std::string Default(const KernelContext& ctx) {
    return ctx.string_attribute("default_string", "_Unused");
  }
};
template <>
struct EncoderAttributes<int64_t> {
  static std::vector<int64_t> Read(const KernelContext& ctx, absl::string_view what) {
    return ml::IntsOrEmpty(ctx, std::string(what) + "_int64s");
  }
  static int64_t Default(const KernelContext& ctx) {
    return ctx.int_attribute("default_int64", -1);
  }
};
template <>
struct EncoderAttributes<float> {
  static std::vector<float> Read(const KernelContext& ctx, absl::string_view what) {
    return ml::FloatsOrEmpty(ctx, std::string(what) + "_floats");
  }
  static float Default(const KernelContext& ctx) {
    return ctx.float_attribute("default_float", -0.0f);
  }
};

using EncoderTypes = internal::TypeList<std::string, int64_t, float>;

KernelResult LabelEncoder2Kernel(const KernelContext& ctx) {
  std::optional<KernelResult> result;
  EncoderTypes::Dispatch(ctx.input(0).dtype(), [&](auto key_tag) {
    using K = typename decltype(key_tag)::type;
    EncoderTypes::Dispatch(ctx.output(0).dtype, [&](auto value_tag) {
      using V = typename decltype(value_tag)::type;
      result = MapValues<K, V>(ctx, EncoderAttributes<K>::Read(ctx, "keys"),
                               EncoderAttributes<V>::Read(ctx, "values"),
                               EncoderAttributes<V>::Default(ctx), RepeatedKey::kFirstWins);
    });
  });
  if (!result.has_value()) return Decline("LabelEncoder of these element types");
  return *std::move(result);
}

}  // namespace

void RegisterCategoryKernels(KernelTable& table) {
  // Strings to int64s and int64s to strings.
  const DataTypeSet strings_and_ints = {DataType::kString, DataType::kInt64};
  const KernelTypes both_ways = {{"T1", strings_and_ints}, {"T2", strings_and_ints}};
  table.add(kMlDomain, "CategoryMapper", 1, KernelTable::kLatest, both_ways, CategoryMapperKernel);
  table.add(kMlDomain, "LabelEncoder", 1, 1, both_ways, LabelEncoder1Kernel);
  table.add(kMlDomain, "LabelEncoder", 2, 3,
            {{"T1", EncoderTypes::kSet}, {"T2", EncoderTypes::kSet}}, LabelEncoder2Kernel);
}

}  // namespace graphgc::kernels
