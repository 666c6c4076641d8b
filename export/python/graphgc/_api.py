"""The model-level calls of graphgc: to_onnx, inline_model/import_model, fold, make_node."""

from __future__ import annotations

import os
from typing import Any, Callable, Mapping, NamedTuple, Sequence, Union

from graphgc import _graphgc
from graphgc._graphgc import Graph, Var

Model = Union[bytes, str, "os.PathLike[str]", Any]  # bytes, a path, or an onnx.ModelProto


def _onnx_or_none():
    try:
        import onnx
    except ImportError:
        return None
    return onnx


def _model_argument(model: Model) -> bytes | str:
    """Bytes or a path as they are; an onnx.ModelProto serialized."""
    if isinstance(model, (bytes, str, os.PathLike)):
        return model
    if hasattr(model, "SerializeToString"):
        return model.SerializeToString()
    raise _graphgc.Error(
        f"a model is bytes, a path or an onnx.ModelProto, not {type(model).__name__}"
    )


def _checked_graph(who: str, graph: Any) -> Graph:
    if not isinstance(graph, Graph):
        raise _graphgc.Error(f"{who}: the graph is a graphgc.Graph, not {type(graph).__name__}")
    return graph


def _named_vars(who: str, what: str, pairs: Sequence[tuple[Any, Any]]) -> list[tuple[str, Var]]:
    for name, var in pairs:
        if not isinstance(name, str) or not isinstance(var, Var):
            raise _graphgc.Error(
                f"{who}: {what} are str names with graphgc.Var values, not "
                f"{type(name).__name__} {name!r}: {type(var).__name__}"
            )
    return list(pairs)


def _as_model(data: bytes):
    onnx = _onnx_or_none()
    return data if onnx is None else onnx.ModelProto.FromString(data)


def to_onnx(
    graph: Graph,
    outputs: Mapping[str, Var] | Sequence[tuple[str, Var]],
    *,
    values_as_initializers: bool = False,
    constants_as_initializers: bool = False,
    check: bool = False,
):
    """The ONNX model whose outputs are `outputs` (name -> Var) and whose inputs are the
    arguments they depend on. An onnx.ModelProto when the onnx package is importable, otherwise
    the serialized bytes. check=True runs ONNX's checker (full) on the result first."""
    items = list(outputs.items()) if isinstance(outputs, Mapping) else list(outputs)
    if not all(isinstance(item, tuple) and len(item) == 2 for item in items):
        raise _graphgc.Error("to_onnx: outputs are a mapping (or pairs) of names to graphgc.Var")
    data = _graphgc.to_onnx_bytes(
        _checked_graph("to_onnx", graph),
        _named_vars("to_onnx", "outputs", items),
        values_as_initializers=values_as_initializers,
        constants_as_initializers=constants_as_initializers,
        check=check,
    )
    return _as_model(data)


class ImportedModel(NamedTuple):
    outputs: dict[str, Var]  # by the model's output names
    onnx_opset: int  # the ai.onnx opset its nodes were made at
    warnings: list[str]  # e.g. why the model kept its own opset


def import_model(
    graph: Graph,
    model: Model,
    inputs: Mapping[str, Var] | None = None,
    *,
    prefix: str = "",
    opset: int = 24,
    model_dir: str | None = None,
    opaque_unknown_ops: bool = True,
) -> ImportedModel:
    """Adds a model to `graph`: its inputs named in `inputs` are bound to those Vars (checked
    against the declared types), the others become arguments of `graph` (named `prefix` + the
    model's name). The model is converted to ai.onnx `opset` first (0 keeps its own). `model`:
    an onnx.ModelProto, its bytes, or a path (external data is read from the model's folder,
    never outside it)."""
    bound = _named_vars("inline_model", "inputs", list(dict(inputs or {}).items()))
    outputs, onnx_opset, warnings = _graphgc.import_model(
        _checked_graph("inline_model", graph),
        _model_argument(model),
        dict(bound),
        prefix=prefix,
        opset=opset,
        model_dir=model_dir or "",
        opaque_unknown_ops=opaque_unknown_ops,
    )
    return ImportedModel(outputs, onnx_opset, warnings)


def inline_model(
    graph: Graph,
    model: Model,
    inputs: Mapping[str, Var] | None = None,
    **options: Any,
) -> dict[str, Var]:
    """import_model's outputs: the model's outputs by name (spox's `inline`)."""
    return import_model(graph, model, inputs, **options).outputs


class FoldResult(NamedTuple):
    model: Any  # onnx.ModelProto, or bytes without the onnx package
    stats: dict[str, float]


def fold(model: Model, **options: Any) -> FoldResult:
    """Constant-folds a model (graphgc-fold's work): every node whose inputs are all known is
    computed and replaced by its value, within max_fold_bytes per value. Options: model_dir,
    max_fold_bytes, fold_anyway, memory_budget_bytes, unknown_ops_are_errors, fuse, opset,
    remove_noop_casts, eliminate_common_subexpressions, merge_initializers."""
    data, stats = _graphgc.fold(_model_argument(model), **options)
    return FoldResult(_as_model(data), stats)


def make_node(
    op_type: str,
    inputs: Sequence[Var | None],
    attributes: Mapping[str, Any] | None = None,
    *,
    domain: str = "",
    version: int = 0,
    num_outputs: int = -1,
    graph: Graph | None = None,
) -> list[Var]:
    """Any operator by name, its attributes' ONNX types taken from their Python values (int,
    float, str, lists of them, numpy arrays, callables for graph bodies, VarType). None in
    `inputs` omits an optional input. version 0: the newest the library supports. `graph` is
    needed only when no input gives it."""
    triples = [(name, "auto", value) for name, value in (attributes or {}).items()]
    return _graphgc.make_node(op_type, domain, version, inputs, triples, num_outputs, graph)


Body = Callable[..., Union[Var, Sequence[Var]]]
