"""A model written the way PyTorch 2.9's exporter writes them (ai.onnx opset 20, IR 10, a
symbolic batch dim): MatMul, Gelu, ReduceMean with axes as an input, Split with num_outputs,
LayerNormalization, weights as initializers and some arithmetic on them that folding computes.
It imports, folds to a checker-valid model, and ONNX Runtime gives the folded model the
original's outputs."""

import numpy as np
import onnx
import onnx.helper as oh
import onnx.numpy_helper as onh
import onnxruntime as ort
import pytest

import graphgc

HIDDEN = 16


def pytorch_style_model():
    rng = np.random.default_rng(20)
    weights = {
        "fc1.weight": rng.standard_normal((HIDDEN, 4 * HIDDEN)).astype(np.float32),
        "fc1.bias": rng.standard_normal(4 * HIDDEN).astype(np.float32),
        "fc2.weight": rng.standard_normal((4 * HIDDEN, HIDDEN)).astype(np.float32),
        "norm.weight": rng.standard_normal(HIDDEN).astype(np.float32),
        "norm.bias": rng.standard_normal(HIDDEN).astype(np.float32),
        "scale": np.array(0.5, np.float32),
        "axes": np.array([-1], np.int64),
    }
    nodes = [
        # The exporter's arithmetic on weights: constant, so folding computes it.
        oh.make_node("Mul", ["fc2.weight", "scale"], ["fc2.scaled"], name="node_mul_0"),
        oh.make_node("MatMul", ["x", "fc1.weight"], ["h0"], name="node_matmul_1"),
        oh.make_node("Add", ["h0", "fc1.bias"], ["h1"], name="node_add_2"),
        oh.make_node("Gelu", ["h1"], ["h2"], approximate="tanh", name="node_gelu_3"),
        oh.make_node("MatMul", ["h2", "fc2.scaled"], ["h3"], name="node_matmul_4"),
        oh.make_node("LayerNormalization", ["h3", "norm.weight", "norm.bias"], ["h4"],
                     axis=-1, epsilon=1e-5, name="node_layer_norm_5"),
        oh.make_node("ReduceMean", ["h4", "axes"], ["mean"], keepdims=1, name="node_mean_6"),
        oh.make_node("Split", ["h4"], ["s0", "s1", "s2"], axis=-1, num_outputs=3,
                     name="node_split_7"),
    ]
    batch = ["batch", 8, HIDDEN]
    graph = oh.make_graph(
        nodes, "main_graph",
        [oh.make_tensor_value_info("x", onnx.TensorProto.FLOAT, batch)],
        [oh.make_tensor_value_info("mean", onnx.TensorProto.FLOAT, ["batch", 8, 1]),
         oh.make_tensor_value_info("s0", onnx.TensorProto.FLOAT, ["batch", 8, 6]),
         oh.make_tensor_value_info("s1", onnx.TensorProto.FLOAT, ["batch", 8, 6]),
         oh.make_tensor_value_info("s2", onnx.TensorProto.FLOAT, ["batch", 8, 4])],
        [onh.from_array(value, name) for name, value in weights.items()])
    model = oh.make_model(graph, opset_imports=[oh.make_opsetid("", 20)], ir_version=10,
                          producer_name="pytorch", producer_version="2.9.0")
    onnx.checker.check_model(model, full_check=True)
    return model


def run(model, x):
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, {"x": x})


def test_it_imports_with_its_types():
    g = graphgc.Graph()
    imported = graphgc.import_model(g, pytorch_style_model())
    assert imported.onnx_opset == 24  # converted to the newest by default
    assert imported.warnings == []
    assert imported.outputs["mean"].shape == (None, 8, 1)
    assert [imported.outputs[s].shape for s in ("s0", "s1", "s2")] == [
        (None, 8, 6), (None, 8, 6), (None, 8, 4)]
    at_own = graphgc.import_model(g, pytorch_style_model(), prefix="own/", opset=0)
    assert at_own.onnx_opset == 20
    assert at_own.outputs["s2"].shape == (None, 8, 4)


def test_it_folds_to_a_valid_model_that_runs_as_the_original():
    original = pytorch_style_model()
    folded, stats = graphgc.fold(original)
    onnx.checker.check_model(folded, full_check=True)
    assert {o.domain: o.version for o in folded.opset_import}[""] == 20
    assert folded.ir_version == 10
    assert stats["nodes_after"] < stats["nodes_before"]  # the weight arithmetic is folded
    assert "Mul" not in {node.op_type for node in folded.graph.node}
    x = np.random.default_rng(1).standard_normal((3, 8, HIDDEN)).astype(np.float32)
    for got, expected in zip(run(folded, x), run(original, x), strict=True):
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("batch", [1, 5])
def test_its_exported_import_runs_as_the_original(batch):
    original = pytorch_style_model()
    g = graphgc.Graph()
    imported = graphgc.import_model(g, original, opset=0)
    exported = graphgc.to_onnx(g, imported.outputs, check=True)
    assert exported.ir_version == 9  # opset 20 came with IR 9
    x = np.random.default_rng(batch).standard_normal((batch, 8, HIDDEN)).astype(np.float32)
    by_name = dict(zip([o.name for o in exported.graph.output], run(exported, x)))
    for name, expected in zip(["mean", "s0", "s1", "s2"], run(original, x), strict=True):
        np.testing.assert_allclose(by_name[name], expected, rtol=1e-5, atol=1e-5)
