"""The typing stubs: the hand-written one of the compiled module and the generated ones of the op
modules match what the package has at run time (mypy's stubtest), and an editor's type checker
sees op names and keyword attributes through them."""

import os
import subprocess
import sys
import textwrap

import pytest

MODULES = ["graphgc._graphgc", "graphgc.op", "graphgc.ml"] + [
    f"graphgc.opset{v}" for v in range(1, 25)] + [f"graphgc.ml{v}" for v in range(1, 6)]


def run(*args):
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True,
                          timeout=600)


ALLOWLIST = os.path.join(os.path.dirname(__file__), "stubtest_allowlist.txt")


def test_stubs_match_the_runtime():
    done = run("mypy.stubtest", "--allowlist", ALLOWLIST, *MODULES)
    assert done.returncode == 0, done.stdout + done.stderr


def check(tmp_path, source):
    path = tmp_path / "user_code.py"
    path.write_text(textwrap.dedent(source))
    return run("mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"),
               str(path))


def test_a_type_checker_sees_ops_and_attributes(tmp_path):
    good = check(tmp_path, """
        import numpy as np
        import graphgc
        from graphgc import op, opset13

        g = graphgc.Graph()
        x = g.argument("x", np.float32, ("batch", 16))
        w = g.constant(np.ones((16, 4), np.float32))
        y: graphgc.Var = op.softmax(op.matmul(x, w), axis=-1)
        values, indices = op.top_k(y, g.constant(np.array([2])), axis=-1)
        z = opset13.cast(indices, to=np.int32)
        model = graphgc.to_onnx(g, {"z": z, "values": values})
    """)
    assert good.returncode == 0, good.stdout + good.stderr
    bad = check(tmp_path, """
        import numpy as np
        import graphgc
        from graphgc import op

        g = graphgc.Graph()
        x = g.argument("x", np.float32, (2, 3))
        op.softmax(x, axs=-1)
        op.sofmax(x)
        op.transpose(x, perm="01")
    """)
    assert bad.returncode != 0
    assert 'Unexpected keyword argument "axs"' in bad.stdout
    assert "sofmax" in bad.stdout
    assert '"transpose" has incompatible type "str"' in bad.stdout or "perm" in bad.stdout
