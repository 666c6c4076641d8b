"""spox code has no graph object: its constants come from op.constant(value=...) and op.const(...)
with nothing at hand. Inside `with graphgc.Graph() as g:` such ops are built in g, so a spox
program ports by changing its imports and wrapping its body in the block."""

import threading

import numpy as np
import onnx
import pytest

import graphgc
from graphgc import op


def spox_style_mlp(x, sizes, seed=0):
    """An MLP with preprocessing as spox users write it: every constant from op.constant or
    op.const, no graph in sight."""
    rng = np.random.default_rng(seed)
    mean = op.constant(value=np.full((sizes[0],), 0.5, np.float32))
    scale = op.const(2.0, np.float32)
    h = op.mul(op.sub(x, mean), scale)
    for fan_in, fan_out in zip(sizes, sizes[1:]):
        w = op.constant(value=rng.standard_normal((fan_in, fan_out)).astype(np.float32))
        b = op.const(rng.standard_normal(fan_out).astype(np.float32))
        h = op.relu(op.add(op.matmul(h, w), b))
    return op.softmax(h, axis=-1)


def reference_mlp(x, sizes, seed=0):
    rng = np.random.default_rng(seed)
    h = (x - 0.5) * 2.0
    for fan_in, fan_out in zip(sizes, sizes[1:]):
        w = rng.standard_normal((fan_in, fan_out)).astype(np.float32)
        b = rng.standard_normal(fan_out).astype(np.float32)
        h = np.maximum(h @ w + b, 0)
    e = np.exp(h - h.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def test_a_spox_program_runs_inside_a_with_block():
    sizes = [4, 8, 3]
    with graphgc.Graph() as g:
        x = g.argument("x", np.float32, ("N", 4))
        y = spox_style_mlp(x, sizes)
        model = graphgc.to_onnx(g, {"y": y}, check=True)
    assert [i.name for i in model.graph.input] == ["x"]
    data = np.random.default_rng(1).random((5, 4), dtype=np.float32)
    with graphgc.Graph() as folded:
        values = spox_style_mlp(folded.constant(data), sizes)
        np.testing.assert_allclose(values.value, reference_mlp(data, sizes), rtol=1e-5)
    onnx.checker.check_model(model, full_check=True)


def test_blocks_nest_and_end():
    outer = graphgc.Graph()
    inner = graphgc.Graph()
    with outer:
        a = op.const([1, 2], np.int64)
        with inner:
            b = op.const([3], np.int64)
        c = op.constant(value=np.array(4, np.int64))
    assert op.concat([a, op.unsqueeze(c, op.const([0], np.int64, graph=outer))], axis=0).value \
        .tolist() == [1, 2, 4]
    with pytest.raises(graphgc.Error, match="belongs to another Graph|another graph"):
        op.concat([a, b], axis=0)
    with pytest.raises(graphgc.Error, match="with graphgc.Graph"):
        op.const(1.0)


def test_an_explicit_graph_wins_over_the_current_one():
    mine, current = graphgc.Graph(), graphgc.Graph()
    with current:
        explicit = op.constant(mine, value=np.zeros(2, np.float32))
        implicit = op.constant(value=np.zeros(2, np.float32))
    assert op.add(explicit, op.const(np.ones(2, np.float32), graph=mine)).value.tolist() == [1, 1]
    with pytest.raises(graphgc.Error):
        op.add(explicit, implicit)


def test_the_current_graph_is_per_thread():
    seen = []
    with graphgc.Graph():
        def other_thread():
            try:
                op.const(1.0)
            except graphgc.Error as error:
                seen.append(str(error))
        worker = threading.Thread(target=other_thread)
        worker.start()
        worker.join()
    assert seen and "with graphgc.Graph" in seen[0]


def test_an_exception_inside_the_block_still_ends_it():
    with pytest.raises(ValueError):
        with graphgc.Graph():
            raise ValueError("inside")
    with pytest.raises(graphgc.Error, match="with graphgc.Graph"):
        op.const(1.0)
