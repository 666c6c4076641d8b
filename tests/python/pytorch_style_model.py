"""A model written the way PyTorch 2.9's exporter writes them (ai.onnx opset 20, IR 10, a
symbolic batch dim): MatMul, Gelu, ReduceMean with axes as an input, Split with num_outputs,
LayerNormalization, weights as initializers and some arithmetic on them that folding computes.
Used by test_pytorch_style.py and by tests/fold_cli_test.sh (graphgc-fold on it):

    python pytorch_style_model.py save MODEL        writes the model
    python pytorch_style_model.py compare A B       A and B give the same outputs in ONNX Runtime,
                                                    and B passes ONNX's full check
"""

import sys

import numpy as np
import onnx
import onnx.helper as oh
import onnx.numpy_helper as onh
import onnxruntime as ort

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
    """The model's outputs for input x in ONNX Runtime, by output name."""
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    names = [output.name for output in model.graph.output]
    return dict(zip(names, session.run(None, {"x": x})))


def compare(original_path, other_path):
    original, other = onnx.load(original_path), onnx.load(other_path)
    onnx.checker.check_model(other, full_check=True)
    for batch in (1, 3):
        x = np.random.default_rng(batch).standard_normal((batch, 8, HIDDEN)).astype(np.float32)
        want, got = run(original, x), run(other, x)
        assert set(want) == set(got), (sorted(want), sorted(got))
        for name in want:
            np.testing.assert_allclose(got[name], want[name], rtol=1e-5, atol=1e-5)


if __name__ == "__main__":
    if sys.argv[1:2] == ["save"] and len(sys.argv) == 3:
        onnx.save(pytorch_style_model(), sys.argv[2])
    elif sys.argv[1:2] == ["compare"] and len(sys.argv) == 4:
        compare(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
