"""graphgc: ONNX graphs built eagerly, op by op, with memory that follows what you still hold.

    import numpy as np, graphgc
    from graphgc import op
    g = graphgc.Graph()
    a = g.constant(np.zeros(10000))
    for _ in range(1000): a = op.mul(a, a)     # one live value, whatever the count

Every op infers its output types at the call and, when its inputs have values, computes its value
(constant folding). A Var is a root: when Python frees the last Var of a var, its value becomes
garbage and the graph's collector frees it (automatically, or at once with Graph.collect()). The
graph itself (nodes, vars, constants) is kept, so any Var can still be exported with to_onnx.

Ops: graphgc.op (the newest ai.onnx opset, 24), graphgc.opset1 ... graphgc.opset24 (each builds
its nodes at that opset), graphgc.ml (the newest ai.onnx.ml opset, 5), graphgc.ml1 ... graphgc.ml5,
and make_node for any op by name.
Errors raise graphgc.Error, whose message names the op, the input and the types.
"""

from importlib import metadata as _metadata

from graphgc._graphgc import (
    CollectStats,
    AttributeRef,
    Error,
    Function,
    Graph,
    GraphStats,
    Var,
    VarType,
    attr,
    has_kernel,
    supported_opset_version,
)
from graphgc._api import (
    fold,
    import_model,
    inline_model,
    load_model,
    make_node,
    save_model,
    to_onnx,
    to_onnx_bytes,
)
from graphgc._functions import define_function, function
from graphgc import _opsets
from graphgc._opsets import *  # noqa: F403  (op, ml and every opset module)

try:
    __version__ = _metadata.version("graphgc")
except _metadata.PackageNotFoundError:  # imported from a source tree, not installed
    __version__ = "unknown"

__all__ = [
    "AttributeRef",
    "CollectStats",
    "Error",
    "Function",
    "Graph",
    "GraphStats",
    "Var",
    "VarType",
    "attr",
    "define_function",
    "fold",
    "function",
    "has_kernel",
    "import_model",
    "inline_model",
    "load_model",
    "make_node",
    "save_model",
    "supported_opset_version",
    "to_onnx",
    "to_onnx_bytes",
]
__all__ += _opsets.__all__
