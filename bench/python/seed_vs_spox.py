#!/usr/bin/env python3
"""graphgc and spox side by side on the seed scenario of spox's memory bug report (spox issue #187).

    a = op.const(np.zeros(10000))          # float64, 80 000 bytes
    for i in range(N): a = op.mul(a, a)

Both libraries propagate a value at every op. spox before its fix (the `_VarInfo` change,
Quantco/spox PR #189) kept every propagated value reachable from the graph, 80 kB more per op.
Releases since (0.18.2 here) drop a value with its Var, but only when Python's cyclic gc runs: each
op's onnx ReferenceEvaluator is in a reference cycle and holds that op's input values; and the
graph keeps about 1 kB of Python objects per op. graphgc frees a value once its var is unreachable.
Both run in this one Python process, with spox's value propagation on as its users run it (its
default backend), and the final value of each chain is checked (10000 float64 zeros; the exit
status is 1 otherwise).

For each library and N, three kinds of run, each timing or measuring the loop only:
  - time per op: wall clock (perf_counter, gc enabled as in real use), best of k runs;
  - tracemalloc peak: a separate run with tracemalloc on (it slows Python code down, so it is
    never timed): Python-visible allocations during the loop, numpy buffers included, what C++
    code allocates itself (graphgc's value store, onnx's protobuf messages) not;
  - RSS growth: another run; the kernel's peak-RSS mark is reset just before the loop (writing 5
    to /proc/self/clear_refs) and VmHWM after the loop minus VmRSS before it is reported.
For graphgc, g.stats() at the end of the RSS run is printed as well.

    tools/.venv/bin/python bench/python/seed_vs_spox.py [--n 10,100 | --quick] [--json FILE]
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import importlib.metadata
import json
import math
import os
import platform
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

SIZE = 10_000  # elements of the float64 constant: 80 000 bytes
DEFAULT_NS = (10, 100, 1000, 10000)
QUICK_NS = (10, 100)
WARMUP_OPS = 3


# --- the two adapters: everything library-specific is here ---------------------------------------


@dataclass(frozen=True)
class Library:
    name: str
    about: str  # version and settings, for the header
    start: Callable[[], tuple[Any, Any]]  # -> (owner kept alive during the run, the constant's var)
    mul: Callable[[Any, Any], Any]  # the library's own op.mul, called directly in the loop
    value: Callable[[Any], Any]  # a var -> its propagated value
    stats: Callable[[Any], dict[str, int]]  # owner -> the library's own counters


def spox_library() -> Library:
    import spox._value_prop as value_prop  # the backend setting lives here (spox._future sets it)
    from spox.opset.ai.onnx import v17 as op

    backend = value_prop._VALUE_PROP_BACKEND  # read before anything could set it: the default
    if backend == value_prop.ValuePropBackend.NONE:
        raise SystemExit("seed_vs_spox: spox's value propagation is off (backend NONE)")
    return Library(
        name="spox",
        about=f"spox {package_version('spox')}: spox.opset.ai.onnx.v17, value propagation on, "
        f"backend {backend.name} (spox's default; one onnx.reference.ReferenceEvaluator per op)",
        start=lambda: (None, op.const(np.zeros(SIZE))),
        mul=op.mul,
        value=lambda var: var._get_value(),  # spox's accessor for a Var's propagated value
        stats=lambda owner: {},
    )


def graphgc_library() -> Library:
    try:
        import graphgc
        from graphgc import op
    except ImportError as err:
        raise SystemExit(
            f"seed_vs_spox: cannot import graphgc ({err}).\n"
            "Build the binding into the venv first: tools/.venv/bin/pip install ."
        ) from None

    def start() -> tuple[Any, Any]:
        graph = graphgc.Graph()
        return graph, graph.constant(np.zeros(SIZE))

    def stats(graph: Any) -> dict[str, int]:
        s = graph.stats()
        names = ("live_value_bytes", "peak_value_bytes", "arena_bytes", "nodes", "vars")
        return {name: int(getattr(s, name)) for name in names}

    return Library(
        name="graphgc",
        about=f"graphgc {package_version('graphgc')}: graphgc.op (opset 17), Graph() defaults",
        start=start,
        mul=op.mul,
        value=lambda var: var.value,
        stats=stats,
    )


def package_version(name: str) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return str(getattr(sys.modules.get(name), "__version__", "(version unknown)"))


# --- probes: what one run measures around its loop ------------------------------------------------


class WallClock:
    def begin(self) -> None:
        self._start = time.perf_counter()

    def end(self) -> float:
        return time.perf_counter() - self._start


class TracedPeak:
    def begin(self) -> None:
        tracemalloc.start()

    def end(self) -> int:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return peak


def proc_status_bytes(field_name: str) -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field_name + ":"):
                return int(line.split()[1]) * 1024
    raise RuntimeError(f"no {field_name} in /proc/self/status")


def reset_peak_rss() -> bool:
    """Resets VmHWM to the current RSS; False when the kernel refuses."""
    try:
        with open("/proc/self/clear_refs", "w") as clear_refs:
            clear_refs.write("5")
    except OSError:
        return False
    return proc_status_bytes("VmHWM") <= proc_status_bytes("VmRSS") + 64 * 1024


class RssGrowth:
    """Peak RSS during the loop minus RSS before it (RSS after minus before if no peak reset)."""

    def __init__(self) -> None:
        self.peak_resettable = reset_peak_rss()
        self.method = (
            "peak: VmHWM after the loop - VmRSS before it, VmHWM reset by /proc/self/clear_refs"
            if self.peak_resettable
            else "NOT the peak (clear_refs refused): VmRSS after the loop - VmRSS before it"
        )

    def begin(self) -> None:
        if self.peak_resettable:
            reset_peak_rss()
        self._before = proc_status_bytes("VmRSS")

    def end(self) -> int:
        after = proc_status_bytes("VmHWM" if self.peak_resettable else "VmRSS")
        return after - self._before


# --- one run, and the schedule of runs ------------------------------------------------------------


def _malloc_trim() -> Callable[[], None]:
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return lambda: None
    return lambda: trim(0)


trim_heap = _malloc_trim()


def settle(trim: bool) -> None:
    """Frees what earlier runs left: their cycles, and with `trim` glibc's free pages too, so that
    a memory run cannot reuse pages an earlier run made resident."""
    gc.collect()
    if trim:
        trim_heap()


def value_problem(value: Any) -> str | None:
    if not isinstance(value, np.ndarray):
        return f"final value is {type(value).__name__}, not a numpy array"
    if value.shape != (SIZE,) or value.dtype != np.float64:
        return f"final value has shape {value.shape} and dtype {value.dtype}, not ({SIZE},) float64"
    if np.any(value):
        return f"final value has {np.count_nonzero(value)} non-zero elements"
    return None


def run_once(
    lib: Library, n: int, probe: Any, trim: bool = True
) -> tuple[Any, str | None, dict[str, int]]:
    """One chain of n squarings, the probe around the loop only -> (measure, problem, counters)."""
    settle(trim)
    owner, a = lib.start()
    mul = lib.mul
    probe.begin()
    for _ in range(n):
        a = mul(a, a)
    measured = probe.end()
    return measured, value_problem(lib.value(a)), lib.stats(owner)


@dataclass
class Row:
    library: str
    n: int
    repeats: int = 0
    best_seconds: float = math.nan
    tracemalloc_peak_bytes: int = 0
    rss_growth_bytes: int = 0
    stats: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def us_per_op(self) -> float:
        return self.best_seconds / self.n * 1e6

    @property
    def rss_bytes_per_op(self) -> float:
        return self.rss_growth_bytes / self.n

    def note(self, problem: str | None) -> None:
        if problem and problem not in self.problems:
            self.problems.append(problem)

    def as_json(self) -> dict[str, Any]:
        derived = {"us_per_op": self.us_per_op, "rss_bytes_per_op": self.rss_bytes_per_op}
        return asdict(self) | derived


Rows = dict[tuple[str, int], Row]  # (library name, N) -> its row
Libraries = Sequence[Library]


# Order of runs. A run can only profit from what an earlier run left behind in the process: pages
# that the allocators keep (glibc's heap, pymalloc's arenas, a C++ library's own allocator) are
# reused without growing RSS, and a warm cache or branch predictor makes ops faster. So:
#  - a warm-up chain of each library first, so that lazy imports and first-use caches (onnx's
#    reference op classes, graphgc's kernels) count against neither;
#  - every run starts from settle(): gc.collect() frees the previous run's vars and cycles; before
#    a memory run, malloc_trim(0) also gives glibc's free pages back to the kernel. Timing runs
#    keep them, as a program that builds graphs keeps its heap warm: trimming would charge each
#    timed run with first-touch page faults that no long-running program pays;
#  - all memory runs before any timing run, N ascending, so that a memory run follows at most
#    smaller runs of its own library, never the repeated timing runs;
#  - the library that goes first alternates from one N to the next, and timing repeats interleave
#    the libraries (graphgc, spox, graphgc, spox, ...), so neither always runs in the other's
#    leftovers and a burst of machine noise hits both alike.


def alternating(libs: Libraries, ns: Sequence[int]) -> Iterator[tuple[int, Libraries]]:
    for i, n in enumerate(ns):
        yield n, libs if i % 2 == 0 else libs[::-1]


def warm_up(libs: Libraries) -> None:
    for lib in libs:
        run_once(lib, WARMUP_OPS, WallClock())


def measure_memory(rows: Rows, libs: Libraries, ns: Sequence[int], rss: RssGrowth) -> None:
    for n, order in alternating(libs, ns):
        for lib in order:
            progress(f"memory, {lib.name}, N={n}")
            row = rows[lib.name, n]
            row.rss_growth_bytes, problem, row.stats = run_once(lib, n, rss)
            row.note(problem)
            row.tracemalloc_peak_bytes, problem, _ = run_once(lib, n, TracedPeak())
            row.note(problem)


def measure_time(
    rows: Rows, libs: Libraries, ns: Sequence[int], repeats: int, budget: float
) -> None:
    """Best of `repeats` runs, but a library whose first run took more than `budget` s runs once."""
    for n, order in alternating(libs, ns):
        for rep in range(repeats):
            for lib in order:
                row = rows[lib.name, n]
                if rep > 0 and row.best_seconds > budget:
                    continue
                progress(f"time, {lib.name}, N={n}, run {rep + 1}")
                seconds, problem, _ = run_once(lib, n, WallClock(), trim=False)
                row.best_seconds = min(row.best_seconds, seconds) if row.repeats else seconds
                row.repeats += 1
                row.note(problem)


def progress(what: str) -> None:
    print(f"  ... {what}", file=sys.stderr, flush=True)


# --- output ---------------------------------------------------------------------------------------


def human_bytes(count: float) -> str:
    for unit, scale in (("MB", 1e6), ("kB", 1e3)):
        if abs(count) >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{count:.0f} B"


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def header(libs: Libraries, rss: RssGrowth, repeats: int, budget: float) -> list[str]:
    return [
        f"Seed scenario of spox's memory bug: a = const(zeros({SIZE}), float64); "
        "N times a = mul(a, a)",
        f"  machine: {cpu_model()}, {os.cpu_count()} CPUs; Python {platform.python_version()}, "
        f"numpy {np.__version__}, onnx {package_version('onnx')}",
        *(f"  {lib.about}" for lib in libs),
        "  side by side in one process: runs alternate between the libraries (see the script's",
        "    comment), so machine noise and allocator leftovers hit both alike; every run starts",
        "    after gc.collect() (memory runs after malloc_trim(0) too); a warm-up chain of each",
        "    library runs first",
        "  µs/op: wall clock of the loop only, gc enabled, best of k runs "
        f"(k={repeats}, or 1 when a run takes > {budget:g} s)",
        "  tracemalloc peak: separate run with tracemalloc on (it slows Python code: not timed);",
        "    Python-visible allocations during the loop, numpy buffers included, what C++ code",
        "    allocates itself (graphgc's value store, onnx's protobuf messages) not",
        f"  RSS growth: separate run, {rss.method}",
        "  B/op: RSS growth / N",
    ]


def table(rows: Sequence[Row]) -> list[str]:
    lines = [
        f"{'library':<8} {'N':>6} {'k':>2} {'µs/op':>10} {'tracemalloc peak':>17} "
        f"{'RSS growth':>11} {'B/op':>9}"
    ]
    for row in rows:
        lines.append(
            f"{row.library:<8} {row.n:>6} {row.repeats:>2} {row.us_per_op:>10.1f} "
            f"{human_bytes(row.tracemalloc_peak_bytes):>17} "
            f"{human_bytes(row.rss_growth_bytes):>11} {row.rss_bytes_per_op:>9.0f}"
        )
    return lines


def stats_lines(rows: Sequence[Row]) -> list[str]:
    def shown(name: str, count: int) -> str:
        return f"{name} {human_bytes(count) if name.endswith('bytes') else count}"

    return [
        f"{row.library} counters at the end of the RSS run, N={row.n}: "
        + ", ".join(shown(name, count) for name, count in row.stats.items())
        for row in rows
        if row.stats
    ]


def comparison_lines(rows: Rows, ns: Sequence[int]) -> list[str]:
    lines = []
    for n in ns:
        spox, ours = rows["spox", n], rows["graphgc", n]
        ratio = spox.best_seconds / ours.best_seconds if ours.best_seconds > 0 else math.inf
        lines.append(f"spox / graphgc time per op at N={n}: {ratio:,.0f}×")
    n = 10000 if 10000 in ns else max(ns)
    spox, ours = rows["spox", n], rows["graphgc", n]
    live = ours.stats.get("live_value_bytes")
    lines.append(
        f"memory at N={n}: spox {memory_figures(spox)} vs graphgc {memory_figures(ours)}"
        + (f" ({human_bytes(live)} of live values at the end)" if live is not None else "")
    )
    return lines


def memory_figures(row: Row) -> str:
    return (
        f"{human_bytes(row.tracemalloc_peak_bytes)} tracemalloc peak, "
        f"{human_bytes(row.rss_growth_bytes)} RSS growth"
    )


def write_json(path: str, libs: Libraries, rss: RssGrowth, rows: Sequence[Row]) -> None:
    document = {
        "scenario": f"a = const(zeros({SIZE}) float64); N times a = mul(a, a)",
        "libraries": {lib.name: lib.about for lib in libs},
        "rss_method": rss.method,
        "machine": {
            "cpu": cpu_model(),
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
        },
        "rows": [row.as_json() for row in rows],
    }
    with open(path, "w") as out:
        json.dump(document, out, indent=2)
        out.write("\n")


# --- main -----------------------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    sizes = parser.add_mutually_exclusive_group()
    sizes.add_argument(
        "--n",
        type=lambda text: [int(x) for x in text.split(",")],
        help="chain lengths, comma-separated (default 10,100,1000,10000)",
    )
    sizes.add_argument("--quick", action="store_true", help="smoke run: N=10,100")
    parser.add_argument(
        "--repeat", type=int, default=3, metavar="K",
        help="timing runs per library and N, the best one kept (default 3)",
    )
    parser.add_argument(
        "--repeat-budget", type=float, default=2.0, metavar="S",
        help="time once only when the first run takes more than S seconds (default 2)",
    )
    parser.add_argument("--json", metavar="FILE", help="also write the rows as JSON to FILE")
    args = parser.parse_args(argv)
    args.ns = sorted(set(args.n or (QUICK_NS if args.quick else DEFAULT_NS)))
    if min(args.ns) < 1 or args.repeat < 1:
        parser.error("N and K must be positive")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    libs = (graphgc_library(), spox_library())  # graphgc first: fail at once if it won't import
    rss = RssGrowth()
    rows = {(lib.name, n): Row(lib.name, n) for n in args.ns for lib in libs}
    warm_up(libs)
    measure_memory(rows, libs, args.ns, rss)
    measure_time(rows, libs, args.ns, args.repeat, args.repeat_budget)

    ordered = [rows[lib.name, n] for n in args.ns for lib in libs]
    print("\n".join([*header(libs, rss, args.repeat, args.repeat_budget), "", *table(ordered), "",
                     *stats_lines(ordered), "", *comparison_lines(rows, args.ns)]))
    if args.json:
        write_json(args.json, libs, rss, ordered)
    failures = [f"{row.library} N={row.n}: {bad}" for row in ordered for bad in row.problems]
    for failure in failures:
        print(f"WRONG VALUE: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
