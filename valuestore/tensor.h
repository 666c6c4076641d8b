// Tensor: an immutable n-dimensional array of one element type.
//
// Ownership: a Tensor is a cheap handle (buffer pointer + shape); copies share one
// reference-counted Buffer and its contents never change after creation, so sharing is always safe.
// Views with another shape over the same buffer (Reshape) are made with reshaped(). A tensor may
// also view elements it does not own (view_external: a memory-mapped file region), kept alive by
// a shared owner for as long as any copy of the tensor lives. Threading: a Tensor may be copied
// and read from any thread.
//
// Nothing here aborts: data<T>() with a T that does not match dtype() returns an empty span, and
// from_vector(), zeros() and reshaped() given a bad shape or value count return the empty tensor
// (dtype kUndefined), which Graph::constant refuses. create() and zeros_checked() are the forms
// that say why.
#ifndef GRAPHGC_TENSOR_H_
#define GRAPHGC_TENSOR_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <iosfwd>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "graphgc/valuestore/buffer.h"
#include "graphgc/valuestore/check.h"
#include "graphgc/valuestore/data_type.h"

namespace graphgc {

using Shape = absl::InlinedVector<int64_t, 4>;

// Element count of a shape with non-negative dims, or an error naming the shape if a dim is
// negative or the count does not fit in int64 (nor in memory at any element size).
absl::StatusOr<int64_t> ElementCount(absl::Span<const int64_t> shape);

// Whether the product of `shape`'s dims, zero dims counted as one, is a count ElementCount
// accepts: then any product of some of its dims fits in int64. An empty tensor may carry dims of
// any size ([0, 2^62, 2^62]); kernels take only inputs that pass this.
bool DimsMultiplySafely(absl::Span<const int64_t> shape);

// "[2,3,-1]" (unknown dims print as -1).
std::string ShapeToString(absl::Span<const int64_t> shape);

class MutableTensor;
class Tensor;

// "float[2,3] {1, 2, 3, 4, 5, 6}": the element type, the shape and the first eight elements
// (strings quoted and escaped); the empty tensor prints as "undefined[0]".
std::ostream& operator<<(std::ostream& out, const Tensor& tensor);

class Tensor {
 public:
  // An empty tensor: dtype kUndefined, shape [0], no buffer.
  Tensor();
  Tensor(const Tensor& other);
  Tensor(Tensor&& other) noexcept;
  Tensor& operator=(const Tensor& other);
  Tensor& operator=(Tensor&& other) noexcept;
  ~Tensor();

  template <class T>
  static Tensor from_vector(std::vector<T> values, absl::Span<const int64_t> shape);
  template <class T>
  static Tensor from_vector(std::vector<T> values);  // 1-D
  template <class T>
  static Tensor scalar(T value);
  // Checked form of from_vector(): an error if the value count does not match the shape.
  template <class T>
  static absl::StatusOr<Tensor> create(std::vector<T> values, absl::Span<const int64_t> shape);
  // All elements zero (false for bool, "" for string). The empty tensor on a negative dim, an
  // overflowing shape or an allocation failure; zeros_checked() reports them instead.
  static Tensor zeros(DataType dtype, absl::Span<const int64_t> shape);
  static absl::StatusOr<Tensor> zeros_checked(DataType dtype, absl::Span<const int64_t> shape);
  // A tensor whose elements are the `bytes` bytes at `data` (host byte order), not copied; `owner`
  // keeps them alive and unchanged while the tensor or any copy of it lives. Errors: strings or an
  // unsupported type, a bad shape, `bytes` not the shape's element count times the element size,
  // `data` not aligned for the element type (the caller copies instead), no owner. Bool elements
  // must be 0 or 1 bytes: the caller checks.
  static absl::StatusOr<Tensor> view_external(DataType dtype, absl::Span<const int64_t> shape,
                                              const void* data, size_t bytes,
                                              std::shared_ptr<const void> owner);

  DataType dtype() const { return dtype_; }
  absl::Span<const int64_t> shape() const { return shape_; }
  int64_t rank() const { return static_cast<int64_t>(shape_.size()); }
  int64_t size() const { return size_; }
  size_t nbytes() const { return static_cast<size_t>(size_) * ElementSize(dtype_); }

  // The elements; empty if T is not the element type of dtype().
  template <class T>
  absl::Span<const T> data() const {
    if (DataTypeOf<T>::value != dtype_) return {};
    return absl::Span<const T>(static_cast<const T*>(raw_data()), static_cast<size_t>(size_));
  }
  const void* raw_data() const;

  // The same elements viewed with another shape of the same element count; shares the buffer.
  // The empty tensor if the counts differ.
  Tensor reshaped(absl::Span<const int64_t> shape) const;

  // Identity of the underlying buffer (for accounting shared buffers once); nullptr if none.
  const internal::Buffer* buffer() const { return buffer_; }
  // Bytes of the underlying buffer (can exceed nbytes() of a view only in future slicing views).
  size_t buffer_bytes() const { return buffer_ == nullptr ? 0 : buffer_->nbytes(); }
  // True if the elements live in memory the tensor does not own (view_external).
  bool is_external_view() const { return buffer_ != nullptr && buffer_->is_external(); }

  // Same dtype, shape and elements (bitwise for floating point, so NaN equals the same NaN).
  friend bool operator==(const Tensor& a, const Tensor& b);
  friend bool operator!=(const Tensor& a, const Tensor& b) { return !(a == b); }

 private:
  friend class MutableTensor;
  Tensor(internal::Buffer* buffer, DataType dtype, Shape shape, int64_t size);
  // Makes a tensor whose fields were just moved out the empty tensor, without releasing the buffer
  // (its new owner has it).
  void become_empty_after_move();
  template <class T>
  static absl::StatusOr<Tensor> FromValues(std::vector<T>&& values,
                                           absl::Span<const int64_t> shape);

  internal::Buffer* buffer_;  // owned reference, nullptr for the empty tensor
  DataType dtype_;
  int64_t size_;
  Shape shape_;
};

// A tensor under construction: writable until freeze(), which makes it an immutable Tensor.
// Used by kernels and importers; never shared while mutable.
class MutableTensor {
 public:
  // Uninitialized elements (strings default-constructed). Errors: bad shape, allocation failure.
  static absl::StatusOr<MutableTensor> allocate(DataType dtype, absl::Span<const int64_t> shape);

  MutableTensor(MutableTensor&&) noexcept = default;
  MutableTensor& operator=(MutableTensor&&) noexcept = default;

  // The elements; empty if T is not the element type of dtype().
  template <class T>
  absl::Span<T> mutable_data() {
    if (DataTypeOf<T>::value != tensor_.dtype_) return {};
    return absl::Span<T>(static_cast<T*>(raw_mutable_data()), static_cast<size_t>(tensor_.size_));
  }
  void* raw_mutable_data() {
    return tensor_.buffer_ == nullptr ? nullptr : tensor_.buffer_->data();
  }
  DataType dtype() const { return tensor_.dtype_; }
  absl::Span<const int64_t> shape() const { return tensor_.shape_; }
  int64_t size() const { return tensor_.size_; }

  Tensor freeze() && { return std::move(tensor_); }

 private:
  explicit MutableTensor(Tensor tensor) : tensor_(std::move(tensor)) {}
  Tensor tensor_;
};

namespace internal {
// Stores values into a freshly allocated tensor; std::vector<bool> is unpacked to one byte each.
template <class T>
void CopyValues(std::vector<T>&& values, MutableTensor& out) {
  auto dst = out.mutable_data<T>();
  for (size_t i = 0; i < dst.size(); ++i) dst[i] = std::move(values[i]);
}
}  // namespace internal

template <class T>
absl::StatusOr<Tensor> Tensor::FromValues(std::vector<T>&& values,
                                          absl::Span<const int64_t> shape) {
  auto count = ElementCount(shape);
  if (!count.ok()) return count.status();
  if (*count != static_cast<int64_t>(values.size())) {
    return absl::InvalidArgumentError("Tensor: " + std::to_string(values.size()) +
                                      " values given for shape " + ShapeToString(shape) + " of " +
                                      std::to_string(*count) + " elements");
  }
  auto out = MutableTensor::allocate(DataTypeOf<T>::value, shape);
  if (!out.ok()) return out.status();
  internal::CopyValues<T>(std::move(values), *out);
  return std::move(*out).freeze();
}

template <class T>
absl::StatusOr<Tensor> Tensor::create(std::vector<T> values, absl::Span<const int64_t> shape) {
  return FromValues<T>(std::move(values), shape);
}

template <class T>
Tensor Tensor::from_vector(std::vector<T> values, absl::Span<const int64_t> shape) {
  absl::StatusOr<Tensor> tensor = FromValues<T>(std::move(values), shape);
  return tensor.ok() ? *std::move(tensor) : Tensor();
}

template <class T>
Tensor Tensor::from_vector(std::vector<T> values) {
  const int64_t count = static_cast<int64_t>(values.size());
  return from_vector<T>(std::move(values), {count});
}

template <class T>
Tensor Tensor::scalar(T value) {
  std::vector<T> values;
  values.push_back(std::move(value));
  return from_vector<T>(std::move(values), {});
}

}  // namespace graphgc

#endif  // GRAPHGC_TENSOR_H_
