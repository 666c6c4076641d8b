// FuzzInput: reads the fuzzer's bytes as a stream of small decisions. Once the bytes run out every
// read returns zero, so any input, however short, decodes to a complete, finite program.
#ifndef GRAPHGC_TESTS_FUZZ_FUZZ_INPUT_H_
#define GRAPHGC_TESTS_FUZZ_FUZZ_INPUT_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace graphgc::fuzz {

class FuzzInput {
 public:
  FuzzInput(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  bool empty() const { return offset_ >= size_; }
  uint8_t byte() { return empty() ? 0 : data_[offset_++]; }
  bool flag() { return (byte() & 1) != 0; }
  // A value in [0, count); 0 when count is 0.
  size_t pick(size_t count) {
    if (count <= 1) return 0;
    uint32_t value = byte();
    if (count > 256) value = (value << 8) | byte();
    return value % count;
  }
  int64_t int_in(int64_t low, int64_t high) {
    return low + static_cast<int64_t>(pick(static_cast<size_t>(high - low + 1)));
  }
  template <class T>
  T raw() {
    T value{};
    unsigned char bytes[sizeof(T)] = {};
    for (unsigned char& b : bytes) b = byte();
    std::memcpy(&value, bytes, sizeof(T));
    return value;
  }
  // Mostly small numbers, sometimes an extreme one: what a bad attribute or dim looks like.
  int64_t interesting_int() {
    switch (byte() % 8) {
      case 0:
        return raw<int64_t>();
      case 1:
        return -int_in(1, 4);
      case 2:
        return int64_t{1} << int_in(16, 62);
      default:
        return int_in(0, 4);
    }
  }
  std::string text(size_t max_length) {
    std::string s;
    for (size_t n = pick(max_length + 1); n > 0; --n) s.push_back(static_cast<char>(byte()));
    return s;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t offset_ = 0;
};

}  // namespace graphgc::fuzz

#endif  // GRAPHGC_TESTS_FUZZ_FUZZ_INPUT_H_
