// JPEG 2000 (a JP2 file or a bare J2K codestream) through OpenJPEG. Handled: 8-bit unsigned
// gray, gray with alpha, RGB and RGBA with every component at full resolution, which is what
// Pillow writes and what it turns into RGB sample for sample. Declined: other precisions (Pillow
// shifts them to 8 bits its own way), signed samples, subsampled components, YCC and CMYK.
#include <algorithm>
#include <cstring>
#include <memory>

#include "absl/strings/str_cat.h"
#include "graphgc/opset/kernels/image/image_codecs.h"
#include "graphgc/valuestore/status_macros.h"
#include "openjpeg.h"

namespace graphgc::kernels::image {
namespace {

struct Jpeg2000Source {
  EncodedBytes bytes;
  size_t offset = 0;
  std::string message;
};

OPJ_SIZE_T Read(void* out, OPJ_SIZE_T length, void* user_data) {
  auto* source = static_cast<Jpeg2000Source*>(user_data);
  if (source->offset >= source->bytes.size()) return static_cast<OPJ_SIZE_T>(-1);
  const size_t count = std::min<size_t>(length, source->bytes.size() - source->offset);
  std::memcpy(out, source->bytes.data() + source->offset, count);
  source->offset += count;
  return count;
}

OPJ_OFF_T Skip(OPJ_OFF_T length, void* user_data) {
  auto* source = static_cast<Jpeg2000Source*>(user_data);
  if (length < 0 || static_cast<size_t>(length) > source->bytes.size() - source->offset) {
    return -1;
  }
  source->offset += static_cast<size_t>(length);
  return length;
}

OPJ_BOOL Seek(OPJ_OFF_T offset, void* user_data) {
  auto* source = static_cast<Jpeg2000Source*>(user_data);
  if (offset < 0 || static_cast<size_t>(offset) > source->bytes.size()) return OPJ_FALSE;
  source->offset = static_cast<size_t>(offset);
  return OPJ_TRUE;
}

void OnError(const char* message, void* user_data) {
  auto* source = static_cast<Jpeg2000Source*>(user_data);
  if (source->message.empty()) source->message = message;
  while (!source->message.empty() && source->message.back() == '\n') source->message.pop_back();
}
void OnOther(const char*, void*) {}

struct CodecCloser {
  void operator()(opj_codec_t* codec) const { opj_destroy_codec(codec); }
};
struct StreamCloser {
  void operator()(opj_stream_t* stream) const { opj_stream_destroy(stream); }
};
struct ImageCloser {
  void operator()(opj_image_t* image) const { opj_image_destroy(image); }
};

absl::Status CheckComponents(const opj_image_t& image) {
  if (image.numcomps < 1 || image.numcomps > 4 || image.comps == nullptr) {
    return Decline(absl::StrCat("a JPEG 2000 image of ", image.numcomps, " components"));
  }
  if (image.color_space != OPJ_CLRSPC_UNSPECIFIED && image.color_space != OPJ_CLRSPC_SRGB &&
      image.color_space != OPJ_CLRSPC_GRAY) {
    return Decline(absl::StrCat("a JPEG 2000 image in color space ", image.color_space));
  }
  const opj_image_comp_t& first = image.comps[0];
  for (OPJ_UINT32 c = 0; c < image.numcomps; ++c) {
    const opj_image_comp_t& comp = image.comps[c];
    if (comp.prec != 8 || comp.sgnd != 0 || comp.dx != 1 || comp.dy != 1 || comp.w != first.w ||
        comp.h != first.h) {
      return Decline(absl::StrCat("a JPEG 2000 component of ", comp.prec, " bits",
                                  comp.sgnd ? ", signed" : "", ", subsampled ", comp.dx, " x ",
                                  comp.dy));
    }
  }
  return absl::OkStatus();
}

// Gray (one or two components) repeats its first component; RGB(A) takes the first three.
void Interleave(const opj_image_t& image, absl::Span<uint8_t> pixels) {
  const bool gray = image.numcomps < 3;
  const size_t count = pixels.size() / 3;
  for (int channel = 0; channel < 3; ++channel) {
    const OPJ_INT32* samples = image.comps[gray ? 0 : channel].data;
    for (size_t i = 0; i < count; ++i) {
      pixels[3 * i + channel] = static_cast<uint8_t>(std::clamp<OPJ_INT32>(samples[i], 0, 255));
    }
  }
}

}  // namespace

absl::StatusOr<MutableTensor> DecodeJpeg2000(EncodedBytes bytes, const KernelContext& ctx) {
  Jpeg2000Source source{bytes, 0, ""};
  const bool jp2 = bytes.size() >= 4 && bytes[0] == 0 && bytes[1] == 0;
  const std::unique_ptr<opj_codec_t, CodecCloser> codec(
      opj_create_decompress(jp2 ? OPJ_CODEC_JP2 : OPJ_CODEC_J2K));
  const std::unique_ptr<opj_stream_t, StreamCloser> stream(opj_stream_create(1 << 16, OPJ_TRUE));
  if (codec == nullptr || stream == nullptr) {
    return absl::ResourceExhaustedError("OpenJPEG could not start");
  }
  opj_set_error_handler(codec.get(), OnError, &source);
  opj_set_warning_handler(codec.get(), OnOther, &source);
  opj_set_info_handler(codec.get(), OnOther, &source);
  opj_stream_set_user_data(stream.get(), &source, nullptr);
  opj_stream_set_user_data_length(stream.get(), bytes.size());
  opj_stream_set_read_function(stream.get(), Read);
  opj_stream_set_skip_function(stream.get(), Skip);
  opj_stream_set_seek_function(stream.get(), Seek);
  opj_dparameters_t parameters;
  opj_set_default_decoder_parameters(&parameters);
  if (!opj_setup_decoder(codec.get(), &parameters)) return Undecodable("JPEG 2000", "setup");
  opj_image_t* header = nullptr;
  if (!opj_read_header(stream.get(), codec.get(), &header)) {
    return Undecodable("JPEG 2000", source.message);
  }
  const std::unique_ptr<opj_image_t, ImageCloser> image(header);
  if (image->x1 <= image->x0 || image->y1 <= image->y0) {
    return Undecodable("JPEG 2000", "an empty image area");
  }
  const int64_t width = int64_t{image->x1} - image->x0;
  const int64_t height = int64_t{image->y1} - image->y0;
  // OpenJPEG holds every sample as an int32 while it decodes.
  if (width > (int64_t{1} << 24) || height > (int64_t{1} << 24) ||
      !ctx.within_budget(DataType::kInt32, width * height * image->numcomps)) {
    return absl::ResourceExhaustedError("a JPEG 2000 image past the value budget");
  }
  GRAPHGC_RETURN_IF_ERROR(CheckComponents(*image));
  if (!opj_decode(codec.get(), stream.get(), image.get()) ||
      !opj_end_decompress(codec.get(), stream.get())) {
    return Undecodable("JPEG 2000", source.message);
  }
  GRAPHGC_ASSIGN_OR_RETURN(MutableTensor rgb,
                           AllocateRgb(ctx, image->comps[0].h, image->comps[0].w));
  for (OPJ_UINT32 c = 0; c < image->numcomps; ++c) {
    if (image->comps[c].data == nullptr) return Undecodable("JPEG 2000", "a component lacks data");
  }
  Interleave(*image, rgb.mutable_data<uint8_t>());
  return rgb;
}

}  // namespace graphgc::kernels::image
