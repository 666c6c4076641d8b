"""numpy in and out: every element type graphgc has, values shared without copies, read-only."""

import gc

import ml_dtypes
import numpy as np
import onnx
import onnx.numpy_helper
import pytest

import graphgc
from graphgc import op

NUMERIC = [
    np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
    np.float16, np.float32, np.float64, ml_dtypes.bfloat16,
]


def sample(dtype, rng):
    if dtype is np.bool_:
        return rng.integers(0, 2, size=(3, 4)).astype(bool)
    if np.issubdtype(np.dtype(dtype), np.integer):
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, size=(3, 4), dtype=dtype, endpoint=True)
    values = rng.standard_normal((3, 4)) * 100
    values[0, :3] = [np.inf, -np.inf, 0.0]
    return values.astype(dtype)


@pytest.mark.parametrize("dtype", NUMERIC, ids=lambda d: np.dtype(d).name)
def test_every_numeric_dtype_round_trips(dtype, graph, rng):
    array = sample(dtype, rng)
    constant = graph.constant(array)
    assert constant.dtype == np.dtype(dtype)
    assert constant.shape == (3, 4)
    computed = op.identity(constant)  # a value of the value store, not the constant's
    for var in (constant, computed):
        value = var.value
        assert value.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(value.view(np.uint8), np.ascontiguousarray(array).view(np.uint8))
    # And through the exported model, read back by onnx's own numpy_helper.
    model = graphgc.to_onnx(graph, {"y": computed}, check=True)
    exported = onnx.numpy_helper.to_array(model.graph.node[0].attribute[0].t)
    if dtype is ml_dtypes.bfloat16:  # onnx 1.23 gives bfloat16 as ml_dtypes.bfloat16
        exported = exported.astype(ml_dtypes.bfloat16)
    np.testing.assert_array_equal(exported.astype(np.dtype(dtype)), array)


def test_nan_payloads_survive(graph):
    array = np.array([np.nan, -np.nan, 1.0], dtype=np.float32)
    np.testing.assert_array_equal(
        op.identity(graph.constant(array)).value.view(np.uint32), array.view(np.uint32))


def test_strings_round_trip_as_str(graph):
    array = np.array([["a", "ü"], ["", "long string " * 10]])
    value = op.identity(graph.constant(array)).value
    assert value.dtype == object
    assert value.tolist() == array.tolist()
    assert graph.constant(np.array([b"bytes"], dtype=object)).value.tolist() == ["bytes"]


def test_scalars_lists_and_non_contiguous_arrays(graph):
    assert graph.constant(2.5).shape == ()
    assert graph.constant(2.5).dtype == np.float64
    assert graph.constant([1, 2, 3]).dtype == np.int64
    strided = np.arange(24, dtype=np.int32).reshape(4, 6)[::2, ::3].T
    np.testing.assert_array_equal(graph.constant(strided).value, strided)
    swapped = np.arange(5, dtype=">i4")  # big-endian in, native out
    np.testing.assert_array_equal(graph.constant(swapped).value, np.arange(5))
    empty = graph.constant(np.zeros((0, 3), dtype=np.float32))
    assert empty.value.shape == (0, 3)


def test_value_is_a_read_only_view_shared_not_copied(graph):
    a = op.add(graph.constant(np.ones(1000)), graph.constant(np.ones(1000)))
    first, second = a.value, a.value
    assert np.shares_memory(first, second)  # both views over the value store's one buffer
    assert not first.flags.writeable
    with pytest.raises(ValueError):
        first[0] = 5.0
    with pytest.raises(ValueError):
        first.setflags(write=True)


def test_a_view_keeps_its_buffer_alive_after_var_and_graph_are_gone():
    g = graphgc.Graph(collect_policy="manual")
    a = op.add(g.constant(np.full(100000, 3.0)), g.constant(np.ones(100000)))
    view = a.value[10:20]
    del a
    assert g.collect().freed_values >= 1  # the store let go of it; the view still holds it
    del g
    gc.collect()
    for _ in range(50):  # reuse the freed memory if the view did not hold it
        np.full(100000, -1.0)
    np.testing.assert_array_equal(view, np.full(10, 4.0))


def test_unsupported_dtypes_raise(graph):
    with pytest.raises(graphgc.Error, match="complex"):
        graph.constant(np.zeros(2, dtype=np.complex64))
    with pytest.raises(graphgc.Error):
        graph.constant(np.array(["a", 3], dtype=object))
    with pytest.raises(graphgc.Error):
        graph.argument("x", "not a dtype")
