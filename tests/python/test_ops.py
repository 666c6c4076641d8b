"""The generated op functions: per-opset modules, keyword attributes, optional and variadic inputs,
several outputs, graph bodies as Python callables, graphgc.ml."""

import numpy as np
import pytest

import graphgc
from graphgc import ml, op, opset13, opset17


def test_every_opset_module_builds_at_its_version(graph):
    x = graph.constant(np.array([[1.0, -2.0]], np.float32))
    for version in range(13, 25):
        module = getattr(graphgc, f"opset{version}")
        y = module.relu(x)
        np.testing.assert_array_equal(y.value, [[1.0, 0.0]])
    m13 = graphgc.to_onnx(graph, {"y": opset13.relu(x)})
    assert {o.domain: o.version for o in m13.opset_import}[""] == 13
    assert op.softmax is graphgc.opset24.softmax
    assert opset17.softmax is not graphgc.opset24.softmax  # one schema, bound to each opset


def test_attributes_are_keywords_with_schema_defaults(graph):
    x = graph.constant(np.array([[1.0, 2.0], [3.0, 5.0]], np.float32))
    np.testing.assert_allclose(op.softmax(x, axis=0).value.sum(axis=0), [1.0, 1.0], rtol=1e-6)
    np.testing.assert_allclose(op.softmax(x).value.sum(axis=1), [1.0, 1.0], rtol=1e-6)
    assert op.transpose(x, perm=[1, 0]).value.tolist() == [[1.0, 3.0], [2.0, 5.0]]
    assert op.transpose(x, perm=np.array([1, 0])).shape == (2, 2)
    assert op.cast(x, to=np.int64).dtype == np.int64
    assert op.cast(x, to="float16").dtype == np.float16
    assert op.leaky_relu(graph.constant(np.float32(-1.0)), alpha=0.5).value == -0.5
    assert op.constant(graph, value_floats=[1, 2.5]).value.tolist() == [1.0, 2.5]
    assert op.constant(graph, value=np.eye(2, dtype=np.int32)).dtype == np.int32


def test_optional_variadic_and_several_outputs(graph):
    x = graph.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert op.clip(x, None, graph.constant(np.float32(2))).value.max() == 2.0
    assert op.concat([x, x, x], axis=0).shape == (6, 3)
    values, indices = op.top_k(x, graph.constant(np.array([2])), axis=1)
    assert values.value.tolist() == [[2.0, 1.0], [5.0, 4.0]]
    assert indices.dtype == np.int64
    parts = op.split(x, graph.constant(np.array([1, 2])), axis=1, num_outputs=2)
    assert [p.shape for p in parts] == [(2, 1), (2, 2)]
    (y,) = op.dropout(x)
    y, mask = op.dropout(x, num_outputs=2)
    assert mask.dtype == np.bool_


def test_graph_bodies_are_python_callables(graph):
    cond = graph.constant(np.array(True))
    (picked,) = op.if_(
        cond,
        then_branch=lambda: [graph.constant(np.float32([1, 2]))],
        else_branch=lambda: [graph.constant(np.float32([3, 4]))],
    )
    assert picked.value.tolist() == [1.0, 2.0]

    def body(iteration, condition, total):
        return [condition, op.add(total, op.cast(iteration, to=np.float64))]

    trips = graph.constant(np.array(5, np.int64))
    (total,) = op.loop(trips, None, [graph.constant(np.float64(0))], body=body)
    assert total.value == 0 + 1 + 2 + 3 + 4
    model = graphgc.to_onnx(graph, {"total": total}, check=True)
    assert any(n.op_type == "Loop" for n in model.graph.node)


def test_a_raising_body_raises_its_own_exception_and_leaves_the_graph(graph):
    cond = graph.argument("c", np.bool_, ())
    nodes = graph.stats().nodes

    def broken():
        raise KeyError("from the body")

    with pytest.raises(KeyError, match="from the body"):
        op.if_(cond, then_branch=broken, else_branch=lambda: [cond])
    with pytest.raises(graphgc.Error, match="Vars"):
        op.if_(cond, then_branch=lambda: [1], else_branch=lambda: [cond])
    with pytest.raises(TypeError):
        op.if_(cond, then_branch=lambda unexpected: [cond], else_branch=lambda: [cond])
    (ok,) = op.if_(cond, then_branch=lambda: [cond], else_branch=lambda: [op.not_(cond)])
    assert ok.dtype == np.bool_
    assert graph.stats().nodes > nodes


def test_ml_ops(graph):
    x = graph.constant(np.array([[1.0, -1.0], [0.5, 2.0]], np.float32))
    assert ml.binarizer(x, threshold=0.75).value.tolist() == [[1.0, 0.0], [0.0, 1.0]]
    labels, scores = ml.linear_classifier(
        x, coefficients=[1.0, 0.0, 0.0, 1.0], classlabels_ints=[0, 1], intercepts=[0.0, 0.0])
    assert labels.value.tolist() == [0, 1]
    model = graphgc.to_onnx(graph, {"labels": labels}, check=True)
    assert {o.domain for o in model.opset_import} >= {"ai.onnx.ml"}


def test_has_kernel_and_value_status(graph):
    assert graphgc.has_kernel("Mul")
    assert not graphgc.has_kernel("RandomNormal")
    assert graphgc.supported_opset_version() == 24
    assert graphgc.supported_opset_version("ai.onnx.ml") == 5
    x = graph.argument("x", np.float32, (2,))
    y = op.relu(x)
    assert y.value is None
    assert "'x' is an argument" in y.value_status
    z = op.relu(graph.constant(np.ones(2, np.float32)))
    assert z.value_status is None


def test_types(graph):
    x = graph.argument("x", np.float32, ("n", 3))
    assert str(x.type) == "tensor(float)[n,3]"
    assert x.type.kind == "tensor" and x.type.dtype == np.float32 and x.type.shape == ("n", 3)
    s = op.sequence_construct([x, x])
    assert s.type.kind == "sequence" and s.type.element.dtype == np.float32
    assert s.dtype is None and s.shape is None
    seq_type = graphgc.VarType.sequence(graphgc.VarType.tensor(np.int64, [None]))
    arg = graph.argument_of_type("seq", seq_type)
    assert arg.type == seq_type
    empty = op.sequence_empty(graph, dtype=np.int64)
    assert str(empty.type).startswith("seq(tensor(int64)")
