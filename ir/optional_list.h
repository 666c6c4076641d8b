// OptionalList<T>: a list attribute of a generated op's attribute struct (INTS, FLOATS, STRINGS)
// that may be left unset — std::optional<std::vector<T>> as far as reading it goes, but built
// from a plain braced list, which std::optional cannot take:
//
//   op::Conv(x, w, Var(), {.pads = {1, 1, 1, 1}, .strides = {1, 1}});
//
// Unset (the default, or std::nullopt) leaves the attribute out, so the schema's default applies;
// set, even to an empty list, passes the list. A FLOATS list also takes double and int literals
// ({0.5, 0.1}, {1, 2}), converted to float, as ONNX stores them. `{{1, 1}}` (the spelling
// std::optional needed) still works. A plain value type; thread-compatible.
#ifndef GRAPHGC_OPTIONAL_LIST_H_
#define GRAPHGC_OPTIONAL_LIST_H_

#include <concepts>
#include <initializer_list>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

namespace graphgc {

template <class T>
class OptionalList {
 public:
  OptionalList() = default;
  OptionalList(std::nullopt_t) {}  // NOLINT: implicit like std::optional's
  OptionalList(std::initializer_list<T> values) : values_(values), set_(true) {}  // NOLINT
  // Any number literals for a float list, converted: {0.1, 0.2} (doubles) and {1, 2} (ints)
  // would otherwise be a narrowing error or ambiguous. (Mixed lists do not deduce: {1, 0.5}
  // does not compile; write {1.0, 0.5}.)
  template <class Number>
  requires std::same_as<T, float> && std::is_arithmetic_v<Number> OptionalList(
      std::initializer_list<Number> values)  // NOLINT
      : set_(true) {
    values_.reserve(values.size());
    for (Number value : values) values_.push_back(static_cast<float>(value));
  }
  OptionalList(std::vector<T> values) : values_(std::move(values)), set_(true) {}  // NOLINT
  OptionalList(std::optional<std::vector<T>> values)                               // NOLINT
      : values_(values.has_value() ? std::move(*values) : std::vector<T>()),
        set_(values.has_value()) {}

  bool has_value() const { return set_; }
  explicit operator bool() const { return set_; }
  // The list; an unset one reads as empty (where std::optional would throw or be undefined).
  const std::vector<T>& value() const { return values_; }
  const std::vector<T>& operator*() const { return value(); }
  const std::vector<T>* operator->() const { return &value(); }
  std::vector<T> value_or(std::vector<T> otherwise) const {
    return set_ ? values_ : std::move(otherwise);
  }
  void reset() {
    values_.clear();
    set_ = false;
  }
  // As std::optional<std::vector<T>>.
  std::optional<std::vector<T>> as_optional() const {
    return set_ ? std::optional<std::vector<T>>(values_) : std::nullopt;
  }

  friend bool operator==(const OptionalList& a, const OptionalList& b) {
    return a.set_ == b.set_ && a.values_ == b.values_;
  }
  friend bool operator==(const OptionalList& a, std::nullopt_t) { return !a.set_; }

 private:
  std::vector<T> values_;
  bool set_ = false;
};

}  // namespace graphgc

#endif  // GRAPHGC_OPTIONAL_LIST_H_
