"""Values on demand from Python: Graph(on_budget="evict") evicts values of live Vars under
max_live_value_bytes and computes them again when read; every value read equals the one of a graph
that kept them all."""

import numpy as np
import pytest

import graphgc
from graphgc import op

MIB = 1 << 20


class Layers:
    """Layers of y = tanh(y * w + 0.25) over 1 MiB vectors; x and w are 2 MiB of constants."""

    def __init__(self, g):
        self.g = g
        self.x = g.constant(np.linspace(-2, 2, MIB // 4, dtype=np.float32))
        self.w = g.constant(np.linspace(0.5, 1.5, MIB // 4, dtype=np.float32))

    def make(self, count):
        kept = []
        y = self.x
        for _ in range(count):
            y = op.tanh(op.add(op.mul(y, self.w), self.g.constant(np.float32(0.25))))
            kept.append(y)
        return kept


def test_evicted_values_read_as_in_a_graph_that_kept_them():
    unbounded = graphgc.Graph()
    want = [v.value for v in Layers(unbounded).make(10)]
    g = graphgc.Graph(max_live_value_bytes=6 * MIB, on_budget="evict")
    got = Layers(g).make(10)
    stats = g.stats()
    assert stats.values_evicted > 0
    assert stats.peak_value_bytes <= 4 * MIB  # the cap less 2 MiB of constants
    assert "evicted" in got[0].value_status
    for var, value in zip(got, want):
        assert np.array_equal(var.value, value)
    assert g.stats().values_recomputed > 0
    assert "values_recomputed=" in repr(g.stats())


def test_a_pinned_value_stays():
    # 2 MiB of constants, the pinned value, and room for a layer's operands beside it.
    g = graphgc.Graph(max_live_value_bytes=7 * MIB, on_budget="evict")
    layers = Layers(g)
    first = layers.make(1)[0]
    first.pin()
    assert first.pinned
    more = layers.make(4)
    assert g.stats().values_evicted > 0
    assert first.value_status is None
    first.unpin()
    assert not first.pinned
    with pytest.raises(graphgc.Error, match="not pinned"):
        first.unpin()
    assert all(v.value is not None for v in more)


def test_cheapest_policy_keeps_the_costly_value():
    # A 1 GFLOP product made first, then cheap sums of the same 1 MiB; beside 11 MiB of
    # constants, 4 MiB of values fit.
    g = graphgc.Graph(
        max_live_value_bytes=15 * MIB + 64 * 1024, on_budget="evict", eviction_policy="cheapest"
    )
    a = g.constant(np.linspace(-1, 1, 256 * 2048, dtype=np.float32).reshape(256, 2048))
    b = g.constant(np.linspace(-1, 1, 2048 * 1024, dtype=np.float32).reshape(2048, 1024))
    c = g.constant(np.linspace(0, 1, MIB // 4, dtype=np.float32))
    product = op.matmul(a, b)
    sums = [op.add(c, g.constant(np.float32(i))) for i in range(8)]
    assert g.stats().values_evicted >= 5
    assert product.value_status is None
    # Which sums went depends on their measured times (a first add pays for fresh pages).
    evicted = [i for i, s in enumerate(sums) if s.value_status and "evicted" in s.value_status]
    assert len(evicted) == 5
    expected = np.linspace(0, 1, MIB // 4, dtype=np.float32) + np.float32(evicted[0])
    assert np.array_equal(sums[evicted[0]].value, expected)
    with pytest.raises(graphgc.Error, match="eviction_policy is 'lru' or 'cheapest'"):
        graphgc.Graph(on_budget="evict", eviction_policy="oldest")


def test_on_budget_is_drop_or_evict():
    with pytest.raises(graphgc.Error, match="on_budget is 'drop' or 'evict'"):
        graphgc.Graph(on_budget="forget")
    g = graphgc.Graph(max_live_value_bytes=2 * MIB)  # drop, the default
    got = Layers(g).make(4)
    assert g.stats().values_evicted == 0
    assert g.stats().values_skipped_for_budget > 0
    assert any(v.value is None for v in got)
