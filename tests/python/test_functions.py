"""Functions defined from Python (graphgc.function, graphgc.define_function): a two-level function
called three times, typed and valued through its body, exported once per model (or inlined), which
ONNX's checker accepts and ONNX Runtime runs with graphgc's values; and the errors."""

import numpy as np
import onnx
import onnxruntime
import pytest

import graphgc
from graphgc import op

TRACED = graphgc.VarType.tensor(np.float32, [3])
W = np.array([1, -2, 3], np.float32)


@pytest.fixture
def act():
    @graphgc.function("local", inputs={"x": TRACED}, outputs=["y"])
    def Act(x):
        return op.mul(x, op.sigmoid(x))

    return Act


@pytest.fixture
def layer(act):
    @graphgc.function("local", inputs={"x": TRACED}, outputs=["y"])
    def Layer(x):
        return act(op.add(op.mul(x, op.const(W)), op.const(np.float32(0.5))))

    return Layer


def silu(v):
    return v / (1 + np.exp(-v))


def layer_of(v):
    return silu(v * W + np.float32(0.5))


def run(model, feeds=None):
    session = onnxruntime.InferenceSession(model.SerializeToString())
    return session.run(None, feeds or {})


def test_a_two_level_function_called_three_times(graph, act, layer):
    assert (layer.domain, layer.name) == ("local", "Layer")
    assert (layer.num_inputs, layer.num_outputs) == (1, 1)
    assert [onnx.FunctionProto.FromString(d).name for d in layer.definitions] == ["Layer", "Act"]
    x0 = (np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5) / 2
    y = graph.constant(x0)
    for _ in range(3):
        y = layer(y)
    z = act(y)
    assert y.type == graphgc.VarType.tensor(np.float32, [2, 3])  # the call's type, not the trace's
    expected = layer_of(layer_of(layer_of(x0)))
    np.testing.assert_allclose(y.value, expected, rtol=1e-5)
    np.testing.assert_allclose(z.value, silu(expected), rtol=1e-5)

    model = graphgc.to_onnx(graph, {"y": y, "z": z})
    onnx.checker.check_model(model, full_check=True)
    assert sorted(f.name for f in model.functions) == ["Act", "Layer"]
    assert [n.op_type for n in model.graph.node if n.domain == "local"] == ["Layer"] * 3 + ["Act"]
    got_y, got_z = run(model)
    np.testing.assert_allclose(got_y, y.value, rtol=1e-5)
    np.testing.assert_allclose(got_z, z.value, rtol=1e-5)


def test_calls_on_arguments_export_and_run_inlined_or_not(graph, layer):
    x = graph.argument("x", np.float32, ["N", 3])
    y = layer(layer(x))
    assert y.shape == ("N", 3) and y.value is None
    feeds = {"x": np.linspace(-2, 2, 12, dtype=np.float32).reshape(4, 3)}
    expected = layer_of(layer_of(feeds["x"]))
    kept = graphgc.to_onnx(graph, {"y": y}, check=True)
    inlined = graphgc.to_onnx(graph, {"y": y}, inline_functions=True, check=True)
    assert len(kept.functions) == 2 and not inlined.functions
    assert {n.domain for n in inlined.graph.node} == {""}
    assert "local" not in {o.domain for o in inlined.opset_import}
    for model in (kept, inlined):
        onnx.checker.check_model(model, full_check=True)
        np.testing.assert_allclose(run(model, feeds)[0], expected, rtol=1e-5, atol=1e-6)


def test_a_loop_of_calls_keeps_few_values():
    step = graphgc.define_function(
        "local", "Step", {"s": graphgc.VarType.tensor(np.float32, [1000])},
        lambda s: op.add(op.mul(s, op.const(np.float32(0.5))), op.const(np.float32(0.5))))
    graph = graphgc.Graph()
    state = graph.constant(np.zeros(1000, np.float32))
    for _ in range(10000):
        state = step(state)
    np.testing.assert_allclose(state.value, np.ones(1000, np.float32), atol=1e-6)
    assert graph.stats().peak_value_bytes < 1 << 20


def test_several_outputs_and_omitted_inputs(graph):
    @graphgc.function("local", inputs=[("a", np.float32), ("b", np.float32)],
                      outputs=["sum", "difference"])
    def sum_and_difference(a, b):
        return op.add(a, b), op.sub(a, b)

    assert sum_and_difference.num_outputs == 2
    s, d = sum_and_difference(graph.constant(np.float32([3, 4])), graph.constant(np.float32(1)))
    np.testing.assert_array_equal(s.value, [4, 5])
    np.testing.assert_array_equal(d.value, [2, 3])
    with graph:  # no input to take the graph from: the current graph
        @graphgc.function("local", inputs=[])
        def three():
            return op.const(np.int64(3))

        assert three().value == 3
    assert three(graph=graph).value == 3


def test_definition_errors_are_graphgc_errors():
    with pytest.raises(graphgc.Error, match="domain"):
        graphgc.define_function("", "F", {"x": np.float32}, lambda x: x)
    with pytest.raises(graphgc.Error, match="body"):
        graphgc.define_function("local", "F", {"x": np.float32}, lambda x: 3)
    with pytest.raises(graphgc.Error, match="a callable"):
        graphgc.define_function("local", "F", {"x": np.float32}, 3)
    with pytest.raises(graphgc.Error, match="inputs"):
        graphgc.define_function("local", "F", ["x"], lambda x: x)
    with pytest.raises(graphgc.Error, match="VarType"):
        graphgc.define_function("local", "F", {"x": [3]}, lambda x: x)
    with pytest.raises(graphgc.Error, match="sequence of names"):
        graphgc.define_function("local", "F", {"x": np.float32}, lambda x: x, outputs="y")
    other = graphgc.Graph()
    foreign = other.constant(np.float32(1))
    with pytest.raises(graphgc.Error):
        graphgc.define_function("local", "F", {"x": np.float32}, lambda x: foreign)


def test_what_the_body_raises_is_raised():
    def body(x):
        raise KeyError("from the body")

    with pytest.raises(KeyError, match="from the body"):
        graphgc.define_function("local", "F", {"x": np.float32}, body)
    # The thread's current graph is the caller's again.
    with pytest.raises(graphgc.Error, match="no input to take the graph from"):
        op.const(np.float32(1))


def test_call_errors(graph, act):
    x = graph.constant(np.float32([1, 2, 3]))
    with pytest.raises(graphgc.Error, match="inputs"):
        act(x, x)  # Act takes one input
    with pytest.raises(graphgc.Error, match="graphgc.Var or None"):
        act(np.float32([1, 2, 3]))
    with pytest.raises(graphgc.Error, match="call local.Act"):
        act(graph.constant(np.int64([1, 2, 3])))  # Sigmoid refuses int64
    with pytest.raises(graphgc.Error, match="no input to take the graph from"):
        act(None)


def assert_exports_run_alike(graph, outputs, functions):
    """Exported with the functions kept, then inlined: checked, and run by ONNX Runtime to the
    propagated values."""
    for inline_functions in (False, True):
        model = graphgc.to_onnx(graph, outputs, inline_functions=inline_functions)
        onnx.checker.check_model(model, full_check=True)
        assert len(model.functions) == (0 if inline_functions else functions)
        for got, var in zip(run(model), outputs.values()):
            np.testing.assert_allclose(got, var.value, rtol=1e-6)


def test_attributes_taken_by_reference(graph):
    @graphgc.function("local", inputs={"x": TRACED}, attributes={"alpha": 0.1})
    def Leaky(x):
        return op.leaky_relu(x, alpha=graphgc.attr("alpha"))

    definition = onnx.FunctionProto.FromString(Leaky.definitions[0])
    assert [(a.name, round(a.f, 6)) for a in definition.attribute_proto] == [("alpha", 0.1)]
    assert definition.node[0].attribute[0].ref_attr_name == "alpha"
    x = graph.constant(np.float32([-2, 0, 4]))
    by_default, half = Leaky(x), Leaky(x, alpha=0.5)
    np.testing.assert_allclose(by_default.value, [-0.2, 0, 4], rtol=1e-6)
    np.testing.assert_allclose(half.value, [-1, 0, 4], rtol=1e-6)
    assert_exports_run_alike(graph, {"a": by_default, "b": half}, functions=1)


def test_attributes_passed_on_to_a_called_function(graph):
    @graphgc.function("local", inputs={"x": TRACED}, attributes={"alpha": 0.1})
    def Leaky(x):
        return op.leaky_relu(x, alpha=graphgc.attr("alpha"))

    @graphgc.function("local", inputs={"x": TRACED}, attributes={"slope": 0.2})
    def Block(x):
        return Leaky(op.mul(x, op.const(np.float32(2))), alpha=graphgc.attr("slope"))

    inner_call = onnx.FunctionProto.FromString(Block.definitions[0]).node[-1]
    assert (inner_call.op_type, inner_call.attribute[0].ref_attr_name) == ("Leaky", "slope")
    x = graph.constant(np.float32([-2, 0, 4]))
    by_default, steep = Block(x), Block(x, slope=0.5)
    np.testing.assert_allclose(by_default.value, [-0.8, 0, 8], rtol=1e-6)
    np.testing.assert_allclose(steep.value, [-2, 0, 8], rtol=1e-6)
    assert_exports_run_alike(graph, {"a": by_default, "b": steep}, functions=2)
    with pytest.raises(graphgc.Error, match="a value, not graphgc.attr"):
        graphgc.define_function("local", "D", {"x": TRACED}, lambda x: x,
                                attributes={"alpha": graphgc.attr("alpha")})


def test_a_constant_of_an_attribute_types_each_call(graph):
    # Reshape's target comes from the attribute: each call's shape follows its own value.
    @graphgc.function("local", inputs={"x": graphgc.VarType.tensor(np.float32, [6])},
                      attributes={"shape": [2, 3]})
    def regroup(x):
        return op.reshape(x, op.constant(value_ints=graphgc.attr("shape")))

    x = graph.constant(np.arange(6, dtype=np.float32))
    assert regroup(x).shape == (2, 3)
    three_by_two = regroup(x, shape=[3, 2])
    assert three_by_two.shape == (3, 2)
    np.testing.assert_array_equal(three_by_two.value, np.arange(6).reshape(3, 2))
    model = graphgc.to_onnx(graph, {"y": three_by_two})
    onnx.checker.check_model(model, full_check=True)
    np.testing.assert_array_equal(run(model)[0], three_by_two.value)


def test_attribute_reference_errors(graph):
    with pytest.raises(graphgc.Error, match="does not declare"):
        graphgc.define_function("local", "F", {"x": TRACED},
                                lambda x: op.leaky_relu(x, alpha=graphgc.attr("beta")),
                                attributes={"alpha": 0.1})
    x = graph.constant(np.float32([-2, 0, 4]))
    with pytest.raises(graphgc.Error, match="only a function's body"):
        op.leaky_relu(x, alpha=graphgc.attr("alpha"))
    leaky = graphgc.define_function("local", "L", {"x": TRACED},
                                    lambda x: op.leaky_relu(x, alpha=graphgc.attr("alpha")),
                                    attributes={"alpha": 0.1})
    with pytest.raises(graphgc.Error, match="beta"):
        leaky(x, beta=0.5)
