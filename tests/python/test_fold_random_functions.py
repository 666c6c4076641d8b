"""Random models with local functions, folded: whatever graphgc-fold does to their calls (values
for calls on known inputs, specialised copies for calls on some, folding inside the kept
bodies), the result passes ONNX's full check, is no larger than the model, and ONNX Runtime runs
it to the original's outputs. The models: a function Inner and a function Outer that may call
Inner, each with an attribute alpha (with or without a default) that LeakyRelu nodes and Outer's
calls of Inner take by reference; the graph calls them on x, on initializers and on each other's
results, with or without alpha. Seeds are fixed: a failure names the one to replay."""

import random
import warnings

import numpy as np
import onnx
import onnx.parser
import onnxruntime
import pytest

import graphgc

SESSION_OPTIONS = onnxruntime.SessionOptions()
SESSION_OPTIONS.log_severity_level = 3  # ORT warns of the initializers a folded call left unread


def body_lines(rng, names, out):
    a, b = rng.choice(names), rng.choice(names)
    kind = rng.choice(["unary", "binary", "binary", "leaky", "matmul"])
    if kind == "unary":
        unary = rng.choice(["Abs", "Neg", "Relu", "Sigmoid", "Transpose", "SqrtAbs", "ExpTanh"])
        if unary == "SqrtAbs":
            return [f"{out}_t = Abs ({a})", f"{out} = Sqrt ({out}_t)"]
        if unary == "ExpTanh":
            return [f"{out}_t = Tanh ({a})", f"{out} = Exp ({out}_t)"]
        if unary == "Transpose":
            return [f"{out} = Transpose <perm = [1, 0]> ({a})"]
        return [f"{out} = {unary} ({a})"]
    if kind == "binary":
        return [f"{out} = {rng.choice(['Add', 'Mul', 'Sub'])} ({a}, {b})"]
    if kind == "leaky":
        return [f"{out} = LeakyRelu <alpha: float = @alpha> ({a})"]
    return [f"{out} = MatMul ({a}, {b})"]


def function_text(rng, name, arity, callee=None):
    """A function's text and whether its alpha has a default."""
    names = [f"i{k}" for k in range(arity)]
    inputs = ", ".join(names)
    lines = []
    for j in range(rng.randint(2, 6)):
        lines += body_lines(rng, names, f"v{j}")
        names.append(f"v{j}")
        if callee is not None and rng.random() < 0.4:
            callee_name, callee_arity = callee
            args = ", ".join(rng.choice(names) for _ in range(callee_arity))
            lines.append(f"c{j} = local.{callee_name} <alpha: float = @alpha> ({args})")
            names.append(f"c{j}")
    lines.append(f"y = Add ({names[-1]}, {rng.choice(names)})")
    has_default = rng.random() < 0.7
    alpha = "alpha: float = 0.3" if has_default else "alpha"
    imports = '["" : 18, "local" : 1]' if callee is not None else '["" : 18]'
    body = "\n  ".join(lines)
    text = (f'<domain: "local", opset_import: {imports}>\n'
            f"{name} <{alpha}> ({inputs}) => (y) {{\n  {body}\n}}\n")
    return text, has_default


def random_model(seed, size):
    rng = random.Random(seed)
    inner_arity, outer_arity = rng.randint(1, 3), rng.randint(1, 3)
    inner, inner_default = function_text(rng, "Inner", inner_arity)
    outer, outer_default = function_text(rng, "Outer", outer_arity, ("Inner", inner_arity))
    weights = [f"w{k}" for k in range(rng.randint(1, 4))]
    initializers = []
    for w in weights:
        data = ", ".join(str(v) for v in rng.choices([-1.5, -0.5, 0.25, 1.0, 2.0], k=size * size))
        initializers.append(f"float[{size}, {size}] {w} = {{{data}}}")
    values, lines, outputs = ["x"], [], []
    for c in range(rng.randint(1, 4)):
        name, arity, has_default = rng.choice(
            [("Inner", inner_arity, inner_default), ("Outer", outer_arity, outer_default)])
        args = ", ".join(rng.choice(values + weights * 2) for _ in range(arity))
        alpha = "" if has_default and rng.random() < 0.5 else f" <alpha = {rng.choice([0.1, 0.7])}>"
        lines.append(f"r{c} = local.{name}{alpha} ({args})")
        values.append(f"r{c}")
        outputs.append(f"float[{size}, {size}] r{c}")
    graph = "\n  ".join(lines)
    return onnx.parser.parse_model(
        f'<ir_version: 10, opset_import: ["" : 18, "local" : 1]>\n'
        f"g (float[{size}, {size}] x) => ({', '.join(outputs)}) <{', '.join(initializers)}> {{\n"
        f"  {graph}\n}}\n{inner}{outer}")


def run(model, x):
    session = onnxruntime.InferenceSession(model.SerializeToString(), SESSION_OPTIONS)
    return session.run(None, {"x": x})


def assert_close(got, want, seed):
    # Relative to the output's largest finite value: the graphs chain MatMuls whose sums ORT and
    # graphgc add in different orders, so an entry near zero after cancellation differs by a few
    # ulps of the large ones.
    finite = want[np.isfinite(want)]
    scale = float(np.abs(finite).max()) if finite.size else 1.0
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5 * (1 + scale), equal_nan=True,
                               err_msg=f"seed {seed}")


@pytest.mark.parametrize("size, seeds", [(2, range(0, 300)), (6, range(1000, 1100))])
def test_random_models_with_functions_fold_to_what_they_compute(size, seeds):
    specialised = 0
    for seed in seeds:
        model = random_model(seed, size)
        onnx.checker.check_model(model, full_check=True)
        x = np.random.default_rng(seed).standard_normal((size, size)).astype(np.float32)
        want = run(model, x)
        with warnings.catch_warnings():
            # A model with functions keeps its own opset; the warning says so.
            warnings.simplefilter("ignore", UserWarning)
            folded, stats = graphgc.fold(model)
        onnx.checker.check_model(folded, full_check=True)
        assert folded.ByteSize() <= model.ByteSize(), f"seed {seed}"
        for got, expected in zip(run(folded, x), want):
            assert_close(got, expected, seed)
        specialised += stats["calls_specialised"] > 0
    # The models exercise what they are for: a quarter or so of them have specialised calls.
    assert specialised >= len(seeds) // 10
