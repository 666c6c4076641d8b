"""The README's Python examples, run as written there (one namespace, in order)."""

import os
import re

README = os.path.join(os.path.dirname(__file__), "..", "..", "README.md")


def python_blocks():
    with open(README, encoding="utf-8") as readme:
        return re.findall(r"```python\n(.*?)```", readme.read(), flags=re.S)


def test_the_readme_python_examples_run():
    blocks = python_blocks()
    assert len(blocks) >= 2
    namespace = {}
    for block in blocks:
        exec(compile(block, README, "exec"), namespace)
    g, a = namespace["g"], namespace["a"]
    assert (a.value == 0).all()
    assert g.stats().nodes > 1_000_000
    assert namespace["z"].dtype.name == "int32"
    assert [p.shape for p in namespace["parts"]] == [("batch", 8), ("batch", 8)]
    assert namespace["fy"].shape == ("N", 3)
    assert sorted(f.name for f in namespace["kept"].functions) == ["act", "layer"]
    assert not namespace["flat"].functions
