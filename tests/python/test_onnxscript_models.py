"""Models written by onnxscript, whose @script functions become the model's own functions
(ModelProto.functions) calling each other: imported with calls kept they get values for every
output, ONNX Runtime's; they fold, kept or inlined, to models ONNX Runtime runs with the original's
outputs."""

import warnings

import numpy as np
import onnx
import onnxruntime
import pytest

# onnxscript is pinned in tools/python-requirements.txt: a missing one fails, never skips.
from onnxscript import FLOAT, script
from onnxscript import opset18 as op
from onnxscript.values import Opset

import graphgc

LOCAL = Opset("this", 1)


@script(LOCAL, default_opset=op)
def gelu_tanh(x):
    # sqrt(2 / pi) from constants, as torchlib writes it: the fold computes it inside the function
    root_2_over_pi = op.Sqrt(
        op.Div(op.Constant(value_float=2.0), op.Constant(value_float=3.141592653589793)))
    cubic = op.Mul(op.Constant(value_float=0.044715), op.Pow(x, op.Constant(value_float=3.0)))
    inner = op.Mul(root_2_over_pi, op.Add(x, cubic))
    half_x = op.Mul(op.Constant(value_float=0.5), x)
    return op.Mul(half_x, op.Add(op.Constant(value_float=1.0), op.Tanh(inner)))


@script(LOCAL, default_opset=op)
def row_stats(x):
    axes = op.Constant(value_ints=[-1])
    mean = op.ReduceMean(x, axes, keepdims=1)
    centred = op.Sub(x, mean)
    return mean, op.ReduceMean(op.Mul(centred, centred), axes, keepdims=1)


@script(LOCAL, default_opset=op)
def clipped(x, lo: float, hi: float = 6.0):
    return op.Clip(x, op.Constant(value_float=lo), op.Constant(value_float=hi))


@script(LOCAL, default_opset=op)
def block(x, w):
    h = op.MatMul(x, w)
    mean, var = row_stats(h)
    n = op.Div(op.Sub(h, mean), op.Sqrt(op.Add(var, op.Constant(value_float=1e-5))))
    if op.ReduceSum(h) > 0.0:
        r = gelu_tanh(n)
    else:
        r = clipped(n, lo=-1.0)
    return r


@script(LOCAL, default_opset=op)
def leaky(x, alpha: float = 0.1):
    return op.LeakyRelu(x, alpha=alpha)


@script(LOCAL, default_opset=op)
def dense(x, w, b):
    return leaky(op.Add(op.MatMul(x, w), b), alpha=0.2)


@script(LOCAL, default_opset=op)
def regroup(x, shape: list[int]):
    return op.Reshape(x, op.Constant(value_ints=shape))


W = (np.arange(16, dtype=np.float32).reshape(4, 4) - 7.5) / 10


@script(default_opset=op)
def blocks(x: FLOAT[2, 4]) -> FLOAT[2, 4]:
    w = op.Constant(value=W)
    known = block(w, w)  # every input known: folds to one initializer
    return op.Reshape(block(x, known), op.Shape(x))


@script(default_opset=op)
def mlp(x: FLOAT[3, 4], b: FLOAT[4]) -> (FLOAT[3, 4], FLOAT[2, 6], FLOAT[3, 4]):
    w = op.Constant(value=W)
    h1 = dense(x, w, b)
    h2 = dense(h1, w, b)
    folded = dense(w, w, op.Constant(value=np.ones(4, np.float32)))
    return h2, regroup(h1, shape=[2, 6]), op.Add(h2, op.Slice(folded, [0], [3], [0]))


MODELS = {"blocks": blocks, "mlp": mlp}


def feeds_for(model: onnx.ModelProto) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(7)
    feeds = {}
    for value in model.graph.input:
        dims = [d.dim_value for d in value.type.tensor_type.shape.dim]
        feeds[value.name] = rng.standard_normal(dims).astype(np.float32)
    return feeds


def run(model: onnx.ModelProto, feeds) -> list[np.ndarray]:
    return onnxruntime.InferenceSession(model.SerializeToString()).run(None, feeds)


def quiet_import(graph, model, inputs, **options):
    with warnings.catch_warnings():
        # A model with functions keeps its own opset; the warning says so, and is tested elsewhere.
        warnings.simplefilter("ignore", UserWarning)
        return graphgc.inline_model(graph, model, inputs, **options)


@pytest.fixture(params=sorted(MODELS))
def model(request) -> onnx.ModelProto:
    proto = MODELS[request.param].to_model_proto()
    onnx.checker.check_model(proto, full_check=True)
    assert len(proto.functions) >= 3
    return proto


def test_onnxscript_model_calls_each_other(model):
    callers = {f.name for f in model.functions if any(n.domain == "this" for n in f.node)}
    assert callers, "the test's models have functions that call functions"


def test_import_keeps_calls_and_gets_every_output_value(graph, model):
    feeds = feeds_for(model)
    outputs = quiet_import(graph, model, {name: graph.constant(v) for name, v in feeds.items()})
    expected = run(model, feeds)
    names = [o.name for o in model.graph.output]
    for name, want in zip(names, expected):
        assert outputs[name].value is not None, name
        np.testing.assert_allclose(outputs[name].value, want, rtol=1e-4, atol=1e-5)
    exported = graphgc.to_onnx(graph, outputs)
    assert exported.functions, "calls on inputs that are constants are kept as calls on export"


def test_import_of_unknown_inputs_types_every_output(graph, model):
    inputs = {}
    for value in model.graph.input:
        dims = [d.dim_value for d in value.type.tensor_type.shape.dim]
        inputs[value.name] = graph.argument(value.name, np.float32, dims)
    outputs = quiet_import(graph, model, inputs)
    expected = run(model, feeds_for(model))
    for value, want in zip(model.graph.output, expected):
        assert outputs[value.name].type == graphgc.VarType.tensor(np.float32, list(want.shape))
    exported = graphgc.to_onnx(graph, outputs)
    onnx.checker.check_model(exported, full_check=True)
    called = {n.op_type for n in exported.graph.node if n.domain == "this"}
    assert called and called <= {f.name for f in exported.functions}
    feeds = feeds_for(model)
    for got, want in zip(run(exported, feeds), run(model, feeds)):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("inline_functions", [False, True])
def test_folds_to_a_model_onnx_runtime_runs_alike(model, inline_functions):
    folded, stats = graphgc.fold(model, inline_functions=inline_functions)
    onnx.checker.check_model(folded, full_check=True)
    assert stats["nodes_folded"] > 0, "a call whose inputs are all known becomes its value"
    local_calls = [n for n in folded.graph.node if n.domain == "this"]
    if inline_functions:
        assert not folded.functions and not local_calls
    else:
        assert local_calls and folded.functions
    if "gelu_tanh" in {f.name for f in model.functions} and not inline_functions:
        gelu = next(f for f in folded.functions if f.name == "gelu_tanh")
        assert not {n.op_type for n in gelu.node} & {"Sqrt", "Div"}
        assert stats["function_nodes_folded"] > 0
    feeds = feeds_for(model)
    for got, want in zip(run(folded, feeds), run(model, feeds)):
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
