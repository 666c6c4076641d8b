"""The narrow element types (float8, float4e2m1, float8e8m0, int4, uint4) as ml_dtypes arrays:
every bit pattern goes numpy -> graphgc -> numpy bit-exactly, in ml_dtypes' own byte form (int4's
high nibble zero), and the dtypes map to graphgc's element types both ways."""

import ml_dtypes
import numpy as np
import pytest

import graphgc

EIGHT_BIT = [
    ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e4m3fnuz, ml_dtypes.float8_e5m2,
    ml_dtypes.float8_e5m2fnuz, ml_dtypes.float8_e8m0fnu,
]
FOUR_BIT = [ml_dtypes.int4, ml_dtypes.uint4, ml_dtypes.float4_e2m1fn]


def every_pattern(dtype):
    patterns = 256 if dtype in EIGHT_BIT else 16
    return np.arange(patterns, dtype=np.uint8).view(dtype).reshape(-1, 4 if patterns == 16 else 16)


@pytest.mark.parametrize("dtype", EIGHT_BIT + FOUR_BIT, ids=lambda d: np.dtype(d).name)
def test_every_bit_pattern_round_trips(dtype, graph):
    array = every_pattern(dtype)
    constant = graph.constant(array)
    assert constant.dtype == np.dtype(dtype)
    value = constant.value
    assert value.dtype == np.dtype(dtype)
    assert value.shape == array.shape
    np.testing.assert_array_equal(value.view(np.uint8), array.view(np.uint8))
    # And back into graphgc from graphgc's own array.
    again = graph.constant(value).value
    np.testing.assert_array_equal(again.view(np.uint8), array.view(np.uint8))


def test_four_bit_values_keep_their_meaning(graph):
    ints = np.array([-8, -1, 0, 7], dtype=ml_dtypes.int4)
    np.testing.assert_array_equal(graph.constant(ints).value.astype(np.int8), [-8, -1, 0, 7])
    floats = np.array([-6.0, -0.5, 0.0, 1.5], dtype=ml_dtypes.float4_e2m1fn)
    np.testing.assert_array_equal(
        graph.constant(floats).value.astype(np.float32), [-6.0, -0.5, 0.0, 1.5])
    # ml_dtypes ignores a 4-bit element's high nibble; so does graphgc.
    dirty = np.array([0xF7, 0x18], dtype=np.uint8).view(ml_dtypes.int4)
    np.testing.assert_array_equal(graph.constant(dirty).value.astype(np.int8), [7, -8])


def test_dtypes_map_both_ways(graph):
    for dtype in EIGHT_BIT + FOUR_BIT:
        x = graph.argument("x_" + np.dtype(dtype).name, dtype, [2])
        assert x.dtype == np.dtype(dtype)


# The IR version that introduced each type: an export holding one declares at least that.
IR_OF = {"float8_e4m3fn": 9, "float8_e4m3fnuz": 9, "float8_e5m2": 9, "float8_e5m2fnuz": 9,
         "int4": 10, "uint4": 10, "float4_e2m1fn": 11, "float8_e8m0fnu": 12}


@pytest.mark.parametrize("dtype", EIGHT_BIT + FOUR_BIT, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("as_initializer", [False, True], ids=["node", "initializer"])
def test_every_bit_pattern_round_trips_through_tensor_proto(dtype, as_initializer):
    """graphgc -> TensorProto -> numpy (ONNX's own reader, ml_dtypes) -> graphgc, bit-exactly."""
    import onnx
    import onnx.numpy_helper

    g = graphgc.Graph()
    array = every_pattern(dtype)
    if dtype in FOUR_BIT:  # an odd element count: the last byte holds one 4-bit value
        array = array.reshape(-1)[:15]
    model = graphgc.to_onnx(g, {"y": g.constant(array)},
                            constants_as_initializers=as_initializer, check=True)
    # Graph constants are Constant nodes of opset 24, which came with IR 12.
    assert model.ir_version == 12 >= IR_OF[np.dtype(dtype).name]
    if as_initializer:
        proto = model.graph.initializer[0]
    else:
        proto = next(a.t for n in model.graph.node for a in n.attribute if a.name == "value")
    back = onnx.numpy_helper.to_array(proto)
    assert back.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(back.view(np.uint8), array.view(np.uint8))
    again = g.constant(back).value
    np.testing.assert_array_equal(again.view(np.uint8), array.view(np.uint8))
    # And the model ONNX's writer produced is read by graphgc bit-exactly.
    imported = graphgc.inline_model(g, model, prefix="again/")
    np.testing.assert_array_equal(imported["y"].value.view(np.uint8), array.view(np.uint8))
