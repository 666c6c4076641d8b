// TIFF through libtiff's RGBA image interface, for the first image of the file and the layouts
// whose RGB pixels Pillow and libtiff agree on: gray (min-is-black or min-is-white) of 1, 2, 4
// or 8 bits, palettes, and 8-bit RGB, in any compression libtiff reads. Declined: extra samples
// (libtiff premultiplies an unassociated alpha, Pillow does not), YCbCr, CMYK, Lab and the rest.
// The pixels keep the order they are stored in, as Pillow gives them (the Orientation tag is
// metadata to both).
#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/image/image_codecs.h"
#include "graphgc/valuestore/status_macros.h"
#include "tiffio.h"

namespace graphgc::kernels::image {
namespace {

struct TiffSource {
  EncodedBytes bytes;
  toff_t offset = 0;
  char message[256] = "";
};

tmsize_t Read(thandle_t handle, void* out, tmsize_t length) {
  auto* source = static_cast<TiffSource*>(handle);
  if (length < 0 || source->offset > source->bytes.size()) return 0;
  const size_t count =
      std::min<size_t>(static_cast<size_t>(length), source->bytes.size() - source->offset);
  std::memcpy(out, source->bytes.data() + source->offset, count);
  source->offset += count;
  return static_cast<tmsize_t>(count);
}

tmsize_t Write(thandle_t, void*, tmsize_t) { return 0; }

toff_t Seek(thandle_t handle, toff_t offset, int whence) {
  auto* source = static_cast<TiffSource*>(handle);
  const toff_t base = whence == SEEK_CUR   ? source->offset
                      : whence == SEEK_END ? source->bytes.size()
                                           : 0;
  if (offset > std::numeric_limits<toff_t>::max() - base) return static_cast<toff_t>(-1);
  source->offset = base + offset;
  return source->offset;
}

int Close(thandle_t) { return 0; }
toff_t Size(thandle_t handle) { return static_cast<TiffSource*>(handle)->bytes.size(); }
int Map(thandle_t, void**, toff_t*) { return 0; }
void Unmap(thandle_t, void*, toff_t) {}

int OnError(TIFF*, void* user_data, const char* module, const char* format, va_list args) {
  auto* source = static_cast<TiffSource*>(user_data);
  char message[200];
  std::vsnprintf(message, sizeof(message), format, args);
  std::snprintf(source->message, sizeof(source->message), "%s: %s", module ? module : "", message);
  return 1;  // handled: nothing goes to stderr
}

int OnWarning(TIFF*, void*, const char*, const char*, va_list) { return 1; }

struct TiffCloser {
  void operator()(TIFF* tiff) const { TIFFClose(tiff); }
};
struct OptionsFreer {
  void operator()(TIFFOpenOptions* options) const { TIFFOpenOptionsFree(options); }
};

uint16_t Field16(TIFF* tiff, uint32_t tag, uint16_t fallback) {
  uint16_t value = fallback;
  return TIFFGetFieldDefaulted(tiff, tag, &value) == 1 ? value : fallback;
}

// Whether Pillow and libtiff's RGBA interface give this layout the same RGB pixels.
absl::Status CheckLayout(TIFF* tiff) {
  uint16_t extra_count = 0;
  uint16_t* extra_kinds = nullptr;
  if (TIFFGetFieldDefaulted(tiff, TIFFTAG_EXTRASAMPLES, &extra_count, &extra_kinds) == 1 &&
      extra_count > 0) {
    return Decline("a TIFF with extra samples (alpha)");
  }
  const uint16_t photometric = Field16(tiff, TIFFTAG_PHOTOMETRIC, 0xFFFF);
  const uint16_t bits = Field16(tiff, TIFFTAG_BITSPERSAMPLE, 1);
  const uint16_t samples = Field16(tiff, TIFFTAG_SAMPLESPERPIXEL, 1);
  const bool gray = photometric == PHOTOMETRIC_MINISBLACK || photometric == PHOTOMETRIC_MINISWHITE;
  const bool small = bits == 1 || bits == 2 || bits == 4 || bits == 8;
  if ((gray || photometric == PHOTOMETRIC_PALETTE) && samples == 1 && small) {
    return absl::OkStatus();
  }
  if (photometric == PHOTOMETRIC_RGB && samples == 3 && bits == 8) return absl::OkStatus();
  return Decline(absl::StrCat("a TIFF of photometric interpretation ", photometric, ", ", samples,
                              " samples of ", bits, " bits"));
}

}  // namespace

absl::StatusOr<MutableTensor> DecodeTiff(EncodedBytes bytes, const KernelContext& ctx) {
  TiffSource source{bytes};
  const std::unique_ptr<TIFFOpenOptions, OptionsFreer> options(TIFFOpenOptionsAlloc());
  if (options == nullptr) return absl::ResourceExhaustedError("libtiff could not start");
  TIFFOpenOptionsSetErrorHandlerExtR(options.get(), OnError, &source);
  TIFFOpenOptionsSetWarningHandlerExtR(options.get(), OnWarning, &source);
  TIFFOpenOptionsSetMaxSingleMemAlloc(options.get(),
                                      std::min<tmsize_t>(ctx.max_value_bytes(), tmsize_t{1} << 30));
  const std::unique_ptr<TIFF, TiffCloser> tiff(TIFFClientOpenExt(
      "ImageDecoder", "rm", &source, Read, Write, Seek, Close, Size, Map, Unmap, options.get()));
  if (tiff == nullptr) return Undecodable("TIFF", source.message);
  GRAPHGC_RETURN_IF_ERROR(CheckLayout(tiff.get()));
  char why[1024] = "";
  if (TIFFRGBAImageOK(tiff.get(), why) != 1) return Decline(absl::StrCat("libtiff: ", why));
  uint32_t width = 0, height = 0;
  TIFFGetField(tiff.get(), TIFFTAG_IMAGEWIDTH, &width);
  TIFFGetField(tiff.get(), TIFFTAG_IMAGELENGTH, &height);
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor rgb, AllocateRgb(ctx, height, width));
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor raster, ctx.allocate(DataType::kUint32, {height, width}));
  auto packed = raster.mutable_data<uint32_t>();
  const uint16_t stored_orientation = Field16(tiff.get(), TIFFTAG_ORIENTATION, ORIENTATION_TOPLEFT);
  if (TIFFReadRGBAImageOriented(tiff.get(), width, height, packed.data(), stored_orientation,
                                /*stop_on_error=*/1) != 1) {
    return Undecodable("TIFF", source.message);
  }
  auto pixels = rgb.mutable_data<uint8_t>();
  for (size_t i = 0; i < packed.size(); ++i) {
    pixels[3 * i] = static_cast<uint8_t>(TIFFGetR(packed[i]));
    pixels[3 * i + 1] = static_cast<uint8_t>(TIFFGetG(packed[i]));
    pixels[3 * i + 2] = static_cast<uint8_t>(TIFFGetB(packed[i]));
  }
  return rgb;
}

}  // namespace graphgc::kernels::image
