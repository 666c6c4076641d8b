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


def resize10_model(mode, scales, dims):
    import onnx
    import onnx.helper as oh
    from onnx import numpy_helper
    graph = oh.make_graph(
        [oh.make_node("Resize", ["x", "scales"], ["y"], mode=mode)], "resize10",
        [oh.make_tensor_value_info("x", onnx.TensorProto.FLOAT, dims)],
        [oh.make_tensor_value_info("y", onnx.TensorProto.FLOAT, ["a", "b", "c", "d"])],
        [numpy_helper.from_array(np.array(scales, np.float32), "scales")])
    return oh.make_model(graph, opset_imports=[oh.make_opsetid("", 10)], ir_version=7)


def test_an_opset10_resize_converted_on_import_computes_what_onnxruntime_computes(rng):
    # ONNX's converter makes a Resize-11 of it that means half_pixel coordinates and
    # round_prefer_floor; graphgc writes Resize-10's asymmetric ones and its rounding into it.
    # Before that, 30 of 42 conversions of 14 such models (to 11, 13 and 18) gave other values.
    for mode in ("nearest", "linear"):
        for scales, dims in (([1, 1, 2, 2], [1, 2, 4, 5]), ([1, 1, 1.5, 2.5], [1, 2, 4, 5]),
                             ([1, 1, 1.25, 1.25], [1, 2, 4, 5]), ([1, 1, 0.6, 0.6], [1, 2, 5, 5]),
                             ([1, 1, 0.5, 0.75], [1, 2, 4, 4]), ([1, 1, 1.7, 0.4], [1, 2, 5, 4])):
            model = resize10_model(mode, scales, dims)
            data = rng.standard_normal(dims).astype(np.float32)
            session = ort.InferenceSession(model.SerializeToString(),
                                           providers=["CPUExecutionProvider"])
            expected = session.run(None, {"x": data})[0]
            label = f"{mode} {scales}"

            g = graphgc.Graph()
            imported = graphgc.import_model(g, model, {"x": g.constant(data)})
            mixed_nearest = mode == "nearest" and min(scales) < 1 < max(scales)
            assert imported.onnx_opset == (10 if mixed_nearest else 24), label
            y = imported.outputs["y"]
            assert y.value is not None, (label, y.value_status)
            np.testing.assert_allclose(y.value, expected, rtol=1e-5, atol=1e-6, err_msg=label)

            # The converted model, exported with x unknown, runs in ONNX Runtime alike.
            g2 = graphgc.Graph()
            converted = graphgc.import_model(g2, model)
            exported = graphgc.to_onnx(g2, converted.outputs, check=True)
            session = ort.InferenceSession(exported.SerializeToString(),
                                           providers=["CPUExecutionProvider"])
            np.testing.assert_allclose(session.run(None, {"x": data})[0], expected, rtol=1e-5,
                                       atol=1e-6, err_msg=label)
