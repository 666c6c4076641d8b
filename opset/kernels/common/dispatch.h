// Element-type dispatch for kernels: calls a generic lambda with the C++ type of a DataType.
//
//   DispatchNumeric(dtype, [&](auto tag) { using T = typename decltype(tag)::type; ... });
//
// Also the arithmetic helpers every kernel shares: the type computations run in (float for the
// 16-bit floats) and integer arithmetic that wraps instead of overflowing (no undefined behaviour).
#ifndef GRAPHGC_DISPATCH_H_
#define GRAPHGC_DISPATCH_H_

#include <cstdint>
#include <type_traits>

#include "graphgc/valuestore/check.h"
#include "graphgc/valuestore/data_type.h"
#include "graphgc/valuestore/data_type_set.h"
#include "graphgc/valuestore/half.h"

namespace graphgc::internal {

template <class T>
struct TypeTag {
  using type = T;
};

// Returns false (without calling f) for a type outside the numeric set (data_types::kNumeric).
template <class F>
bool DispatchNumeric(DataType dtype, F&& f) {
  switch (dtype) {
    case DataType::kFloat:
      f(TypeTag<float>{});
      return true;
    case DataType::kDouble:
      f(TypeTag<double>{});
      return true;
    case DataType::kFloat16:
      f(TypeTag<Float16>{});
      return true;
    case DataType::kBfloat16:
      f(TypeTag<BFloat16>{});
      return true;
    case DataType::kInt8:
      f(TypeTag<int8_t>{});
      return true;
    case DataType::kInt16:
      f(TypeTag<int16_t>{});
      return true;
    case DataType::kInt32:
      f(TypeTag<int32_t>{});
      return true;
    case DataType::kInt64:
      f(TypeTag<int64_t>{});
      return true;
    case DataType::kUint8:
      f(TypeTag<uint8_t>{});
      return true;
    case DataType::kUint16:
      f(TypeTag<uint16_t>{});
      return true;
    case DataType::kUint32:
      f(TypeTag<uint32_t>{});
      return true;
    case DataType::kUint64:
      f(TypeTag<uint64_t>{});
      return true;
    default:
      return false;
  }
}

// Numeric types plus bool (Cast's domain besides string; data_types::kNumericOrBool).
template <class F>
bool DispatchNumericOrBool(DataType dtype, F&& f) {
  if (dtype == DataType::kBool) {
    f(TypeTag<bool>{});
    return true;
  }
  return DispatchNumeric(dtype, std::forward<F>(f));
}

// A set of element types to dispatch over, for kernels defined on a subset:
//
//   using Reals = TypeList<float, double, Float16, BFloat16>;
//   Reals::Dispatch(dtype, [&](auto tag) { using T = typename decltype(tag)::type; ... });
//
// Dispatch returns false (without calling f) for a type outside the list. kSet is the list as a
// DataTypeSet, for the kernel registrations that declare the types a kernel computes.
template <class... Ts>
struct TypeList {
  static constexpr DataTypeSet kSet = {DataTypeOf<Ts>::value...};

  template <class F>
  static bool Dispatch(DataType dtype, F&& f) {
    return ((dtype == DataTypeOf<Ts>::value && (f(TypeTag<Ts>{}), true)) || ...);
  }
};

template <class T>
inline constexpr bool kIsHalf = std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>;

template <class T>
inline constexpr bool kIsFloatingPoint = kIsHalf<T> || std::is_floating_point_v<T>;

// The type arithmetic on T is carried out in.
template <class T>
using ComputeType = std::conditional_t<kIsHalf<T>, float, T>;

template <class T>
ComputeType<T> Load(T value) {
  if constexpr (kIsHalf<T>) {
    return value.ToFloat();
  } else {
    return value;
  }
}

template <class T>
T Store(ComputeType<T> value) {
  if constexpr (kIsHalf<T>) {
    return T::FromFloat(value);
  } else {
    return value;
  }
}

// Unsigned type of at least int's width for T, so that integer arithmetic wraps modulo 2^bits
// instead of overflowing (small types would otherwise promote to signed int).
template <class T>
using WrapType =
    std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;

template <class T>
T WrapAdd(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(static_cast<WrapType<T>>(a) + static_cast<WrapType<T>>(b));
  } else {
    return a + b;
  }
}

template <class T>
T WrapSub(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(static_cast<WrapType<T>>(a) - static_cast<WrapType<T>>(b));
  } else {
    return a - b;
  }
}

template <class T>
T WrapMul(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(static_cast<WrapType<T>>(a) * static_cast<WrapType<T>>(b));
  } else {
    return a * b;
  }
}

}  // namespace graphgc::internal

#endif  // GRAPHGC_DISPATCH_H_
