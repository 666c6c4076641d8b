"""Every operator schema of ONNX's registry (ai.onnx up to graphgc's newest opset, ai.onnx.ml
likewise) has its op function in the module of its since version, bound to that version, and
graphgc.op and graphgc.ml are the newest modules. The schemas come from the onnx package of the
test venv; opsets are frozen once released, so its schemas up to graphgc's newest opset are the
ones graphgc was generated from."""

import numpy as np
import onnx
import onnx.defs
import pytest

import graphgc

DOMAINS = {"": ("opset", graphgc.supported_opset_version("")),
           "ai.onnx.ml": ("ml", graphgc.supported_opset_version("ai.onnx.ml"))}


def plain(name):
    """An op's name without case and underscores: ReduceSum and reduce_sum, If and if_."""
    return name.replace("_", "").lower()


def registry_schemas():
    for schema in onnx.defs.get_all_schemas_with_history():
        if schema.domain not in DOMAINS or schema.deprecated:
            continue
        if schema.since_version <= DOMAINS[schema.domain][1]:
            yield schema


def test_the_newest_opsets_are_those_of_onnx_1_19():
    assert DOMAINS[""][1] == 24
    assert DOMAINS["ai.onnx.ml"][1] == 5
    assert graphgc.op.__name__ == "graphgc.op"
    assert graphgc.op.__all__ == graphgc.opset24.__all__
    assert graphgc.ml.__all__ == graphgc.ml5.__all__


def test_every_schema_has_its_op_function():
    missing = []
    checked = 0
    for schema in registry_schemas():
        prefix = DOMAINS[schema.domain][0]
        module = getattr(graphgc, f"{prefix}{schema.since_version}")
        names = {plain(name): name for name in module.__all__}
        checked += 1
        if plain(schema.name) not in names:
            missing.append(f"{schema.domain or 'ai.onnx'} {schema.name}-{schema.since_version}")
    assert checked > 600
    assert missing == []


def test_an_op_builds_its_node_at_its_modules_opset():
    g = graphgc.Graph()
    x = g.constant(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))
    axes = g.constant(np.array([1], np.int64))
    mean18 = graphgc.opset18.reduce_mean(x, axes, keepdims=0)
    mean13 = graphgc.opset13.reduce_mean(x, axes=[1], keepdims=0)
    assert mean18.shape == mean13.shape == (2,)
    model = graphgc.to_onnx(g, {"mean18": mean18}, check=True)
    assert {o.domain: o.version for o in model.opset_import}[""] == 18


@pytest.mark.parametrize("version", [18, 20, 24])
def test_split_with_num_outputs_is_typed(version):
    g = graphgc.Graph()
    x = g.argument("x", np.float32, ("batch", 10))
    module = getattr(graphgc, f"opset{version}")
    parts = module.split(x, axis=1, num_outputs_=3, num_outputs=3)
    assert [p.shape for p in parts] == [("batch", 4), ("batch", 4), ("batch", 2)]


def test_import_converts_to_the_newest_opset_by_default():
    import inspect
    default = inspect.signature(graphgc.import_model).parameters["opset"].default
    assert default == graphgc.supported_opset_version("")


def test_import_converts_to_the_newest_opset_by_default():
    import inspect
    default = inspect.signature(graphgc.import_model).parameters["opset"].default
    assert default == graphgc.supported_opset_version("")


def test_an_op_functions_help_is_its_schema():
    """help() shows the schema's documentation, its inputs, attributes, outputs and type
    constraints, as spox's does; the runtime signature carries the stub's annotations."""
    import inspect
    import typing

    doc = graphgc.op.conv.__doc__
    for part in ("The convolution operator", "Inputs:", "X (T)", "W (T)", "B (T, optional)",
                 "Attributes:", "kernel_shape (ints)", "pads (ints)", "group (int, default: 1)",
                 "Outputs:", "Y (T)", "Type constraints:", "T (tensor(bfloat16), tensor(float16)"):
        assert part in doc, part
    signature = inspect.signature(graphgc.op.conv)
    assert signature.parameters["X"].annotation == "Var"
    assert signature.parameters["kernel_shape"].annotation == "Iterable[int] | None"
    assert typing.get_type_hints(graphgc.op.conv)["return"] is graphgc.Var
    assert "Outputs:" in graphgc.ml.tree_ensemble.__doc__
