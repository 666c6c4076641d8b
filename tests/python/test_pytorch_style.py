"""A model written the way PyTorch 2.9's exporter writes them (pytorch_style_model.py): it
imports, folds to a checker-valid model, and ONNX Runtime gives the folded model (and graphgc's
export of its import) the original's outputs."""

import numpy as np
import onnx
import pytest

import graphgc
from pytorch_style_model import HIDDEN, pytorch_style_model, run


def test_it_imports_with_its_types():
    g = graphgc.Graph()
    imported = graphgc.import_model(g, pytorch_style_model())
    assert imported.onnx_opset == 24  # converted to the newest by default
    assert imported.warnings == []
    assert imported.outputs["mean"].shape == ("batch", 8, 1)
    assert [imported.outputs[s].shape for s in ("s0", "s1", "s2")] == [
        ("batch", 8, 6), ("batch", 8, 6), ("batch", 8, 4)]
    at_own = graphgc.import_model(g, pytorch_style_model(), prefix="own/", opset=0)
    assert at_own.onnx_opset == 20
    assert at_own.outputs["s2"].shape == ("batch", 8, 4)


def test_it_folds_to_a_valid_model_that_runs_as_the_original():
    original = pytorch_style_model()
    folded, stats = graphgc.fold(original)
    onnx.checker.check_model(folded, full_check=True)
    assert {o.domain: o.version for o in folded.opset_import}[""] == 20
    assert folded.ir_version == 10
    assert stats["nodes_after"] < stats["nodes_before"]  # the weight arithmetic is folded
    assert "Mul" not in {node.op_type for node in folded.graph.node}
    x = np.random.default_rng(1).standard_normal((3, 8, HIDDEN)).astype(np.float32)
    want, got = run(original, x), run(folded, x)
    assert set(got) == set(want) == {"mean", "s0", "s1", "s2"}
    for name in want:
        np.testing.assert_allclose(got[name], want[name], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("batch", [1, 5])
def test_its_exported_import_runs_as_the_original(batch):
    original = pytorch_style_model()
    g = graphgc.Graph()
    imported = graphgc.import_model(g, original, opset=0)
    exported = graphgc.to_onnx(g, imported.outputs, check=True)
    assert exported.ir_version == 9  # opset 20 came with IR 9
    x = np.random.default_rng(batch).standard_normal((batch, 8, HIDDEN)).astype(np.float32)
    want, got = run(original, x), run(exported, x)
    assert set(got) == set(want)
    for name in want:
        np.testing.assert_allclose(got[name], want[name], rtol=1e-5, atol=1e-5)
