"""Functions defined from Python: an ONNX model-local function (FunctionProto) whose body is a
Python callable, traced once, then called like an op.

    @graphgc.function("local", inputs={"x": graphgc.VarType.tensor(np.float32, [None, 3])})
    def act(x):
        return op.leaky_relu(x, alpha=0.2)

    y = act(x)    # one node "local.act", typed and valued through the body

The body runs once, on arguments of the given types, in a graph of its own that is the current
graph while it runs (op.const in the body builds there); it returns a Var or a sequence of
Vars and may call functions defined before it. to_onnx writes each function a model calls once,
with its callees, into ModelProto.functions (or, with inline_functions, the bodies' nodes)."""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence, Union

from graphgc import _graphgc
from graphgc._graphgc import Function, Var

Body = Callable[..., Union[Var, Sequence[Var]]]
# An input's type: a graphgc.VarType, or an element type (a numpy dtype: a tensor of any shape).
Inputs = Union[Mapping[str, Any], Sequence[tuple[str, Any]]]


def _input_pairs(name: str, inputs: Inputs) -> list[tuple[str, Any]]:
    items = list(inputs.items()) if isinstance(inputs, Mapping) else list(inputs)
    for item in items:
        if not (isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str)):
            raise _graphgc.Error(
                f"define_function {name}: inputs are a mapping (or pairs) of names to types, "
                f"not {item!r}"
            )
    return items


def define_function(
    domain: str,
    name: str,
    inputs: Inputs,
    body: Body,
    *,
    outputs: Sequence[str] = (),
    attributes: Mapping[str, Any] | None = None,
) -> Function:
    """The function `domain`.`name` whose body is `body` traced on `inputs` (name -> type, in
    order). `outputs` names the FunctionProto's outputs (default output_0, output_1, ...).
    `attributes` (name -> value) are the function's: the body's ops take one by reference with
    graphgc.attr(name) as an attribute's value, traced with that value, which is also the default
    a call that does not set it (fn(x, alpha=0.5)) gets.
    Raises graphgc.Error when it cannot be defined (a domain of ONNX's, a body that returns no
    Var or a Var of another graph, ...) and re-raises what the body raises."""
    if isinstance(outputs, str):
        raise _graphgc.Error(f"define_function {name}: outputs is a sequence of names, not a str")
    return _graphgc.define_function(
        domain, name, _input_pairs(name, inputs), list(outputs), body,
        list(dict(attributes or {}).items()),
    )


def function(
    domain: str,
    *,
    inputs: Inputs,
    outputs: Sequence[str] = (),
    name: str | None = None,
    attributes: Mapping[str, Any] | None = None,
) -> Callable[[Body], Function]:
    """A decorator: define_function(domain, name or the body's __name__, inputs, body, ...)."""

    def define(body: Body) -> Function:
        return define_function(
            domain, name or getattr(body, "__name__", ""), inputs, body, outputs=outputs,
            attributes=attributes,
        )

    return define
