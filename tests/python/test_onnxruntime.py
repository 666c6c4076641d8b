"""A model built and exported from Python runs in ONNX Runtime and agrees with graphgc's own
propagated values."""

import numpy as np
import onnxruntime as ort

import graphgc
from graphgc import op


def build(graph, x, rng):
    w = graph.constant(rng.standard_normal((16, 8)).astype(np.float32))
    b = graph.constant(rng.standard_normal(8).astype(np.float32))
    hidden = op.relu(op.add(op.matmul(x, w), b))
    axes = graph.constant(np.array([1], dtype=np.int64))
    total = op.reduce_sum(hidden, axes, keepdims=0)
    values, indices = op.top_k(hidden, graph.constant(np.array([3], dtype=np.int64)), axis=-1)
    return {"probabilities": op.softmax(hidden, axis=-1), "total": total, "top": values,
            "top_index": op.cast(indices, to=np.int32)}


def test_exported_model_runs_in_onnxruntime(rng):
    g = graphgc.Graph()
    x = g.argument("x", np.float32, ("batch", 16))
    outputs = build(g, x, rng)
    model = graphgc.to_onnx(g, outputs, check=True)
    assert [d.dim_param for d in model.graph.input[0].type.tensor_type.shape.dim][0] == "batch"

    data = rng.standard_normal((5, 16)).astype(np.float32)
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    names = [o.name for o in session.get_outputs()]
    got = dict(zip(names, session.run(None, {"x": data})))

    # The same graph with x known: graphgc's propagated values.
    g2 = graphgc.Graph()
    folded = build(g2, g2.constant(data), np.random.default_rng(20261201))
    for name, var in folded.items():
        assert var.value is not None, var.value_status
        np.testing.assert_allclose(var.value, got[name], rtol=1e-5, atol=1e-6, err_msg=name)
    assert got["top_index"].dtype == np.int32
