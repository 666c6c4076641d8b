// ImageDecoder (opset 20): decodes one encoded image (BMP, JPEG, JPEG 2000, TIFF, PNG, WebP or
// PNM, told apart by their leading bytes) into [height, width, 3] RGB or BGR, or [height, width,
// 1] gray, as ONNX's reference does with Pillow: gray is Pillow's "L" of the RGB pixels,
// (19595 R + 38470 G + 7471 B + 2^15) >> 16. A stream that is no image of these formats, or a
// corrupt one, gives the empty image [0, 0, channels], as ONNX specifies; an image of a format
// ONNX does not name but Pillow decodes (GIF, ...) gets no value, since the specification and its
// reference disagree on it.
#include <cstdint>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/image/image_codecs.h"
#include "graphgc/opset/kernels/image/image_kernels.h"
#include "graphgc/valuestore/status_macros.h"

namespace graphgc::kernels {
namespace {

using image::EncodedBytes;

enum class PixelFormat { kRgb, kBgr, kGrayscale };

using Decoder = absl::StatusOr<MutableTensor> (*)(EncodedBytes, const KernelContext&);

bool StartsWith(EncodedBytes bytes, std::initializer_list<uint8_t> magic) {
  if (bytes.size() < magic.size()) return false;
  size_t i = 0;
  for (const uint8_t byte : magic) {
    if (bytes[i++] != byte) return false;
  }
  return true;
}

bool IsWebp(EncodedBytes bytes) {
  return bytes.size() >= 12 && StartsWith(bytes, {'R', 'I', 'F', 'F'}) && bytes[8] == 'W' &&
         bytes[9] == 'E' && bytes[10] == 'B' && bytes[11] == 'P';
}

// The decoder for the stream's signature; nullptr for none of the formats.
Decoder DecoderFor(EncodedBytes bytes) {
  if (StartsWith(bytes, {0xFF, 0xD8, 0xFF})) return image::DecodeJpeg;
  if (StartsWith(bytes, {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A})) return image::DecodePng;
  if (StartsWith(bytes, {'I', 'I', 0x2A, 0x00}) || StartsWith(bytes, {'M', 'M', 0x00, 0x2A}) ||
      StartsWith(bytes, {'I', 'I', 0x2B, 0x00}) || StartsWith(bytes, {'M', 'M', 0x00, 0x2B})) {
    return image::DecodeTiff;
  }
  if (IsWebp(bytes)) return image::DecodeWebp;
  if (StartsWith(bytes, {0x00, 0x00, 0x00, 0x0C, 'j', 'P', ' ', ' ', 0x0D, 0x0A, 0x87, 0x0A}) ||
      StartsWith(bytes, {0xFF, 0x4F, 0xFF, 0x51})) {
    return image::DecodeJpeg2000;
  }
  if (StartsWith(bytes, {'B', 'M'})) return image::DecodeBmp;
  if (bytes.size() >= 2 && bytes[0] == 'P' && bytes[1] >= '1' && bytes[1] <= '7') {
    return image::DecodePnm;
  }
  return nullptr;
}

// Formats ImageDecoder does not name but Pillow, ONNX's reference, decodes: no value rather than
// the empty image of an undecodable stream.
bool IsOtherPillowFormat(EncodedBytes bytes) {
  return StartsWith(bytes, {'G', 'I', 'F', '8'}) || StartsWith(bytes, {0x00, 0x00, 0x01, 0x00}) ||
         StartsWith(bytes, {0x00, 0x00, 0x02, 0x00}) || StartsWith(bytes, {'8', 'B', 'P', 'S'}) ||
         StartsWith(bytes, {'D', 'D', 'S', ' '}) || StartsWith(bytes, {'q', 'o', 'i', 'f'}) ||
         StartsWith(bytes, {'i', 'c', 'n', 's'});
}

absl::StatusOr<PixelFormat> ReadPixelFormat(const KernelContext& ctx) {
  const std::string name = ctx.string_attribute("pixel_format", "RGB");
  if (name == "RGB") return PixelFormat::kRgb;
  if (name == "BGR") return PixelFormat::kBgr;
  if (name == "Grayscale") return PixelFormat::kGrayscale;
  return absl::InvalidArgumentError(absl::StrCat(
      "attribute 'pixel_format' is \"", name, "\"; it must be \"RGB\", \"BGR\" or \"Grayscale\""));
}

int64_t Channels(PixelFormat format) { return format == PixelFormat::kGrayscale ? 1 : 3; }

void SwapRedAndBlue(MutableTensor& rgb) {
  auto pixels = rgb.mutable_data<uint8_t>();
  for (size_t i = 0; i + 2 < pixels.size(); i += 3) std::swap(pixels[i], pixels[i + 2]);
}

absl::StatusOr<Tensor> ToGray(const KernelContext& ctx, const Tensor& rgb) {
  const int64_t height = rgb.shape()[0];
  const int64_t width = rgb.shape()[1];
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor gray, ctx.allocate(DataType::kUint8, {height, width, 1}));
  const auto in = rgb.data<uint8_t>();
  auto out = gray.mutable_data<uint8_t>();
  for (size_t i = 0; i < out.size(); ++i) {
    const uint32_t r = in[3 * i], g = in[3 * i + 1], b = in[3 * i + 2];
    out[i] = static_cast<uint8_t>((r * 19595 + g * 38470 + b * 7471 + 0x8000) >> 16);
  }
  return std::move(gray).freeze();
}

KernelResult ImageDecoder(const KernelContext& ctx) {
  GRAPHGC_ASSIGN_OR_RETURN(const PixelFormat format, ReadPixelFormat(ctx));
  const Tensor& encoded = ctx.input(0);
  const auto data = encoded.data<uint8_t>();
  const EncodedBytes bytes(data.data(), data.size());
  const Decoder decode = DecoderFor(bytes);
  if (decode == nullptr && IsOtherPillowFormat(bytes)) {
    return Decline("a GIF, ICO, PSD, DDS, QOI or ICNS image: formats ImageDecoder does not name");
  }
  absl::StatusOr<MutableTensor> rgb =
      decode != nullptr ? decode(bytes, ctx) : image::Undecodable("image", "no known signature");
  if (!rgb.ok()) {
    if (rgb.status().code() != absl::StatusCode::kInvalidArgument) return rgb.status();
    GRAPHGC_ASSIGN_OR_RETURN(MutableTensor empty,
                             ctx.allocate(DataType::kUint8, {0, 0, Channels(format)}));
    return KernelOutputs{std::move(empty).freeze()};
  }
  if (format == PixelFormat::kBgr) SwapRedAndBlue(*rgb);
  Tensor pixels = std::move(*rgb).freeze();
  if (format != PixelFormat::kGrayscale) return KernelOutputs{std::move(pixels)};
  GRAPHGC_ASSIGN_OR_RETURN(Tensor gray, ToGray(ctx, pixels));
  return KernelOutputs{std::move(gray)};
}

}  // namespace

namespace image {

absl::Status Undecodable(absl::string_view format, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("not a decodable ", format, " stream: ", why));
}

absl::StatusOr<MutableTensor> AllocateRgb(const KernelContext& ctx, int64_t height, int64_t width) {
  constexpr int64_t kMaxSide = int64_t{1} << 24;
  if (height <= 0 || width <= 0 || height > kMaxSide || width > kMaxSide) {
    return Undecodable("image", absl::StrCat("its size is ", width, " x ", height));
  }
  return ctx.allocate(DataType::kUint8, {height, width, 3});
}

}  // namespace image

void RegisterImageDecoderKernels(KernelTable& table) {
  table.add("", "ImageDecoder", 20, KernelTable::kLatest,
            {{"T1", {DataType::kUint8}}, {"T2", {DataType::kUint8}}}, ImageDecoder);
}

}  // namespace graphgc::kernels
