// JPEG through libjpeg-turbo's TurboJPEG API, with the settings Pillow decodes with: the accurate
// integer IDCT and "fancy" (smooth) chroma upsampling, which ImageDecoder's specification names.
// CMYK and YCCK images are declined: Pillow keeps them as CMYK, and its conversion to RGB is its
// own. A stream libjpeg-turbo only warns about (extraneous bytes, say) is declined too, because
// Pillow decodes some of those and fails others.
#include <memory>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/image/image_codecs.h"
#include "graphgc/valuestore/status_macros.h"
#include "turbojpeg.h"

namespace graphgc::kernels::image {
namespace {

struct HandleCloser {
  void operator()(void* handle) const { tjDestroy(handle); }
};
using Handle = std::unique_ptr<void, HandleCloser>;

// Large progressive scans counts make decoding quadratic; libjpeg-turbo's limit is 500.
constexpr int kDecodeFlags = TJFLAG_ACCURATEDCT | TJFLAG_LIMITSCANS;

absl::Status Failure(tjhandle handle) {
  const std::string message = tjGetErrorStr2(handle);
  if (tjGetErrorCode(handle) == TJERR_WARNING) {
    return Decline(absl::StrCat("libjpeg-turbo warns about this JPEG stream: ", message));
  }
  return Undecodable("JPEG", message);
}

}  // namespace

absl::StatusOr<MutableTensor> DecodeJpeg(EncodedBytes bytes, const KernelContext& ctx) {
  const Handle handle(tjInitDecompress());
  if (handle == nullptr) return absl::ResourceExhaustedError("libjpeg-turbo could not start");
  int width = 0, height = 0, subsampling = 0, colorspace = 0;
  if (tjDecompressHeader3(handle.get(), bytes.data(), bytes.size(), &width, &height, &subsampling,
                          &colorspace) != 0) {
    return Failure(handle.get());
  }
  if (colorspace == TJCS_CMYK || colorspace == TJCS_YCCK) {
    return Decline("a CMYK JPEG: Pillow keeps it as CMYK, not RGB");
  }
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor rgb, AllocateRgb(ctx, height, width));
  if (tjDecompress2(handle.get(), bytes.data(), bytes.size(), rgb.mutable_data<uint8_t>().data(),
                    width, /*pitch=*/0, height, TJPF_RGB, kDecodeFlags) != 0) {
    return Failure(handle.get());
  }
  return rgb;
}

}  // namespace graphgc::kernels::image
