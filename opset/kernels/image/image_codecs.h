// The image codecs behind ImageDecoder: each decodes one encoded format into 8-bit RGB pixels
// with the library that format's own maintainers keep (Debian's libjpeg-turbo, libpng, libtiff,
// libwebp, OpenJPEG, and stb_image for BMP and binary PNM).
//
// Every decoder takes the whole encoded stream and returns a [height, width, 3] uint8 tensor
// allocated through the kernel context, so the decoded pixels count against the value budget
// before any of them is decoded. What a decoder returns:
//   - the pixels: samples wider than 8 bits keep their high byte, alpha is dropped (not blended),
//     palettes are looked up and gray is repeated into R, G and B;
//   - kInvalidArgument (Undecodable()): the stream is not a valid image of that format; ONNX
//     says ImageDecoder then gives an empty image;
//   - kUnimplemented (Decline()): a valid image this decoder does not turn into RGB the way
//     the reference (Pillow) does, so no value rather than a different one;
//   - kResourceExhausted: the pixels do not fit the value budget.
// The libraries' own messages never reach stderr; none of them keeps state between calls.
//
// Threading: each call is independent; the libraries are used reentrantly.
#ifndef GRAPHGC_OPSET_KERNELS_IMAGE_IMAGE_CODECS_H_
#define GRAPHGC_OPSET_KERNELS_IMAGE_IMAGE_CODECS_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graphgc/opset/kernels/kernel.h"
#include "graphgc/valuestore/tensor.h"

namespace graphgc::kernels::image {

using EncodedBytes = absl::Span<const uint8_t>;

// The status for a stream that is not a valid image of its format.
absl::Status Undecodable(absl::string_view format, absl::string_view why);

// A [height, width, 3] uint8 tensor within the value budget; dims up to 2^24 each.
absl::StatusOr<MutableTensor> AllocateRgb(const KernelContext& ctx, int64_t height, int64_t width);

absl::StatusOr<MutableTensor> DecodeJpeg(EncodedBytes bytes, const KernelContext& ctx);
absl::StatusOr<MutableTensor> DecodePng(EncodedBytes bytes, const KernelContext& ctx);
absl::StatusOr<MutableTensor> DecodeTiff(EncodedBytes bytes, const KernelContext& ctx);
absl::StatusOr<MutableTensor> DecodeWebp(EncodedBytes bytes, const KernelContext& ctx);
absl::StatusOr<MutableTensor> DecodeJpeg2000(EncodedBytes bytes, const KernelContext& ctx);
// BMP, and PNM's binary gray and color maps (P5, P6) of maxval 255.
absl::StatusOr<MutableTensor> DecodeBmp(EncodedBytes bytes, const KernelContext& ctx);
absl::StatusOr<MutableTensor> DecodePnm(EncodedBytes bytes, const KernelContext& ctx);

}  // namespace graphgc::kernels::image

#endif  // GRAPHGC_OPSET_KERNELS_IMAGE_IMAGE_CODECS_H_
