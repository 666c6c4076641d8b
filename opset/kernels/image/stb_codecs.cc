// BMP and binary PNM (P5 gray, P6 color) through stb_image. stb_image reads fewer variants than
// Pillow (no RLE BMP, no plain-text or bitmap PNM), and it tells a variant it lacks from a corrupt
// stream only in prose, so whatever it refuses is declined: no value, never a wrong empty image.
// PNM of a maxval other than 255 is declined before it: Pillow scales such samples to 255,
// stb_image keeps them.
#include <cctype>
#include <cstdint>
#include <memory>
#include <optional>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/image/image_codecs.h"
#include "graphgc/valuestore/status_macros.h"
#include "stb_image.h"

namespace graphgc::kernels::image {
namespace {

struct StbFree {
  void operator()(stbi_uc* pixels) const { stbi_image_free(pixels); }
};

absl::StatusOr<MutableTensor> DecodeWithStb(absl::string_view format, EncodedBytes bytes,
                                            const KernelContext& ctx) {
  if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max())) {
    return Decline(absl::StrCat("a ", format, " stream past 2 GiB"));
  }
  const int length = static_cast<int>(bytes.size());
  int width = 0, height = 0, channels = 0;
  if (stbi_info_from_memory(bytes.data(), length, &width, &height, &channels) != 1) {
    return Decline(
        absl::StrCat("stb_image does not read this ", format, ": ", stbi_failure_reason()));
  }
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor rgb, AllocateRgb(ctx, height, width));
  stbi_set_flip_vertically_on_load_thread(0);  // the process may have set it for its own images
  const std::unique_ptr<stbi_uc, StbFree> decoded(
      stbi_load_from_memory(bytes.data(), length, &width, &height, &channels, 3));
  if (decoded == nullptr) {
    return Decline(
        absl::StrCat("stb_image does not read this ", format, ": ", stbi_failure_reason()));
  }
  auto pixels = rgb.mutable_data<uint8_t>();
  if (static_cast<int64_t>(width) * height * 3 != static_cast<int64_t>(pixels.size())) {
    return Decline(absl::StrCat("stb_image read another size of this ", format));
  }
  std::copy(decoded.get(), decoded.get() + pixels.size(), pixels.begin());
  return rgb;
}

// The n-th whitespace-separated token of a PNM header (comments from '#' to the line's end
// skipped), as a number; nullopt past the header or for a non-number.
std::optional<int64_t> PnmHeaderNumber(EncodedBytes bytes, int n) {
  size_t i = 2;  // past the magic number
  for (int token = 0;; ++token) {
    while (i < bytes.size() && (std::isspace(bytes[i]) || bytes[i] == '#')) {
      if (bytes[i] == '#') {
        while (i < bytes.size() && bytes[i] != '\n' && bytes[i] != '\r') ++i;
      } else {
        ++i;
      }
    }
    int64_t value = 0;
    const size_t start = i;
    while (i < bytes.size() && std::isdigit(bytes[i]) && value < (int64_t{1} << 32)) {
      value = value * 10 + (bytes[i++] - '0');
    }
    if (i == start) return std::nullopt;
    if (token == n) return value;
  }
}

}  // namespace

absl::StatusOr<MutableTensor> DecodeBmp(EncodedBytes bytes, const KernelContext& ctx) {
  return DecodeWithStb("BMP", bytes, ctx);
}

absl::StatusOr<MutableTensor> DecodePnm(EncodedBytes bytes, const KernelContext& ctx) {
  if (bytes.size() < 2 || (bytes[1] != '5' && bytes[1] != '6')) {
    return Decline("a PNM other than binary gray (P5) or color (P6)");
  }
  const std::optional<int64_t> maxval = PnmHeaderNumber(bytes, 2);
  if (!maxval.has_value()) return Undecodable("PNM", "its header has no maxval");
  if (*maxval != 255) return Decline(absl::StrCat("a PNM of maxval ", *maxval));
  return DecodeWithStb("PNM", bytes, ctx);
}

}  // namespace graphgc::kernels::image
