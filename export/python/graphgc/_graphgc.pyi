# The compiled core of graphgc (export/python/*.cc). Checked against the module by
# tests/python/test_stubs.py (mypy's stubtest), so it cannot drift from the binding.
import os
from typing import Any, Iterable, Mapping, Sequence

import numpy as np
from numpy.typing import DTypeLike

class Error(Exception): ...

class VarType:
    @staticmethod
    def tensor(dtype: DTypeLike, shape: Sequence[int | None] | None = None) -> VarType: ...
    @staticmethod
    def sequence(element: VarType) -> VarType: ...
    @staticmethod
    def optional(element: VarType) -> VarType: ...
    @staticmethod
    def map(key: DTypeLike, value: VarType) -> VarType: ...
    @property
    def kind(self) -> str: ...
    @property
    def dtype(self) -> np.dtype[Any] | None: ...
    @property
    def shape(self) -> tuple[int | None, ...] | None: ...
    @property
    def element(self) -> VarType | None: ...
    @property
    def key(self) -> np.dtype[Any] | None: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Var:
    @property
    def dtype(self) -> np.dtype[Any] | None: ...
    @property
    def shape(self) -> tuple[int | None, ...] | None: ...
    @property
    def type(self) -> VarType: ...
    @property
    def value(self) -> np.ndarray[Any, Any] | None: ...
    @property
    def value_status(self) -> str | None: ...
    @property
    def name(self) -> str | None: ...
    @name.setter
    def name(self, name: str) -> None: ...

class CollectStats:
    @property
    def freed_values(self) -> int: ...
    @property
    def freed_bytes(self) -> int: ...
    @property
    def live_values(self) -> int: ...
    @property
    def live_bytes(self) -> int: ...
    @property
    def scanned(self) -> int: ...

class GraphStats:
    @property
    def nodes(self) -> int: ...
    @property
    def vars(self) -> int: ...
    @property
    def arena_bytes(self) -> int: ...
    @property
    def live_value_bytes(self) -> int: ...
    @property
    def peak_value_bytes(self) -> int: ...
    @property
    def live_values(self) -> int: ...
    @property
    def collections(self) -> int: ...
    @property
    def values_skipped_for_budget(self) -> int: ...

class Graph:
    def __init__(
        self,
        *,
        propagate_values: bool = True,
        keep_all_values: bool = False,
        collect_policy: str = "adaptive",
        growth_factor: float = 2.0,
        min_trigger_bytes: int | None = None,
        threshold_bytes: int = ...,
        max_value_bytes: int = ...,
        max_live_value_bytes: int = 0,
        max_loop_trips: int = ...,
    ) -> None: ...
    def argument(
        self, name: str, dtype: DTypeLike, shape: Iterable[int | str | None] | None = None
    ) -> Var: ...
    def argument_of_type(self, name: str, type: VarType | DTypeLike) -> Var: ...
    def constant(self, value: Any) -> Var: ...
    def collect(self, *, full: bool = False) -> CollectStats: ...
    def stats(self) -> GraphStats: ...

def make_node(
    op_type: str,
    domain: str,
    version: int,
    inputs: Iterable[Var | None],
    attributes: Iterable[tuple[str, str, Any]],
    num_outputs: int,
    graph: Graph | None = None,
) -> list[Var]: ...
def has_kernel(
    op_type: str, domain: str = "", version: int = 0, dtype: DTypeLike | None = None
) -> bool: ...
def supported_opset_version(domain: str = "") -> int: ...
def to_onnx_bytes(
    graph: Graph,
    outputs: Sequence[tuple[str, Var]],
    *,
    values_as_initializers: bool = False,
    constants_as_initializers: bool = False,
    check: bool = False,
    inputs: Sequence[Var] = ...,
) -> bytes: ...
def import_model(
    graph: Graph,
    model: bytes | str,
    inputs: Mapping[str, Var],
    *,
    prefix: str = "",
    opset: int = 17,
    model_dir: str = "",
    opaque_unknown_ops: bool = True,
) -> tuple[dict[str, Var], int, list[str]]: ...
def fold(
    model: bytes | str,
    *,
    model_dir: str = "",
    max_fold_bytes: int = ...,
    fold_anyway: bool = False,
    memory_budget_bytes: int = 0,
    unknown_ops_are_errors: bool = False,
    fuse: bool = True,
    opset: int = 0,
    remove_noop_casts: bool = True,
    eliminate_common_subexpressions: bool = True,
    merge_initializers: bool = True,
) -> tuple[bytes, dict[str, float], list[str]]: ...
def load_model(path: str | os.PathLike[str], *, load_external_data: bool = True) -> bytes: ...
def save_model(
    model: bytes,
    path: str | os.PathLike[str],
    *,
    external_data_file: str = "",
    external_data_threshold: int = 1024,
) -> None: ...
