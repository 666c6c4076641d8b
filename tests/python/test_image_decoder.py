"""ImageDecoder against Pillow, the library ONNX's reference decodes with: images Pillow encodes in
every format, mode and codec option the operator names, decoded by graphgc to RGB, BGR and
Grayscale and compared with Pillow's own decoding of the same bytes, converted with
Image.convert("RGB") or convert("L"). Bit for bit: JPEG and WebP too, since both sides run the
codec's reference decoder with the same settings.

A case graphgc declines (a variant whose RGB Pillow makes its own way) must say so: it is listed
with the reason in DECLINED, and any other case without a value fails."""

import io

import numpy as np
import pytest
from PIL import Image  # the oracle: tools/python-requirements.txt pins it, so it is never skipped

import graphgc

PIXEL_FORMATS = ("RGB", "BGR", "Grayscale")


def checkerboard(width, height, seed, tile=5):
    rng = np.random.default_rng(seed)
    colors = rng.integers(0, 256, size=(height // tile + 1, width // tile + 1, 3), dtype=np.uint8)
    tiles = np.repeat(np.repeat(colors, tile, axis=0), tile, axis=1)[:height, :width]
    noise = rng.integers(-12, 13, size=(height, width, 3))
    return np.clip(tiles.astype(np.int64) + noise, 0, 255).astype(np.uint8)


def encoded(mode, format_, width=37, height=23, seed=1, **options):
    rgb = Image.fromarray(checkerboard(width, height, seed))
    if mode == "RGBA":
        image = rgb.copy()
        image.putalpha(Image.fromarray(checkerboard(width, height, seed + 1)[..., 0]))
    elif mode == "LA":
        image = rgb.convert("L")
        image.putalpha(Image.fromarray(checkerboard(width, height, seed + 1)[..., 0]))
    elif mode == "P":
        image = rgb.quantize(colors=23)
    elif mode == "I;16":
        wide = checkerboard(width, height, seed)[..., 0].astype(np.uint16) * 257 + 3
        image = Image.fromarray(wide)
    else:
        image = rgb.convert(mode)
    out = io.BytesIO()
    image.save(out, format=format_, **options)
    return out.getvalue()


# (name, Pillow mode, Pillow format, save options)
CASES = [
    ("png_rgb", "RGB", "PNG", {}),
    ("png_rgba", "RGBA", "PNG", {}),
    ("png_gray", "L", "PNG", {}),
    ("png_gray_alpha", "LA", "PNG", {}),
    ("png_palette", "P", "PNG", {}),
    ("png_bilevel", "1", "PNG", {}),
    ("png_palette_4bit", "P", "PNG", {"bits": 4}),
    ("png_palette_transparency", "P", "PNG", {"transparency": 0}),
    ("png_gray_16bit", "I;16", "PNG", {}),
    ("jpeg_rgb_420", "RGB", "JPEG", {"quality": 75}),
    ("jpeg_rgb_422", "RGB", "JPEG", {"quality": 90, "subsampling": 1}),
    ("jpeg_rgb_444", "RGB", "JPEG", {"quality": 95, "subsampling": 0}),
    ("jpeg_progressive", "RGB", "JPEG", {"quality": 60, "progressive": True}),
    ("jpeg_optimized_restart", "RGB", "JPEG", {"optimize": True, "restart_marker_blocks": 2}),
    ("jpeg_gray", "L", "JPEG", {}),
    ("jpeg_cmyk", "CMYK", "JPEG", {}),
    ("bmp_rgb", "RGB", "BMP", {}),
    ("bmp_rgba", "RGBA", "BMP", {}),
    ("bmp_gray", "L", "BMP", {}),
    ("bmp_palette", "P", "BMP", {}),
    ("bmp_bilevel", "1", "BMP", {}),
    ("tiff_rgb", "RGB", "TIFF", {}),
    ("tiff_rgb_lzw", "RGB", "TIFF", {"compression": "tiff_lzw"}),
    ("tiff_rgb_deflate", "RGB", "TIFF", {"compression": "tiff_adobe_deflate"}),
    ("tiff_rgb_packbits", "RGB", "TIFF", {"compression": "packbits"}),
    ("tiff_gray", "L", "TIFF", {}),
    ("tiff_bilevel", "1", "TIFF", {}),
    ("tiff_bilevel_g4", "1", "TIFF", {"compression": "group4"}),
    ("tiff_palette", "P", "TIFF", {}),
    ("tiff_rgb_jpeg", "RGB", "TIFF", {"compression": "jpeg"}),
    ("tiff_rgba", "RGBA", "TIFF", {}),
    ("tiff_gray_alpha", "LA", "TIFF", {}),
    ("tiff_gray_16bit", "I;16", "TIFF", {}),
    ("webp_lossy", "RGB", "WEBP", {"quality": 80}),
    ("webp_lossy_alpha", "RGBA", "WEBP", {"quality": 70}),
    ("webp_lossless", "RGB", "WEBP", {"lossless": True}),
    ("webp_lossless_alpha", "RGBA", "WEBP", {"lossless": True, "exact": True}),
    ("jpeg2000_lossless", "RGB", "JPEG2000", {}),
    ("jpeg2000_lossy", "RGB", "JPEG2000", {"irreversible": True, "quality_layers": [40]}),
    ("jpeg2000_codestream", "RGB", "JPEG2000", {"no_jp2": True}),
    ("jpeg2000_gray", "L", "JPEG2000", {}),
    ("jpeg2000_rgba", "RGBA", "JPEG2000", {}),
    ("jpeg2000_gray_16bit", "I;16", "JPEG2000", {}),
    ("ppm", "RGB", "PPM", {}),
    ("pgm", "L", "PPM", {}),
    ("pbm", "1", "PPM", {}),
    ("gif", "RGB", "GIF", {}),
]

# Valid images graphgc gives no value, and why: never a value other than Pillow's.
DECLINED = {
    "png_gray_16bit": "Pillow clips 16-bit gray to 255 on the way to 8 bits, not its high byte",
    "jpeg_cmyk": "Pillow keeps a CMYK JPEG as CMYK, and converts it to RGB its own way",
    "tiff_rgba": "libtiff premultiplies an unassociated alpha; Pillow keeps the stored RGB",
    "tiff_gray_alpha": "as tiff_rgba",
    "tiff_gray_16bit": "as png_gray_16bit",
    "jpeg2000_gray_16bit": "Pillow shifts 16-bit samples to 8 bits its own way",
    "pbm": "stb_image reads binary gray and color maps (P5, P6) only",
    "gif": "a format ImageDecoder does not name, which Pillow (ONNX's reference) decodes",
}


def expected(data, pixel_format):
    image = Image.open(io.BytesIO(data))
    if pixel_format == "Grayscale":
        return np.asarray(image.convert("L"))[..., np.newaxis]
    rgb = np.asarray(image.convert("RGB"))
    return rgb[..., ::-1] if pixel_format == "BGR" else rgb


class Decoded:
    """ImageDecoder's output var, with the graph it lives in kept alive beside it."""

    def __init__(self, data, pixel_format, graph_options):
        self.graph = graphgc.Graph(**graph_options)
        stream = self.graph.constant(np.frombuffer(data, np.uint8))
        self.var = graphgc.opset20.image_decoder(stream, pixel_format=pixel_format)

    def __getattr__(self, name):
        return getattr(self.var, name)


def decode(data, pixel_format, **graph_options):
    return Decoded(data, pixel_format, graph_options)


@pytest.mark.parametrize("pixel_format", PIXEL_FORMATS)
@pytest.mark.parametrize("name, mode, format_, options", CASES, ids=[c[0] for c in CASES])
def test_decodes_as_pillow_does(name, mode, format_, options, pixel_format):
    data = encoded(mode, format_, **options)
    image = decode(data, pixel_format)
    assert image.dtype == np.uint8
    if name in DECLINED:
        assert image.value is None, f"{name} now has a value: check it and drop it from DECLINED"
        assert image.value_status, "a declined image says why"
        return
    assert image.value is not None, image.value_status
    want = expected(data, pixel_format)
    assert image.value.shape == want.shape
    np.testing.assert_array_equal(image.value, want)


@pytest.mark.parametrize("width, height", [(1, 1), (1, 40), (64, 3), (129, 65)])
def test_odd_sizes_of_lossy_formats(width, height):
    for format_, options in (("JPEG", {"quality": 85}), ("WEBP", {"quality": 85})):
        data = encoded("RGB", format_, width, height, seed=width * height, **options)
        image = decode(data, "RGB")
        np.testing.assert_array_equal(image.value, expected(data, "RGB"), err_msg=format_)


@pytest.mark.parametrize("pixel_format, channels", [("RGB", 3), ("BGR", 3), ("Grayscale", 1)])
def test_what_is_no_image_decodes_to_the_empty_image(pixel_format, channels):
    png = encoded("RGB", "PNG")
    not_images = [
        b"",
        b"not an image at all",
        png[:40],  # a PNG cut inside its pixel data
        png[:8] + bytes(len(png) - 8),  # a PNG signature, then zeros
        b"\xff\xd8\xff" + bytes(64),  # a JPEG signature, then no valid marker
        b"RIFF\x10\x00\x00\x00WEBPVP8 " + bytes(8),
    ]
    for data in not_images:
        image = decode(data, pixel_format)
        assert image.value is not None, (data[:16], image.value_status)
        assert image.value.shape == (0, 0, channels), data[:16]


def test_a_truncated_jpeg_gets_no_value_rather_than_a_gray_padded_one():
    data = encoded("RGB", "JPEG", 64, 64)
    image = decode(data[: len(data) // 2], "RGB")
    assert image.value is None
    assert "ImageDecoder" in image.value_status


def test_a_bad_pixel_format_is_an_error_naming_it():
    with pytest.raises(graphgc.Error, match="pixel_format"):
        decode(encoded("RGB", "PNG"), "RGBA")


def test_the_decoded_pixels_count_against_the_value_budget():
    data = encoded("RGB", "PNG", 200, 100)  # 60 000 bytes decoded, under 1 kB encoded
    image = decode(data, "RGB", max_value_bytes=20_000)
    assert image.value is None
    assert image.shape == (None, None, None)
    assert decode(data, "RGB", max_value_bytes=100_000).value.shape == (100, 200, 3)


MUTATED_FORMATS = [
    ("PNG", "RGB", {}),
    ("JPEG", "RGB", {"quality": 80}),
    ("JPEG", "RGB", {"progressive": True}),
    ("TIFF", "RGB", {"compression": "tiff_lzw"}),
    ("WEBP", "RGB", {"quality": 80}),
    ("WEBP", "RGBA", {"lossless": True}),
    ("JPEG2000", "RGB", {}),
    ("BMP", "P", {}),
    ("PPM", "RGB", {}),
]


@pytest.mark.parametrize("format_, mode, options", MUTATED_FORMATS,
                         ids=[f"{f}-{m}-{len(o)}" for f, m, o in MUTATED_FORMATS])
def test_damaged_streams_never_break_the_decoder(format_, mode, options):
    """Flipped bytes, cut streams and inflated header fields: each decodes to an image (of any
    size), the empty image or no value, never a crash (the sanitized pytest run checks memory)."""
    data = bytearray(encoded(mode, format_, 24, 16, seed=7, **options))
    rng = np.random.default_rng(len(data))
    damaged = [bytes(data[:cut]) for cut in rng.integers(1, len(data), size=20)]
    for _ in range(400):
        copy = bytearray(data)
        for position in rng.integers(0, len(copy), size=rng.integers(1, 4)):
            copy[position] = rng.choice([0x00, 0xFF, 0x7F, 0x80, int(rng.integers(0, 256))])
        damaged.append(bytes(copy))
    for copy in damaged:
        image = decode(copy, "RGB", max_value_bytes=1 << 22)
        if image.value is not None:
            assert image.value.dtype == np.uint8
            assert image.value.ndim == 3 and image.value.shape[2] == 3
