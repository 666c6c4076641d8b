// WebP through libwebp, with its default (fancy) chroma upsampling, as Pillow decodes it. An
// animation is declined: Pillow gives its first frame composed on the canvas, which is not what
// a single frame's pixels are.
#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/image/image_codecs.h"
#include "graphgc/valuestore/status_macros.h"
#include "webp/decode.h"

namespace graphgc::kernels::image {

absl::StatusOr<MutableTensor> DecodeWebp(EncodedBytes bytes, const KernelContext& ctx) {
  WebPBitstreamFeatures features;
  const VP8StatusCode status = WebPGetFeatures(bytes.data(), bytes.size(), &features);
  if (status != VP8_STATUS_OK) {
    return Undecodable("WebP", absl::StrCat("libwebp's status ", static_cast<int>(status)));
  }
  if (features.has_animation) return Decline("an animated WebP");
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor rgb, AllocateRgb(ctx, features.height, features.width));
  auto pixels = rgb.mutable_data<uint8_t>();
  if (WebPDecodeRGBInto(bytes.data(), bytes.size(), pixels.data(), pixels.size(),
                        features.width * 3) == nullptr) {
    return Undecodable("WebP", "libwebp could not decode it");
  }
  return rgb;
}

}  // namespace graphgc::kernels::image
