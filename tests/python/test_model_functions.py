"""Models with their own functions (ModelProto.functions): calls typed and valued through the
bodies on import, kept or inlined; folded, with or without inlining, to models ONNX Runtime runs
with the original's outputs."""

import numpy as np
import onnx
import onnx.parser
import onnxruntime
import pytest

import graphgc

# Layer(x) = Act(x * w) with Act a LeakyRelu whose alpha is Layer's (0.1 unless set); W is an
# initializer, so a = Layer(W) and b = Layer(a) are known and fold, y2 = Layer(x) is not.
MODEL = """
<ir_version: 10, opset_import: ["" : 18, "local" : 1]>
g (float[2, 3] x) => (float[2, 3] y1, float[2, 3] y2)
<float[2, 3] W = {1, -2, 3, -4, 5, -6}>
{
  a = local.Layer <alpha = 0.5> (W)
  b = local.Layer <alpha = 0.25> (a)
  y1 = Add(b, x)
  y2 = local.Layer (x)
}
<domain: "local", opset_import: ["" : 18, "local" : 1]>
Layer <alpha: float = 0.1> (x) => (y) {
  w = Constant <value = float[3] {1, -2, 3}> ()
  h = Mul(x, w)
  y = local.Act <alpha: float = @alpha> (h)
}
<domain: "local", opset_import: ["" : 18]>
Act <alpha> (x) => (y) {
  y = LeakyRelu <alpha: float = @alpha> (x)
}
"""


def leaky(v, alpha):
    return np.where(v >= 0, v, alpha * v)


def layer(v, alpha=0.1):
    return leaky(v * np.array([1, -2, 3], np.float32), alpha)


@pytest.fixture
def model():
    parsed = onnx.parser.parse_model(MODEL)
    onnx.checker.check_model(parsed, full_check=True)
    return parsed


def run(model, x):
    session = onnxruntime.InferenceSession(model.SerializeToString())
    return session.run(None, {"x": x})


@pytest.mark.parametrize("inline_functions", [False, True])
def test_calls_are_typed_and_valued_through_their_bodies(graph, model, inline_functions):
    x = np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5
    with pytest.warns(UserWarning, match="does not convert the model's functions"):
        outputs = graphgc.inline_model(
            graph, model, {"x": graph.constant(x)}, inline_functions=inline_functions)
    W = np.array([[1, -2, 3], [-4, 5, -6]], np.float32)
    np.testing.assert_allclose(
        outputs["y1"].value, layer(layer(W, 0.5), 0.25) + x, rtol=1e-6)
    np.testing.assert_allclose(outputs["y2"].value, layer(x), rtol=1e-6)
    exported = graphgc.to_onnx(graph, {"y1": outputs["y1"], "y2": outputs["y2"]})
    assert len(exported.functions) == (0 if inline_functions else 2)


@pytest.mark.parametrize("inline_functions", [False, True])
def test_folds_to_a_model_onnx_runtime_runs_alike(model, inline_functions):
    folded, stats = graphgc.fold(model, inline_functions=inline_functions)
    onnx.checker.check_model(folded, full_check=True)
    calls = [n for n in folded.graph.node if n.domain == "local"]
    if inline_functions:
        assert not calls and not folded.functions
    else:
        # a and b folded into one initializer; y2's call stays, with the functions it needs
        assert len(calls) == 1 and sorted(f.name for f in folded.functions) == ["Act", "Layer"]
    # a and b are one initializer in place of W (inlined, y2's body brings its constant w too)
    initializers = [i.name for i in folded.graph.initializer]
    assert "b" in initializers and "W" not in initializers
    assert len(initializers) == (2 if inline_functions else 1)
    x = np.random.default_rng(0).standard_normal((2, 3)).astype(np.float32)
    for got, want in zip(run(folded, x), run(model, x)):
        np.testing.assert_allclose(got, want, rtol=1e-6)


def test_a_recursive_model_is_refused(graph):
    recursive = onnx.parser.parse_model("""
    <ir_version: 10, opset_import: ["" : 18, "local" : 1]>
    g (float[3] x) => (float[3] y) { y = local.F (x) }
    <domain: "local", opset_import: ["" : 18, "local" : 1]>
    F (x) => (y) { y = local.F (x) }
    """)
    with pytest.raises(graphgc.Error, match="calls itself"):
        graphgc.inline_model(graph, recursive, {"x": graph.argument("x", np.float32, (3,))})


def test_an_inlined_export_keeps_the_functions_defaults(graph, model):
    # y2 calls Layer without alpha: inlined, its LeakyRelu must take Layer's default 0.1, not
    # LeakyRelu's own 0.01 (ONNX's inliner alone leaves the attribute out).
    with pytest.warns(UserWarning, match="does not convert the model's functions"):
        outputs = graphgc.inline_model(graph, model, {"x": graph.argument("x", np.float32, [2, 3])})
    flat = graphgc.to_onnx(graph, outputs, inline_functions=True)
    onnx.checker.check_model(flat, full_check=True)
    assert not flat.functions
    x = np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5
    names = [o.name for o in flat.graph.output]
    got = dict(zip(names, run(flat, x)))
    want = dict(zip([o.name for o in model.graph.output], run(model, x)))
    for name in ("y1", "y2"):
        np.testing.assert_allclose(got[name], want[name], rtol=1e-6)
    np.testing.assert_allclose(got["y2"], layer(x), rtol=1e-6)


SPECIALISABLE = """
<ir_version: 10, opset_import: ["" : 18, "local" : 1]>
g (float[2, 3] x) => (float[2, 3] y, float[2, 3] z)
  <float[3, 3] w1 = {1, -2, 3, 4, -5, 6, 7, 8, -9}, float[3, 3] w2 = {2, 0, 0, 0, 2, 0, 0, 0, 2}> {
    y = local.Scaled <perm = [1, 0]> (x, w1)
    z = local.Scaled <perm = [0, 1]> (y, w2)
}
<domain: "local", opset_import: ["" : 18]>
Scaled <perm> (x, w) => (y) {
    wt = Transpose <perm: ints = @perm> (w)
    magnitude = Abs (wt)
    root = Sqrt (magnitude)
    square = Mul (root, root)
    matrix = Add (square, wt)
    y = MatMul (x, matrix)
}
"""


def test_calls_with_known_weights_call_specialised_copies_onnx_runtime_runs_alike():
    model = onnx.parser.parse_model(SPECIALISABLE)
    onnx.checker.check_model(model, full_check=True)
    folded, stats = graphgc.fold(model)
    onnx.checker.check_model(folded, full_check=True)
    assert (stats["calls_specialised"], stats["functions_specialised"]) == (2, 2)
    assert sorted(f.name for f in folded.functions) == ["Scaled_s1", "Scaled_s2"]
    assert not folded.graph.initializer
    assert all(len(node.input) == 1 and not node.attribute for node in folded.graph.node)
    assert folded.ByteSize() <= model.ByteSize()
    x = np.random.default_rng(1).standard_normal((2, 3)).astype(np.float32)
    for got, want in zip(run(folded, x), run(model, x)):
        np.testing.assert_allclose(got, want, rtol=1e-5)
