"""Models in and out of Python: to_onnx, inline_model (spox's inline), fold."""

import os

import numpy as np
import onnx
import onnx.helper as oh
import pytest

import graphgc
from graphgc import op

TESTDATA = "/usr/share/libonnx-testdata/data"


def relu_model(opset=17):
    node = oh.make_node("Relu", ["x"], ["y"])
    graph = oh.make_graph(
        [node], "relu",
        [oh.make_tensor_value_info("x", onnx.TensorProto.FLOAT, ["N", 3])],
        [oh.make_tensor_value_info("y", onnx.TensorProto.FLOAT, ["N", 3])])
    return oh.make_model(graph, opset_imports=[oh.make_opsetid("", opset)], ir_version=8)


def test_inline_model_binds_inputs_and_returns_outputs(graph):
    x = graph.constant(np.array([[-1.0, 2.0, -3.0]], np.float32))
    outputs = graphgc.inline_model(graph, relu_model(), {"x": x})
    assert outputs["y"].value.tolist() == [[0.0, 2.0, 0.0]]
    # as bytes and from a path too
    graphgc.inline_model(graph, relu_model().SerializeToString(), {"x": x}, prefix="b/")


def test_unbound_inputs_become_arguments_and_export_again(graph, tmp_path):
    path = tmp_path / "relu.onnx"
    onnx.save(relu_model(), path)
    outputs = graphgc.inline_model(graph, str(path))
    y = op.neg(outputs["y"])
    model = graphgc.to_onnx(graph, {"z": y}, check=True)
    assert model.graph.input[0].name == "x"
    assert model.graph.input[0].type.tensor_type.shape.dim[0].dim_param == "N"


def test_bound_inputs_are_checked(graph):
    wrong = graph.constant(np.zeros((2, 4), np.float32))
    with pytest.raises(graphgc.Error, match="x"):
        graphgc.inline_model(graph, relu_model(), {"x": wrong})


def test_an_older_model_is_converted(graph):
    imported = graphgc.import_model(graph, relu_model(opset=6))
    assert imported.onnx_opset == 24
    kept = graphgc.import_model(graph, relu_model(opset=6), opset=0, prefix="old/")
    assert kept.onnx_opset == 6


@pytest.mark.skipif(not os.path.isdir(TESTDATA), reason="libonnx-testdata is not installed")
def test_a_test_data_model_gives_its_expected_output(graph):
    case = os.path.join(TESTDATA, "node", "test_softmax_axis_0")
    model = onnx.load(os.path.join(case, "model.onnx"))
    inputs = {}
    for i, value_info in enumerate(model.graph.input):
        tensor = onnx.load_tensor(os.path.join(case, "test_data_set_0", f"input_{i}.pb"))
        inputs[value_info.name] = graph.constant(onnx.numpy_helper.to_array(tensor))
    outputs = graphgc.inline_model(graph, model, inputs)
    expected = onnx.numpy_helper.to_array(
        onnx.load_tensor(os.path.join(case, "test_data_set_0", "output_0.pb")))
    np.testing.assert_allclose(outputs[model.graph.output[0].name].value, expected, rtol=1e-6)


def test_fold_computes_what_is_known():
    g = graphgc.Graph(propagate_values=False)
    x = g.argument("x", np.float32, (3,))
    known = op.mul(g.constant(np.full(3, 2.0, np.float32)), g.constant(np.ones(3, np.float32)))
    model = graphgc.to_onnx(g, {"y": op.add(x, known)})
    assert [n.op_type for n in model.graph.node].count("Mul") == 1
    folded, stats = graphgc.fold(model)
    assert "Mul" not in [n.op_type for n in folded.graph.node]
    assert stats["nodes_folded"] >= 1
    onnx.checker.check_model(folded, full_check=True)


def test_fold_under_a_memory_budget_computes_values_again():
    # Eight 1 MiB weights, each Tile(row, 1024) * scale, read by a Sum with the input.
    g = graphgc.Graph(propagate_values=False)
    x = g.argument("x", np.float32, (256 * 1024,))
    terms = [x]
    for i in range(8):
        row = g.constant(np.linspace(-1, 1, 256, dtype=np.float32) + np.float32(i))
        tiled = op.tile(row, g.constant(np.array([1024], np.int64)))
        terms.append(op.mul(tiled, g.constant(np.float32(1 + i))))
    model = graphgc.to_onnx(g, {"y": op.sum(terms)})
    unbounded, _ = graphgc.fold(model, fold_anyway=True)
    with pytest.warns(UserWarning, match="bounds the values computed, not the model"):
        folded, stats = graphgc.fold(model, fold_anyway=True, memory_budget_bytes=3 << 20)
    assert folded.SerializeToString() == unbounded.SerializeToString()
    assert stats["values_evicted"] > 0 and stats["values_recomputed"] > 0
    assert stats["recomputed_bytes"] > 0 and stats["recompute_seconds"] >= 0
    assert stats["peak_live_value_bytes"] <= 3 << 20
    # After each Tile and Mul a 1 MiB weight is live: some node held at least that.
    assert stats["peak_node"] and stats["peak_node_bytes"] >= 1 << 20


def test_to_onnx_takes_pairs_and_options(graph):
    x = graph.argument("x", np.float32, (2,))
    c = graph.constant(np.ones(2, np.float32))
    model = graphgc.to_onnx(graph, [("y", op.add(x, c))], constants_as_initializers=True)
    assert len(model.graph.initializer) == 1
