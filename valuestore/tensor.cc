#include "graphgc/valuestore/tensor.h"

#include <cstring>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace graphgc {

namespace {
// Bound the count so that count * largest element size cannot overflow size_t either.
constexpr int64_t kMaxElements = std::numeric_limits<int64_t>::max() / 64;
}  // namespace

absl::StatusOr<int64_t> ElementCount(absl::Span<const int64_t> shape) {
  bool empty = false;
  for (int64_t dim : shape) {
    if (dim < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("shape ", ShapeToString(shape), " has a negative dimension"));
    }
    empty = empty || dim == 0;
  }
  if (empty) return 0;  // whatever the other dims are: [2^40, 2^40, 0] holds nothing
  int64_t count = 1;
  for (int64_t dim : shape) {
    // A multiply, not a division per dim: this runs for every output of every op.
    if (__builtin_mul_overflow(count, dim, &count) || count > kMaxElements) {
      return absl::InvalidArgumentError(
          absl::StrCat("shape ", ShapeToString(shape), " has too many elements"));
    }
  }
  return count;
}

bool DimsMultiplySafely(absl::Span<const int64_t> shape) {
  int64_t product = 1;
  for (int64_t dim : shape) {
    if (dim < 0) return false;
    if (dim == 0) continue;
    if (product > kMaxElements / dim) return false;
    product *= dim;
  }
  return true;
}

std::string ShapeToString(absl::Span<const int64_t> shape) {
  return absl::StrCat("[", absl::StrJoin(shape, ","), "]");
}

Tensor::Tensor() : buffer_(nullptr), dtype_(DataType::kUndefined), size_(0), shape_{0} {}

Tensor::Tensor(internal::Buffer* buffer, DataType dtype, Shape shape, int64_t size)
    : buffer_(buffer), dtype_(dtype), size_(size), shape_(std::move(shape)) {}

// Defined before its two users, and inline: it runs in every move of a tensor.
inline void Tensor::become_empty_after_move() {
  buffer_ = nullptr;
  dtype_ = DataType::kUndefined;
  size_ = 0;
  // The empty tensor's shape, [0], without InlinedVector's general assignment (a tensor moves
  // several times on its way from a kernel to the value store: that was an eighth of a
  // propagated Mul's cost outside its loop).
  shape_.resize(1);
  shape_[0] = 0;
}

Tensor::Tensor(const Tensor& other)
    : buffer_(other.buffer_), dtype_(other.dtype_), size_(other.size_), shape_(other.shape_) {
  if (buffer_ != nullptr) buffer_->Ref();
}

Tensor::Tensor(Tensor&& other) noexcept
    : buffer_(other.buffer_),
      dtype_(other.dtype_),
      size_(other.size_),
      shape_(std::move(other.shape_)) {
  other.become_empty_after_move();
}

Tensor& Tensor::operator=(const Tensor& other) {
  if (other.buffer_ != nullptr) other.buffer_->Ref();  // first: `other` may share our buffer
  if (buffer_ != nullptr) buffer_->Unref();
  buffer_ = other.buffer_;
  dtype_ = other.dtype_;
  size_ = other.size_;
  shape_ = other.shape_;
  return *this;
}

Tensor& Tensor::operator=(Tensor&& other) noexcept {
  if (this == &other) return *this;
  if (buffer_ != nullptr) buffer_->Unref();
  buffer_ = other.buffer_;
  dtype_ = other.dtype_;
  size_ = other.size_;
  shape_ = std::move(other.shape_);
  other.become_empty_after_move();
  return *this;
}

Tensor::~Tensor() {
  if (buffer_ != nullptr) buffer_->Unref();
}

const void* Tensor::raw_data() const { return buffer_ == nullptr ? nullptr : buffer_->data(); }

absl::StatusOr<Tensor> Tensor::zeros_checked(DataType dtype, absl::Span<const int64_t> shape) {
  if (dtype == DataType::kUndefined) {
    return absl::InvalidArgumentError("Tensor::zeros: element type is undefined");
  }
  auto out = MutableTensor::allocate(dtype, shape);
  if (!out.ok()) return out.status();
  if (dtype != DataType::kString) {
    std::memset(out->raw_mutable_data(), 0, static_cast<size_t>(out->size()) * ElementSize(dtype));
  }
  return std::move(*out).freeze();
}

Tensor Tensor::zeros(DataType dtype, absl::Span<const int64_t> shape) {
  absl::StatusOr<Tensor> tensor = zeros_checked(dtype, shape);
  return tensor.ok() ? *std::move(tensor) : Tensor();
}

absl::StatusOr<Tensor> Tensor::view_external(DataType dtype, absl::Span<const int64_t> shape,
                                             const void* data, size_t bytes,
                                             std::shared_ptr<const void> owner) {
  if (!IsSupportedDataType(static_cast<int32_t>(dtype)) || dtype == DataType::kString) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Tensor::view_external: element type ", DataTypeName(dtype), " cannot be viewed in place"));
  }
  auto count = ElementCount(shape);
  if (!count.ok()) return count.status();
  const size_t element_size = ElementSize(dtype);
  if (bytes != static_cast<size_t>(*count) * element_size) {
    return absl::InvalidArgumentError(absl::StrCat("Tensor::view_external: ", bytes, " bytes for ",
                                                   DataTypeName(dtype), ShapeToString(shape),
                                                   " of ", *count * element_size, " bytes"));
  }
  if (*count == 0) return zeros_checked(dtype, shape);  // no element to view; owner not needed
  if (data == nullptr || owner == nullptr) {
    return absl::InvalidArgumentError("Tensor::view_external: no data or no owner");
  }
  // Every supported non-string element size is its own alignment (1, 2, 4 or 8).
  if (reinterpret_cast<uintptr_t>(data) % element_size != 0) {
    return absl::InvalidArgumentError(absl::StrCat("Tensor::view_external: data of ",
                                                   DataTypeName(dtype), ShapeToString(shape),
                                                   " is not aligned to ", element_size, " bytes"));
  }
  internal::Buffer* buffer = internal::Buffer::WrapExternal(dtype, *count, data, std::move(owner));
  if (buffer == nullptr) {
    return absl::ResourceExhaustedError("Tensor::view_external: cannot allocate a buffer header");
  }
  return Tensor(buffer, dtype, Shape(shape.begin(), shape.end()), *count);
}

Tensor Tensor::reshaped(absl::Span<const int64_t> shape) const {
  auto count = ElementCount(shape);
  if (!count.ok() || *count != size_) return Tensor();
  if (buffer_ != nullptr) buffer_->Ref();
  return Tensor(buffer_, dtype_, Shape(shape.begin(), shape.end()), size_);
}

bool operator==(const Tensor& a, const Tensor& b) {
  if (a.dtype_ != b.dtype_ || a.shape_ != b.shape_) return false;
  if (a.buffer_ == b.buffer_) return true;
  if (a.dtype_ == DataType::kString) {
    auto x = a.data<std::string>();
    auto y = b.data<std::string>();
    return std::equal(x.begin(), x.end(), y.begin());
  }
  return std::memcmp(a.raw_data(), b.raw_data(), a.nbytes()) == 0;
}

absl::StatusOr<MutableTensor> MutableTensor::allocate(DataType dtype,
                                                      absl::Span<const int64_t> shape) {
  if (!IsSupportedDataType(static_cast<int32_t>(dtype))) {
    return absl::InvalidArgumentError(
        absl::StrCat("Tensor: unsupported element type ", static_cast<int32_t>(dtype)));
  }
  auto count = ElementCount(shape);
  if (!count.ok()) return count.status();
  internal::Buffer* buffer = internal::Buffer::Allocate(dtype, *count);
  if (buffer == nullptr) {
    return absl::ResourceExhaustedError(
        absl::StrCat("Tensor: cannot allocate ", DataTypeName(dtype), ShapeToString(shape)));
  }
  return MutableTensor(Tensor(buffer, dtype, Shape(shape.begin(), shape.end()), *count));
}

}  // namespace graphgc
