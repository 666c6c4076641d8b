"""Dims by name: an argument declared ("N", 4) keeps the name in .shape and .type, the ops carry it
as ONNX's inference derives it, VarType.tensor takes names, and a type graphgc cannot read is an
error rather than a silent loss."""

import numpy as np
import onnx
import pytest

import graphgc
from graphgc import op


def test_an_argument_declared_with_a_name_shows_it():
    g = graphgc.Graph()
    x = g.argument("x", np.float32, ("N", 4))
    assert x.shape == ("N", 4)
    assert str(x.type) == "tensor(float)[N,4]"
    assert repr(x.type) == "VarType(tensor(float)[N,4])"
    assert x.type.shape == ("N", 4)
    unnamed = g.argument("u", np.float32, (None, 4))
    assert unnamed.shape == (None, 4)
    assert str(unnamed.type) == "tensor(float)[-1,4]"


def test_the_ops_carry_the_names():
    g = graphgc.Graph()
    x = g.argument("x", np.float32, ("N", 4))
    hidden = op.matmul(op.relu(x), g.constant(np.zeros((4, 3), np.float32)))
    assert hidden.shape == ("N", 3)
    assert op.transpose(hidden).shape == (3, "N")
    assert op.reduce_sum(hidden, g.constant(np.array([1], np.int64))).shape == ("N", 1)
    # Where two names meet and may differ, neither is kept.
    y = g.argument("y", np.float32, ("M", 4))
    assert op.concat([x, y], axis=0).shape == (None, 4)


def test_vartype_tensor_takes_names_and_equality_ignores_them():
    named = graphgc.VarType.tensor(np.float32, ("N", 3))
    assert named.shape == ("N", 3)
    assert str(named) == "tensor(float)[N,3]"
    assert named == graphgc.VarType.tensor(np.float32, (None, 3))
    g = graphgc.Graph()
    a = g.argument_of_type("a", named)
    assert a.shape == ("N", 3)
    model = onnx.load_from_string(graphgc.to_onnx_bytes(g, {"z": op.neg(a)}))
    dims = [d.dim_param or d.dim_value for d in model.graph.output[0].type.tensor_type.shape.dim]
    assert dims == ["N", 3]


def test_a_type_graphgc_cannot_read_is_an_error():
    class ForeignTensorType:  # as spox's Tensor(np.float32, ("N", 4)): numpy reads its .dtype
        dtype = np.dtype(np.float32)
        shape = ("N", 4)

    g = graphgc.Graph()
    with pytest.raises(graphgc.Error, match="VarType.tensor"):
        g.argument_of_type("x", ForeignTensorType())
    with pytest.raises(graphgc.Error, match="a dim is"):
        graphgc.VarType.tensor(np.float32, ("N", 2.5))
    with pytest.raises(graphgc.Error, match="not a str"):
        graphgc.VarType.tensor(np.float32, "N")
    with pytest.raises(graphgc.Error, match="not empty"):
        graphgc.VarType.tensor(np.float32, ("", 3))
    assert g.argument_of_type("ok", "float32").type == graphgc.VarType.tensor(np.float32)
