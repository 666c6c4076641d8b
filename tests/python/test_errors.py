"""User mistakes raise graphgc.Error with the op, the input and the types, and leave the graph
as it was; nothing a Python program does crashes the interpreter."""

import numpy as np
import pytest

import graphgc
from graphgc import op


def test_bad_operands_name_the_op_and_the_types(graph):
    x = graph.argument("x", np.float32, (2, 3))
    i = graph.argument("i", np.int64, (2, 3))
    nodes = graph.stats().nodes
    with pytest.raises(graphgc.Error, match=r"Add.*(float|int64)") as error:
        op.add(x, i)
    assert "tensor(float)" in str(error.value) or "float" in str(error.value)
    with pytest.raises(graphgc.Error, match="MatMul"):
        op.matmul(x, x)
    assert graph.stats().nodes == nodes  # the graph is unchanged
    assert graphgc.to_onnx(graph, {"y": op.relu(x)}).graph.node[0].op_type == "Relu"


def test_bad_attributes(graph):
    x = graph.argument("x", np.float32, (2, 3))
    with pytest.raises(graphgc.Error, match="Softmax.*axis"):
        op.softmax(x, axis="last")
    with pytest.raises(graphgc.Error, match="Softmax"):
        op.softmax(x, axis=5)  # out of range for rank 2
    with pytest.raises(graphgc.Error, match="Transpose.*perm"):
        op.transpose(x, perm="10")
    with pytest.raises(graphgc.Error, match="Cast"):
        op.cast(x, to=np.complex128)
    with pytest.raises(graphgc.Error, match="LeakyRelu: attribute 'alpha' takes a float"):
        op.leaky_relu(x, alpha=1e300)  # beyond float's range
    assert op.leaky_relu(x, alpha=float("inf")).dtype == np.float32
    with pytest.raises(graphgc.Error, match="attribute 'perm' takes a sequence of int64"):
        op.transpose(x, perm=[2**70, 0])
    with pytest.raises(TypeError):
        op.softmax(x, axs=1)  # a misspelled keyword is Python's own TypeError


def test_inputs_that_are_not_vars(graph):
    x = graph.argument("x", np.float32, (2, 3))
    with pytest.raises(graphgc.Error, match="Add: input 1.*ndarray"):
        op.add(x, np.ones((2, 3), np.float32))
    with pytest.raises(graphgc.Error, match="RandomNormal.*graph"):
        op.random_normal(None, shape=[2])
    with pytest.raises(graphgc.Error, match="RandomNormal: graph is a graphgc.Graph, not str"):
        op.random_normal("not a graph", shape=[2])


def test_vars_of_two_graphs_do_not_mix():
    g1, g2 = graphgc.Graph(), graphgc.Graph()
    a = g1.argument("a", np.float32, (2,))
    b = g2.argument("b", np.float32, (2,))
    with pytest.raises(graphgc.Error, match="Add"):
        op.add(a, b)
    with pytest.raises(graphgc.Error):
        graphgc.to_onnx(g2, {"a": a})


def test_names_and_arguments(graph):
    x = graph.argument("x", np.float32, (2, None))
    with pytest.raises(graphgc.Error):
        graph.argument("x", np.float32, (2,))  # the name is taken
    y = op.relu(x)
    y.name = "hidden"
    assert y.name == "hidden"
    with pytest.raises(graphgc.Error):
        op.neg(x).name = "hidden"
    with pytest.raises(graphgc.Error):
        graph.argument("n", np.float32, (-3,))
    with pytest.raises(graphgc.Error):
        graph.argument("s", np.float32, "batch")
    assert graph.argument("u", np.float32).shape is None
    assert graph.argument("v", np.float32, (None, "n", 4)).shape == (None, "n", 4)


def test_malformed_models_raise(graph):
    with pytest.raises(graphgc.Error):
        graphgc.inline_model(graph, b"\x08\x99\xff garbage")
    with pytest.raises(graphgc.Error):
        graphgc.inline_model(graph, "/no/such/model.onnx")
    with pytest.raises(graphgc.Error):
        graphgc.inline_model(graph, 42)
    with pytest.raises(graphgc.Error):
        graphgc.fold(b"\x12\x03abc")


def test_make_node_by_name(graph):
    x = graph.constant(np.array([3.0, 1.0, 2.0], np.float32))
    values, indices = graphgc.make_node("TopK", [x, graph.constant(np.array([2]))], {"axis": -1})
    np.testing.assert_array_equal(values.value, [3.0, 2.0])
    with pytest.raises(graphgc.Error, match="NoSuchOp"):
        graphgc.make_node("NoSuchOp", [x])
    with pytest.raises(graphgc.Error, match="cannot tell"):
        graphgc.make_node("Relu", [x], {"weird": object()})


def test_model_calls_check_their_arguments(graph):
    x = graph.argument("x", np.float32, (2,))
    for bad in ({"y": 3}, {1: x}, [("y",)], "y"):
        with pytest.raises(graphgc.Error, match="to_onnx"):
            graphgc.to_onnx(graph, bad)
    with pytest.raises(graphgc.Error, match="to_onnx: the graph"):
        graphgc.to_onnx("g", {"y": x})
    model = graphgc.to_onnx(graph, {"y": op.relu(x)})
    with pytest.raises(graphgc.Error, match="inline_model"):
        graphgc.inline_model(graph, model, {"x": np.zeros(2, np.float32)})
    with pytest.raises(graphgc.Error, match="inline_model: the graph"):
        graphgc.inline_model(None, model)


def test_a_var_where_a_list_of_vars_belongs_names_the_op(graph):
    a = graph.constant(np.ones(3, np.float32))
    with pytest.raises(graphgc.Error, match=r"Concat: input 'inputs' is a sequence of Vars"):
        op.concat(a, axis=0)
    with pytest.raises(graphgc.Error, match=r"Sum: input 'data_0'"):
        op.sum(a)
    assert op.concat([a], axis=0).shape == (3,)
    assert op.concat((v for v in (a, a)), axis=0).shape == (6,)
