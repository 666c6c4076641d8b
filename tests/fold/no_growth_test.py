"""graphgc-fold on every model of ONNX's PyTorch-converted, PyTorch-operator and node test data
(/usr/share/libonnx-testdata/data/{pytorch-converted,pytorch-operator,node}/*/model.onnx).

For each model the fold either succeeds or refuses cleanly: a non-zero exit with a message on
stderr is a refusal (counted, not a failure); a signal, a timeout, or a non-zero exit without a
message is a crash. A folded model must be no larger than its input (bytes: the never-grow
promise) and pass onnx.checker.check_model (unless the input fails it too: counted apart). The
PyTorch ones are also run in ONNX Runtime, original and folded, on the test's own
test_data_set_0/input_*.pb, and every output must agree within rtol 1e-3, atol 1e-5 (a model
whose original ONNX Runtime cannot load or run is counted and skipped).

Prints `N folded, G grew, W wrong, C crashed, R refused`, then every grown, wrong and crashed
model with its sizes; exits 1 if G, W or C is not zero.

Usage: no_growth_test.py GRAPHGC_FOLD [DATA_DIR]
"""
import collections
import glob
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import numpy_helper

DATA = "/usr/share/libonnx-testdata/data"
SUITES = ["pytorch-converted", "pytorch-operator", "node"]
RUN_IN_ORT = {"pytorch-converted", "pytorch-operator"}
FOLD_TIMEOUT_SECONDS = 120


class Tally:
    """Counts of each outcome and the models behind the failing ones."""

    def __init__(self):
        self.counts = collections.Counter()
        self.refused_by_suite = collections.Counter()
        self.failures = []  # (kind, model, detail)

    def fail(self, kind, model, detail):
        self.counts[kind] += 1
        self.failures.append((kind, model, detail))


def fold(fold_cli, source, target):
    """'ok', 'refused' or 'crashed', and a one-line detail."""
    try:
        run = subprocess.run([fold_cli, source, target, "--quiet"], capture_output=True,
                             text=True, errors="replace", timeout=FOLD_TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        return "crashed", f"no exit after {FOLD_TIMEOUT_SECONDS} s"
    message = run.stderr.strip().splitlines()[0] if run.stderr.strip() else ""
    if run.returncode < 0:
        return "crashed", f"killed by signal {-run.returncode}: {message}"
    if run.returncode != 0:
        if not message:
            return "crashed", f"exit {run.returncode} without a message"
        return "refused", message
    if not os.path.exists(target):
        return "crashed", "exit 0 but no output file"
    return "ok", ""


def checker_error(path):
    try:
        onnx.checker.check_model(path)
        return None
    except Exception as error:  # the checker raises ValidationError, and others on odd models
        return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__


def ort_session(path):
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.log_severity_level = 3
    options.intra_op_num_threads = 1
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL
    return onnxruntime.InferenceSession(path, options, providers=["CPUExecutionProvider"])


def test_inputs(test_dir, session):
    """test_data_set_0's input_<i>.pb, by name when it has one, else by position."""
    files = glob.glob(os.path.join(test_dir, "test_data_set_0", "input_*.pb"))
    files.sort(key=lambda f: int(os.path.basename(f)[len("input_"):-len(".pb")]))
    names = [i.name for i in session.get_inputs()]
    feed = {}
    for position, path in enumerate(files):
        tensor = onnx.load_tensor(path)
        feed[tensor.name if tensor.name in names else names[position]] = \
            numpy_helper.to_array(tensor)
    return feed


def compare_in_ort(source, target, test_dir):
    """None when they agree; 'skip: ...' when ORT cannot run the original; else what differs."""
    try:
        original = ort_session(source)
        feed = test_inputs(test_dir, original)
        want = original.run(None, feed)
    except Exception as error:
        return f"skip: {str(error).strip().splitlines()[0] if str(error).strip() else error!r}"
    try:
        folded = ort_session(target)
        names = {i.name for i in folded.get_inputs()}
        got = folded.run([o.name for o in original.get_outputs()],
                         {k: v for k, v in feed.items() if k in names})
    except Exception as error:
        return f"ONNX Runtime cannot run the folded model: {str(error).strip().splitlines()[0]}"
    for output, w, g in zip(original.get_outputs(), want, got):
        w, g = np.asarray(w), np.asarray(g)
        if w.dtype != g.dtype or w.shape != g.shape:
            return f"output {output.name}: {g.dtype}{list(g.shape)} instead of {w.dtype}{list(w.shape)}"
        try:
            np.testing.assert_allclose(g, w, rtol=1e-3, atol=1e-5, equal_nan=True)
        except AssertionError:
            diff = np.max(np.abs(g.astype(np.float64) - w.astype(np.float64)))
            return f"output {output.name}: max |folded - original| = {diff:.3g}"
        except TypeError:  # strings and other non-numeric outputs
            if not np.array_equal(g, w):
                return f"output {output.name}: differs"
    return None


def check_model(fold_cli, suite, test_dir, work, tally):
    name = f"{suite}/{os.path.basename(test_dir)}"
    source = os.path.join(test_dir, "model.onnx")
    target = os.path.join(work, suite + "_" + os.path.basename(test_dir) + ".onnx")
    outcome, detail = fold(fold_cli, source, target)
    if outcome == "refused":
        tally.counts["refused"] += 1
        tally.refused_by_suite[suite] += 1
        return
    if outcome == "crashed":
        tally.fail("crashed", name, detail)
        return
    tally.counts["folded"] += 1
    before, after = os.path.getsize(source), os.path.getsize(target)
    sizes = f"{before} -> {after} bytes"
    if after > before:
        tally.fail("grew", name, f"{sizes} (+{after - before}, {100 * (after - before) / before:.1f}%)")
    error = checker_error(target)
    if error is not None:
        if checker_error(source) is not None:
            tally.counts["input fails the checker too"] += 1
        else:
            tally.fail("wrong", name, f"{sizes}; fails onnx.checker: {error}")
            return
    if suite in RUN_IN_ORT:
        verdict = compare_in_ort(source, target, test_dir)
        if verdict is None:
            tally.counts["agree in ORT"] += 1
        elif verdict.startswith("skip: "):
            tally.counts["ORT cannot run the original"] += 1
        else:
            tally.fail("wrong", name, f"{sizes}; {verdict}")
    os.remove(target)


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__.strip().splitlines()[-1])
        return 2
    fold_cli, data = sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else DATA
    tally = Tally()
    total = 0
    with tempfile.TemporaryDirectory() as work:
        for suite in SUITES:
            tests = sorted(os.path.dirname(p)
                           for p in glob.glob(os.path.join(data, suite, "*", "model.onnx")))
            if not tests:
                print(f"FAIL: no models in {os.path.join(data, suite)}")
                return 1
            total += len(tests)
            for test_dir in tests:
                check_model(fold_cli, suite, test_dir, work, tally)
    c = tally.counts
    print(f"{c['folded']} folded, {c['grew']} grew, {c['wrong']} wrong, {c['crashed']} crashed, "
          f"{c['refused']} refused")
    print(f"({total} models; refused by suite: "
          + ", ".join(f"{s} {tally.refused_by_suite[s]}" for s in SUITES)
          + f"; {c['agree in ORT']} agree with the original in ONNX Runtime, "
          f"{c['ORT cannot run the original']} skipped as ONNX Runtime cannot run the original; "
          f"{c['input fails the checker too']} folded models fail the checker as their input does)")
    for kind, model, detail in sorted(tally.failures):
        print(f"{kind.upper()} {model}: {detail}")
    return 1 if c["grew"] or c["wrong"] or c["crashed"] else 0


if __name__ == "__main__":
    sys.exit(main())
