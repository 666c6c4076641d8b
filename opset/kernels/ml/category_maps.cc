// Lookups from one value to another: CategoryMapper (strings <-> int64 through paired lists),
// LabelEncoder 1 (strings <-> their index in classes_strings), LabelEncoder 2 (keys_* to
// values_* for string, int64 and float) and LabelEncoder 4 (also int32, int16 and double, and
// the keys, values and default given as tensors). A value not found maps to the default.
//
// When a key repeats, ONNX Runtime keeps its last pairing in CategoryMapper and LabelEncoder 1, its
// first in LabelEncoder 2; so do these kernels. Float keys match by == (-0 finds 0), as ONNX
// Runtime's hash maps do; NaN finds nothing in LabelEncoder 2 and the NaN key in LabelEncoder 4
// (as ONNX 4 says and ONNX Runtime does; ONNX's reference finds nothing). LabelEncoder 4 says the
// last pairing of a repeated key wins, which ONNX's reference does but ONNX Runtime does not: a
// key repeated with another value gets no value, as do the defaults the two choose differently.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
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

// Whether a key is NaN (never for strings and integers).
template <class K>
bool IsNan(const K& key) {
  if constexpr (std::is_floating_point_v<K>) return std::isnan(key);
  return false;
}

// Whether two values are the same, bit for bit for the reals (a NaN is itself).
template <class V>
bool SameValue(const V& a, const V& b) {
  if constexpr (std::is_floating_point_v<V>) return std::memcmp(&a, &b, sizeof(V)) == 0;
  return a == b;
}

// Which pairing of a repeated key counts; kMustAgree declines unless they give the same value.
enum class RepeatedKey { kLastWins, kFirstWins, kMustAgree };
enum class NanKey { kMatchesNothing, kMatchesNan };

struct LookupRules {
  RepeatedKey repeated = RepeatedKey::kLastWins;
  NanKey nan = NanKey::kMatchesNothing;
};

// Maps every element of input 0 (of type K) through keys -> values, `fallback` where not found.
template <class K, class V>
KernelResult MapValues(const KernelContext& ctx, const std::vector<K>& keys,
                       const std::vector<V>& values, const V& fallback, LookupRules rules = {}) {
  if (keys.size() != values.size()) return Decline("keys and values of different lengths");
  const Tensor& x = ctx.input(0);
  absl::flat_hash_map<K, size_t> index;
  std::optional<size_t> nan_index;  // the NaN key's pairing (NanKey::kMatchesNan)
  for (size_t i = 0; i < keys.size(); ++i) {
    if (IsNan(keys[i]) && rules.nan == NanKey::kMatchesNothing) continue;
    size_t* slot = nullptr;
    if (IsNan(keys[i])) {
      if (!nan_index.has_value()) nan_index = i;
      slot = &*nan_index;
    } else {
      slot = &index.try_emplace(NormalizedKey(keys[i]), i).first->second;
    }
    if (*slot == i) continue;  // the key's first pairing
    if (rules.repeated == RepeatedKey::kMustAgree && !SameValue(values[*slot], values[i])) {
      return Decline(
          "a key repeated with another value (ONNX: the last wins, ONNX Runtime: the first)");
    }
    if (rules.repeated == RepeatedKey::kLastWins) *slot = i;
  }
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor out, ctx.allocate(DataTypeOf<V>::value, x.shape()));
  const auto in = x.data<K>();
  auto y = out.mutable_data<V>();
  for (size_t i = 0; i < in.size(); ++i) {
    std::optional<size_t> found;
    if (IsNan(in[i])) {
      found = nan_index;
    } else if (const auto at = index.find(NormalizedKey(in[i])); at != index.end()) {
      found = at->second;
    }
    y[i] = found.has_value() ? values[*found] : fallback;
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
  static constexpr char kSuffix[] = "_strings";
  static std::vector<std::string> Read(const KernelContext& ctx, absl::string_view what) {
    return ml::StringsOrEmpty(ctx, absl::StrCat(what, kSuffix));
  }
  static std::string Default(const KernelContext& ctx) {
    return ctx.string_attribute("default_string", "_Unused");
  }
};
template <>
struct EncoderAttributes<int64_t> {
  static constexpr char kSuffix[] = "_int64s";
  static std::vector<int64_t> Read(const KernelContext& ctx, absl::string_view what) {
    return ml::IntsOrEmpty(ctx, absl::StrCat(what, kSuffix));
  }
  static int64_t Default(const KernelContext& ctx) {
    return ctx.int_attribute("default_int64", -1);
  }
};
template <>
struct EncoderAttributes<float> {
  static constexpr char kSuffix[] = "_floats";
  static std::vector<float> Read(const KernelContext& ctx, absl::string_view what) {
    return ml::FloatsOrEmpty(ctx, absl::StrCat(what, kSuffix));
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
      result = MapValues<K, V>(
          ctx, EncoderAttributes<K>::Read(ctx, "keys"), EncoderAttributes<V>::Read(ctx, "values"),
          EncoderAttributes<V>::Default(ctx), {.repeated = RepeatedKey::kFirstWins});
    });
  });
  if (!result.has_value()) return Decline("LabelEncoder of these element types");
  return *std::move(result);
}

// LabelEncoder 4 adds the types only its tensor attributes give.
using Encoder4Types = internal::TypeList<std::string, int64_t, float, int32_t, int16_t, double>;

// Whether LabelEncoder 2's keys_/values_/default_<type> attributes exist for T.
template <class T>
constexpr bool kHasListAttribute =
    std::is_same_v<T, std::string> || std::is_same_v<T, int64_t> || std::is_same_v<T, float>;

// What LabelEncoder 4's schema says default_tensor is when absent.
template <class V>
V SchemaDefault() {
  if constexpr (std::is_same_v<V, std::string>) {
    return "_Unused";
  } else if constexpr (std::is_floating_point_v<V>) {
    return V{-0.0};
  } else {
    return V{-1};
  }
}

template <class T>
struct EncoderList {
  std::vector<T> items;
  bool from_tensor = false;
};

// LabelEncoder 4's keys or values (`what`): `what`_tensor, a 1-D tensor of T, or LabelEncoder 2's
// list of T. Exactly one of the four attributes is given (inference checks it too).
template <class T>
absl::StatusOr<EncoderList<T>> ReadEncoderList(const KernelContext& ctx, absl::string_view what) {
  int given = 0;
  for (const char* suffix : {"_tensor", "_strings", "_int64s", "_floats"}) {
    given += ctx.has_attribute(absl::StrCat(what, suffix)) ? 1 : 0;
  }
  if (given != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat(given, " of the attributes ", what,
                     "_tensor, _strings, _int64s and _floats are set, not 1"));
  }
  const std::string tensor_name = absl::StrCat(what, "_tensor");
  const absl::string_view whose = what == "keys" ? "input's" : "output's";
  if (const Tensor* tensor = ctx.tensor_attribute(tensor_name); tensor != nullptr) {
    if (tensor->dtype() != DataTypeOf<T>::value || tensor->rank() != 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "attribute ", tensor_name, " is not a 1-D tensor of the ", whose, " element type"));
    }
    const auto data = tensor->data<T>();
    return EncoderList<T>{std::vector<T>(data.begin(), data.end()), true};
  }
  if constexpr (kHasListAttribute<T>) {
    if (ctx.has_attribute(absl::StrCat(what, EncoderAttributes<T>::kSuffix))) {
      return EncoderList<T>{EncoderAttributes<T>::Read(ctx, what), false};
    }
  }
  return absl::InvalidArgumentError(
      absl::StrCat("the ", what, "_* attribute is not of the ", whose, " element type"));
}

// LabelEncoder 4's default: default_tensor, else default_<type> for values_<type> lists, else
// the schema's default. Where ONNX's reference and ONNX Runtime choose differently, no value.
template <class V>
absl::StatusOr<V> Encoder4Default(const KernelContext& ctx, bool values_from_tensor) {
  std::optional<V> attribute;  // default_<type>, the schema's default applied
  if constexpr (kHasListAttribute<V>) attribute = EncoderAttributes<V>::Default(ctx);
  if (const Tensor* given = ctx.tensor_attribute("default_tensor"); given != nullptr) {
    if (given->dtype() != DataTypeOf<V>::value || given->size() != 1) {
      return absl::InvalidArgumentError(
          "attribute default_tensor is not one value of the output's element type");
    }
    const V value = given->data<V>()[0];
    if (!values_from_tensor && attribute.has_value() && !SameValue(*attribute, value)) {
      return Decline(
          "default_tensor beside values_<type> (ONNX's reference takes "
          "default_<type>, ONNX Runtime default_tensor)");
    }
    return value;
  }
  if (!values_from_tensor && attribute.has_value()) return *attribute;
  if (attribute.has_value() && !SameValue(*attribute, SchemaDefault<V>())) {
    return Decline(
        "values_tensor with default_<type> but no default_tensor (ONNX Runtime takes "
        "default_<type>, ONNX's schema its own default)");
  }
  return SchemaDefault<V>();
}

template <class K, class V>
KernelResult EncodeLabels4(const KernelContext& ctx) {
  GRAPHGC_ASSIGN_OR_RETURN(const EncoderList<K> keys, ReadEncoderList<K>(ctx, "keys"));
  GRAPHGC_ASSIGN_OR_RETURN(const EncoderList<V> values, ReadEncoderList<V>(ctx, "values"));
  if (keys.items.size() != values.items.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat(keys.items.size(), " keys but ", values.items.size(), " values"));
  }
  GRAPHGC_ASSIGN_OR_RETURN(const V fallback, Encoder4Default<V>(ctx, values.from_tensor));
  return MapValues<K, V>(ctx, keys.items, values.items, fallback,
                         {.repeated = RepeatedKey::kMustAgree, .nan = NanKey::kMatchesNan});
}

KernelResult LabelEncoder4Kernel(const KernelContext& ctx) {
  std::optional<KernelResult> result;
  Encoder4Types::Dispatch(ctx.input(0).dtype(), [&](auto key_tag) {
    Encoder4Types::Dispatch(ctx.output(0).dtype, [&](auto value_tag) {
      result =
          EncodeLabels4<typename decltype(key_tag)::type, typename decltype(value_tag)::type>(ctx);
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
  table.add(kMlDomain, "LabelEncoder", 4, KernelTable::kLatest,
            {{"T1", Encoder4Types::kSet}, {"T2", Encoder4Types::kSet}}, LabelEncoder4Kernel);
}

}  // namespace graphgc::kernels
