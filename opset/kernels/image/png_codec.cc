// PNG through libpng's sequential reading API, transformed to 8-bit RGB the way Pillow
// converts to "RGB": palettes looked up, gray of 1, 2 or 4 bits scaled to 8 and repeated, 16-bit
// color samples cut to their high byte, alpha (and tRNS transparency) dropped. 16-bit gray is
// declined: Pillow opens it as "I;16" and clips it at 255 on the way to 8 bits. No gamma or ICC
// profile is applied, as Pillow applies none.
//
// libpng reports errors by longjmp: the functions that set the jump point hold no object with a
// destructor, and the pixels they write are allocated before them.
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <vector>

#include "graphgc/opset/kernels/image/image_codecs.h"
#include "graphgc/valuestore/status_macros.h"
#include "png.h"

namespace graphgc::kernels::image {
namespace {

struct PngSource {
  EncodedBytes bytes;
  size_t offset = 0;
  char message[256] = "";
};

void ReadFromMemory(png_structp png, png_bytep out, size_t length) {
  auto* source = static_cast<PngSource*>(png_get_io_ptr(png));
  if (length > source->bytes.size() - source->offset) png_error(png, "the stream ends early");
  std::memcpy(out, source->bytes.data() + source->offset, length);
  source->offset += length;
}

[[noreturn]] void OnError(png_structp png, png_const_charp message) {
  auto* source = static_cast<PngSource*>(png_get_error_ptr(png));
  std::snprintf(source->message, sizeof(source->message), "%s", message);
  png_longjmp(png, 1);
}

void OnWarning(png_structp, png_const_charp) {}

struct Reader {
  png_structp png = nullptr;
  png_infop info = nullptr;
  ~Reader() { png_destroy_read_struct(&png, info != nullptr ? &info : nullptr, nullptr); }
};

struct Header {
  png_uint_32 width = 0;
  png_uint_32 height = 0;
  size_t row_bytes = 0;
  int channels = 0;
  int bit_depth = 0;
  bool gray_16bit = false;
};

// Reads the header and sets the transforms to 8-bit RGB; false after a libpng error.
bool ReadHeader(png_structp png, png_infop info, Header* header) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_read_info(png, info);
  const int color_type = png_get_color_type(png, info);
  header->gray_16bit = color_type == PNG_COLOR_TYPE_GRAY && png_get_bit_depth(png, info) == 16;
  if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (color_type == PNG_COLOR_TYPE_GRAY && png_get_bit_depth(png, info) < 8) {
    png_set_expand_gray_1_2_4_to_8(png);
  }
  png_set_strip_16(png);
  png_set_strip_alpha(png);
  if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) {
    png_set_gray_to_rgb(png);
  }
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  header->width = png_get_image_width(png, info);
  header->height = png_get_image_height(png, info);
  header->row_bytes = png_get_rowbytes(png, info);
  header->channels = png_get_channels(png, info);
  header->bit_depth = png_get_bit_depth(png, info);
  return true;
}

bool ReadRows(png_structp png, png_bytepp rows) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_read_image(png, rows);
  return true;
}

}  // namespace

absl::StatusOr<MutableTensor> DecodePng(EncodedBytes bytes, const KernelContext& ctx) {
  PngSource source{bytes};
  Reader reader;
  reader.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &source, OnError, OnWarning);
  if (reader.png == nullptr) return absl::ResourceExhaustedError("libpng could not start");
  reader.info = png_create_info_struct(reader.png);
  if (reader.info == nullptr) return absl::ResourceExhaustedError("libpng could not start");
  png_set_read_fn(reader.png, &source, ReadFromMemory);
  png_set_user_limits(reader.png, 1u << 24, 1u << 24);
  png_set_chunk_malloc_max(reader.png, 64u << 20);  // text and ICC chunks, decompressed

  Header header;
  if (!ReadHeader(reader.png, reader.info, &header)) return Undecodable("PNG", source.message);
  if (header.gray_16bit) return Decline("16-bit gray PNG: Pillow clips it to 8 bits at 255");
  if (header.channels != 3 || header.bit_depth != 8 || header.row_bytes != header.width * 3u) {
    return Undecodable("PNG", "its pixels do not transform to 8-bit RGB");
  }
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor rgb, AllocateRgb(ctx, header.height, header.width));
  uint8_t* pixels = rgb.mutable_data<uint8_t>().data();
  std::vector<png_bytep> rows(header.height);
  for (size_t y = 0; y < rows.size(); ++y) rows[y] = pixels + y * header.row_bytes;
  if (!ReadRows(reader.png, rows.data())) return Undecodable("PNG", source.message);
  return rgb;
}

}  // namespace graphgc::kernels::image
