"""The seed of the project: spox's memory report, `a = op.mul(a, a)` in a loop, run from Python.
A Python Var is a root: dropping the last one makes its value garbage."""

import os
import subprocess
import sys
import textwrap

import numpy as np

import graphgc
from graphgc import op

VALUE_BYTES = 10000 * 8


def test_each_collect_leaves_exactly_one_live_value():
    g = graphgc.Graph(collect_policy="manual")
    a = g.constant(np.zeros(10000))
    for _ in range(1000):
        a = op.mul(a, a)
        g.collect()
        assert g.stats().live_value_bytes == VALUE_BYTES
    # While an op runs, its input and its output are both alive: never more.
    assert g.stats().peak_value_bytes == 2 * VALUE_BYTES
    np.testing.assert_array_equal(a.value, np.zeros(10000))
    assert g.stats().nodes == 1001


def test_automatic_collection_bounds_the_live_values_without_collect():
    g = graphgc.Graph()  # the default, adaptive policy; the program never calls collect()
    a = g.constant(np.zeros(10000))
    for _ in range(2000):
        a = op.mul(a, a)
    stats = g.stats()
    assert stats.collections > 0
    # The adaptive trigger has a floor of at most 4 MiB; 2000 kept values would be 160 MB.
    assert stats.peak_value_bytes <= 4 * 2**20 + 2 * VALUE_BYTES
    assert g.collect().live_bytes == VALUE_BYTES


def test_keeping_every_value_is_what_spox_did():
    g = graphgc.Graph(keep_all_values=True)
    a = g.constant(np.zeros(10000))
    for _ in range(100):
        a = op.mul(a, a)
    assert g.collect().live_bytes == 100 * VALUE_BYTES


# Run in a fresh interpreter, so that the peak RSS (VmHWM) is this loop's, not an earlier test's.
MILLION_OPS = textwrap.dedent(
    """
    import numpy as np, graphgc
    from graphgc import op

    def peak_rss():
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024

    g = graphgc.Graph(collect_policy="manual")
    a = g.constant(np.zeros(10000))
    for i in range(1, 1_000_001):
        a = op.mul(a, a)
        g.collect()
        if g.stats().live_value_bytes != 80000:
            raise SystemExit(f"step {i}: {g.stats().live_value_bytes} live value bytes")
        if i == 1000:
            rss_at_1e3 = peak_rss()
    growth = peak_rss() - rss_at_1e3
    assert (a.value == 0).all()
    print(growth, g.stats().arena_bytes, g.stats().peak_value_bytes)
    """
)


def test_a_million_ops_hold_one_value_and_grow_only_by_the_arena():
    done = subprocess.run(
        [sys.executable, "-c", MILLION_OPS], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr + done.stdout
    growth, arena_bytes, peak_value_bytes = map(int, done.stdout.split())
    per_op = growth / (1_000_000 - 1000)
    print(f"peak RSS growth 1e3 -> 1e6 ops: {growth} bytes, {per_op:.1f} per op; "
          f"arena {arena_bytes} bytes")
    assert per_op < 100
    assert peak_value_bytes == 2 * VALUE_BYTES
