"""Handles follow Python: a Var is a root while Python holds it, may outlive its Graph, and
Python's own garbage collector releases Vars caught in reference cycles."""

import gc
import weakref

import numpy as np
import pytest

import graphgc
from graphgc import op


def test_a_var_outliving_its_graph_raises_instead_of_crashing():
    g = graphgc.Graph()
    x = g.argument("x", np.float32, (2,))
    y = op.relu(g.constant(np.ones(2, np.float32)))
    del g
    gc.collect()
    for use in (lambda: y.value, lambda: y.dtype, lambda: x.shape, lambda: op.relu(x),
                lambda: op.add(x, y)):
        with pytest.raises(graphgc.Error, match="[Gg]raph"):
            use()
    assert isinstance(repr(y), str)  # printing it does not crash either


def test_dropping_the_last_var_makes_its_value_collectable():
    g = graphgc.Graph(collect_policy="manual")
    kept = op.add(g.constant(np.ones(1000)), g.constant(np.ones(1000)))
    dropped = op.mul(kept, kept)
    copy = dropped  # a second Python reference to the same Var object
    del dropped
    assert g.collect().live_bytes == 2 * 8000
    del copy
    assert g.collect().live_bytes == 8000
    np.testing.assert_array_equal(kept.value, np.full(1000, 2.0))


def test_python_gc_breaks_cycles_holding_vars():
    g = graphgc.Graph(collect_policy="manual")
    base = g.constant(np.ones(10000))

    class Holder:
        pass

    holder = Holder()
    holder.var = op.neg(base)
    holder.self = holder  # a cycle: only Python's cycle collector frees it
    watch = weakref.ref(holder)
    del holder
    assert g.collect().live_bytes == 80000  # the cycle still holds the Var
    gc.collect()
    assert watch() is None
    assert g.collect().live_bytes == 0


def test_the_graph_is_kept_for_export_after_values_are_freed():
    g = graphgc.Graph(collect_policy="manual")
    x = g.argument("x", np.float64, (3,))
    a = g.constant(np.arange(3.0))
    for _ in range(5):
        a = op.mul(a, a)
    y = op.add(x, a)
    g.collect()
    model = graphgc.to_onnx(g, {"y": y}, check=True)
    assert [n.op_type for n in model.graph.node].count("Mul") == 5


def test_a_body_that_drops_the_last_reference_to_its_graph():
    holder = {"graph": graphgc.Graph()}
    cond = holder["graph"].argument("c", np.bool_, ())

    def body():
        del holder["graph"]  # the graph's only Python reference, in the middle of building If
        gc.collect()
        return [cond]

    (result,) = op.if_(cond, then_branch=body, else_branch=lambda: [cond])
    assert "graph" not in holder
    with pytest.raises(graphgc.Error):  # the node was made; then the graph went
        result.value
