"""The model-level calls of graphgc: to_onnx, inline_model/import_model, fold, make_node."""

from __future__ import annotations

import os
import warnings
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


def _variadic(op: str, name: str, inputs: Any) -> tuple[Any, ...]:
    """A variadic input's operands as a tuple: a sequence (or other iterable) of Vars."""
    if isinstance(inputs, (Var, str, bytes)) or not hasattr(inputs, "__iter__"):
        raise _graphgc.Error(
            f"{op}: input '{name}' is a sequence of Vars ([x] for one), "
            f"not {type(inputs).__name__}"
        )
    return tuple(inputs)


def _as_model(data: bytes):
    onnx = _onnx_or_none()
    return data if onnx is None else onnx.ModelProto.FromString(data)


def to_onnx_bytes(
    graph: Graph,
    outputs: Mapping[str, Var] | Sequence[tuple[str, Var]],
    *,
    values_as_initializers: bool = False,
    constants_as_initializers: bool = False,
    check: bool = False,
    inputs: Sequence[Var] | None = None,
    inline_functions: bool = False,
) -> bytes:
    """The serialized ONNX model to_onnx gives (its SerializeToString(), written without building
    the message: the way to a file for a large graph)."""
    items = list(outputs.items()) if isinstance(outputs, Mapping) else list(outputs)
    if not all(isinstance(item, tuple) and len(item) == 2 for item in items):
        raise _graphgc.Error("to_onnx: outputs are a mapping (or pairs) of names to graphgc.Var")
    listed = list(inputs or [])
    for input_ in listed:
        if not isinstance(input_, Var):
            raise _graphgc.Error(f"to_onnx: inputs are graphgc.Var, not {type(input_).__name__}")
    return _graphgc.to_onnx_bytes(
        _checked_graph("to_onnx", graph),
        _named_vars("to_onnx", "outputs", items),
        values_as_initializers=values_as_initializers,
        constants_as_initializers=constants_as_initializers,
        check=check,
        inputs=listed,
        inline_functions=inline_functions,
    )


def to_onnx(
    graph: Graph,
    outputs: Mapping[str, Var] | Sequence[tuple[str, Var]],
    *,
    values_as_initializers: bool = False,
    constants_as_initializers: bool = False,
    check: bool = False,
    inputs: Sequence[Var] | None = None,
    inline_functions: bool = False,
):
    """The ONNX model whose outputs are `outputs` (name -> Var) and whose inputs are the
    arguments they depend on, in the order they were made, or `inputs` (arguments of the graph,
    in that order, unused ones kept; every argument the outputs need must be among them). An
    onnx.ModelProto when the onnx package is importable, otherwise the serialized bytes.
    check=True runs ONNX's checker (full) on the result first. A call of a function (graphgc.function,
    or an imported model's own) is one node, its definition in the model's functions, or with
    inline_functions the nodes of its body."""
    return _as_model(
        to_onnx_bytes(
            graph,
            outputs,
            values_as_initializers=values_as_initializers,
            constants_as_initializers=constants_as_initializers,
            check=check,
            inputs=inputs,
            inline_functions=inline_functions,
        )
    )


def load_model(path: str | os.PathLike[str], *, load_external_data: bool = True):
    """The model in the file at `path` (an onnx.ModelProto, or its bytes without the onnx
    package), its external data read in: only from files inside the model's folder (an absolute
    location, "..", or a symlink out of it is an error, as is a range past a file's end).
    load_external_data=False leaves it where it is (pass model_dir to inline_model)."""
    return _as_model(_graphgc.load_model(path, load_external_data=load_external_data))


def save_model(
    model: Model,
    path: str | os.PathLike[str],
    *,
    external_data_file: str = "",
    external_data_threshold: int = 1024,
) -> None:
    """Writes `model` (an onnx.ModelProto or its bytes) to `path`. With external_data_file (a
    bare file name, written beside the model), initializers over external_data_threshold bytes
    go there instead of into the model."""
    if isinstance(model, (str, os.PathLike)):
        raise _graphgc.Error("save_model: the model is an onnx.ModelProto or its bytes, not a path")
    _graphgc.save_model(
        _model_argument(model),
        path,
        external_data_file=external_data_file,
        external_data_threshold=external_data_threshold,
    )


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
    inline_functions: bool = False,
) -> ImportedModel:
    """Adds a model to `graph`: its inputs named in `inputs` are bound to those Vars (checked
    against the declared types), the others become arguments of `graph` (named `prefix` + the
    model's name). The model is converted to ai.onnx `opset` first (0 keeps its own). A call of
    one of the model's own functions stays one node, typed and valued through the function's body,
    or with `inline_functions` becomes the body's nodes. `model`:
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
        inline_functions=inline_functions,
    )
    return ImportedModel(outputs, onnx_opset, warnings)


def inline_model(
    graph: Graph,
    model: Model,
    inputs: Mapping[str, Var] | None = None,
    **options: Any,
) -> dict[str, Var]:
    """import_model's outputs: the model's outputs by name (spox's `inline`); its warnings (a
    newer IR version read as the newest graphgc knows, a model kept at its own opset) are
    issued with warnings.warn."""
    imported = import_model(graph, model, inputs, **options)
    for warning in imported.warnings:
        warnings.warn(warning, stacklevel=2)
    return imported.outputs


class FoldResult(NamedTuple):
    model: Any  # onnx.ModelProto, or bytes without the onnx package
    stats: dict[str, float]


def fold(model: Model, **options: Any) -> FoldResult:
    """Constant-folds a model (graphgc-fold's work): every node whose inputs are all known is
    computed and replaced by its value, within max_fold_bytes per value. Options: model_dir,
    max_fold_bytes, fold_anyway, memory_budget_bytes, unknown_ops_are_errors, inline_functions,
    fuse, opset,
    remove_noop_casts, eliminate_common_subexpressions, merge_initializers."""
    data, stats, notes = _graphgc.fold(_model_argument(model), **options)
    for note in notes:  # e.g. a newer IR version read as the newest graphgc knows
        warnings.warn(note, stacklevel=2)
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
    """Any operator by name. An attribute takes the ONNX type the op's schema declares for it
    (np.float32(2) is a TENSOR for Constant's value, 1 a FLOAT for LeakyRelu's alpha); for an op
    without a schema (a custom domain) the type comes from the Python value (int,
    float, str, non-empty lists of them; a numpy array is a TENSOR, an
    onnx.SparseTensorProto a SPARSE_TENSOR (Constant's sparse_value, held as the dense tensor it
    stands for), a callable a GRAPH body, a VarType a TYPE_PROTO; lists of tensors, of graphs
    and of types, which no ONNX operator takes, are refused). None in
    `inputs` omits an optional input. version 0: the newest the library supports. `graph` is
    needed only when no input gives it."""
    triples = [(name, "auto", value) for name, value in (attributes or {}).items()]
    return _graphgc.make_node(op_type, domain, version, inputs, triples, num_outputs, graph)


def const(value: Any, dtype: Any = None, graph: Graph | None = None) -> Var:
    """A Constant of numpy.array(value, dtype) (spox's `const`), built in `graph`, or in the
    current graph inside `with graphgc.Graph() as g:`."""
    import numpy as np

    try:
        array = np.array(value, dtype=dtype)
    except (TypeError, ValueError) as error:
        raise _graphgc.Error(f"const: {error}") from error
    return make_node("Constant", [], {"value": array}, graph=graph)[0]


Body = Callable[..., Union[Var, Sequence[Var]]]
