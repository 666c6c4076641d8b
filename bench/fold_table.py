"""Folds every .onnx model of a folder with graphgc-fold and prints one row per model.

For each model found under FOLDER (recursively, so ONNX's test-data layout DIR/<test>/model.onnx
works as well as a flat folder of .onnx files) it reports:

- nodes before -> after (every node, those of If/Loop/Scan bodies included);
- bytes before -> after: the model file plus every external data file its tensors name;
- graphgc-fold's wall time, of the whole process (start to exit), min and median of --repeat N;
- graphgc-fold's peak RSS, of that process alone (the ru_maxrss that wait4 gives its parent; the
  largest of the N runs). graphgc-fold is started through GNU time (/usr/bin/time -f %M), which
  reports exactly that: a child forked or vforked by this python would count this python's own
  RSS (Linux keeps the larger of the pre-exec and post-exec peaks), some 45 MiB with onnx
  loaded; GNU time's own is about 1 MiB, the floor of the figure;
- whether the folded model grew (bytes after > bytes before).

With --vs-ort each repetition also runs ONNX Runtime right after graphgc-fold, in the same loop
(graphgc, ORT, graphgc, ORT, ...), so that machine noise hits both alike. ORT runs in a fresh
python child per repetition, which times only InferenceSession(...) plus ONE run() of the model
graphgc-fold was given (the unfolded model; with --make-constant, its constant-input rewrite):
one thread (intra_op_num_threads=1, inter_op_num_threads=1, sequential execution), the default
graph optimization level, CPU provider, every input fed as zeros of its declared shape and type
(symbolic dims -> 1). Interpreter start-up, `import onnxruntime` and making the zeros are not
timed. The ratio is graphgc's median over ORT's median.

With --make-constant each model is first rewritten (into a temporary folder) so that its
non-initializer floating-point inputs become initializers of arange(n) / n, as
tests/fold/light_networks_test.py does: the fold then computes the whole network.

The text table goes to stdout, the same fields as JSON to --json PATH. The exit status is 1 if
any fold failed, or, with --fail-on-growth, if any model grew.

Usage (from the repository root, with tools/.venv's python):
  tools/.venv/bin/python bench/fold_table.py /usr/share/libonnx-testdata/data/pytorch-converted
  tools/.venv/bin/python bench/fold_table.py LIGHT_DIR --make-constant --vs-ort --repeat 3 \\
      --json light.json
  tools/.venv/bin/python bench/fold_table.py models/ --fail-on-growth -- --max-fold-bytes=0
where LIGHT_DIR is tools/.venv/lib/python3.11/site-packages/onnx/backend/test/data/light.
Arguments after `--` are passed to graphgc-fold.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
from onnx import external_data_helper, helper, numpy_helper

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GNU_TIME = "/usr/bin/time"

# Runs in a fresh python: argv[1] is the model. Prints {"seconds": ...} or {"error": ...}.
ORT_CHILD = r"""
import json, re, sys, time
import numpy as np
import onnxruntime as ort

TYPES = {"float": np.float32, "double": np.float64, "float16": np.float16,
         "int8": np.int8, "int16": np.int16, "int32": np.int32, "int64": np.int64,
         "uint8": np.uint8, "uint16": np.uint16, "uint32": np.uint32, "uint64": np.uint64,
         "bool": np.bool_, "string": np.str_}

def zeros(arg):
    if not arg.type.startswith("tensor("):
        raise ValueError(f"input {arg.name} has type {arg.type}, which cannot be fed as zeros")
    dtype = TYPES[arg.type[len("tensor("):-1]]
    shape = [d if isinstance(d, int) and d >= 0 else 1 for d in arg.shape]
    if dtype is np.str_:
        return np.full(shape, "", dtype=object)
    return np.zeros(shape, dtype=dtype)

try:
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.log_severity_level = 3
    start = time.perf_counter()
    session = ort.InferenceSession(sys.argv[1], options, providers=["CPUExecutionProvider"])
    created = time.perf_counter()
    feed = {arg.name: zeros(arg) for arg in session.get_inputs()}
    fed = time.perf_counter()
    session.run(None, feed)
    done = time.perf_counter()
    print(json.dumps({"seconds": (created - start) + (done - fed)}))
except Exception as error:
    message = re.sub(r"^\[ONNXRuntimeError\] : \d+ : \w+ : ", "", str(error))
    print(json.dumps({"error": f"{type(error).__name__}: {message}".splitlines()[0]}))
    sys.exit(1)
"""


def parse_args(argv):
    extra = []
    if "--" in argv:
        extra = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     epilog="Arguments after -- go to graphgc-fold.")
    parser.add_argument("folder", help="folder searched recursively for .onnx models")
    parser.add_argument("--fold", default=os.path.join(REPO_ROOT, "build", "tools", "graphgc-fold"),
                        help="graphgc-fold binary (default: build/tools/graphgc-fold)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per model (min and median)")
    parser.add_argument("--vs-ort", action="store_true",
                        help="also time ONNX Runtime's session creation + one run, alternating")
    parser.add_argument("--make-constant", action="store_true",
                        help="make non-initializer float inputs arange(n)/n initializers first")
    parser.add_argument("--json", help="also write the rows as JSON to this file")
    parser.add_argument("--fail-on-growth", action="store_true",
                        help="exit 1 if any folded model is larger than its input")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    args.extra = extra
    return args


def find_models(folder):
    """Every .onnx file under folder, sorted by path relative to it."""
    found = []
    for directory, _, files in os.walk(folder):
        found += [os.path.relpath(os.path.join(directory, f), folder)
                  for f in files if f.endswith(".onnx")]
    return sorted(found)


def all_graphs(graph):
    """graph and every If/Loop/Scan body in it, depth first."""
    yield graph
    for node in graph.node:
        for attribute in node.attribute:
            for body in [attribute.g] if attribute.HasField("g") else attribute.graphs:
                yield from all_graphs(body)


def all_tensors(graph):
    """Every TensorProto of the graph and its bodies: initializers and attribute tensors."""
    for g in all_graphs(graph):
        yield from g.initializer
        yield from (s.values for s in g.sparse_initializer)
        for node in g.node:
            for attribute in node.attribute:
                if attribute.HasField("t"):
                    yield attribute.t
                yield from attribute.tensors


def model_figures(path):
    """(node count, bytes of the file plus the external data files it names); a file onnx
    cannot read gives (None, its size)."""
    try:
        model = onnx.load(path, load_external_data=False)
    except Exception:
        return None, os.path.getsize(path)
    locations = {external_data_helper.ExternalDataInfo(t).location
                 for t in all_tensors(model.graph) if external_data_helper.uses_external_data(t)}
    directory = os.path.dirname(path)
    size = os.path.getsize(path)
    size += sum(os.path.getsize(os.path.join(directory, loc)) for loc in locations
                if os.path.exists(os.path.join(directory, loc)))
    return sum(len(g.node) for g in all_graphs(model.graph)), size


def make_constant(source, target):
    """Writes source with its non-initializer floating-point inputs as arange(n)/n initializers."""
    external = any(external_data_helper.uses_external_data(t)
                   for t in all_tensors(onnx.load(source, load_external_data=False).graph))
    model = onnx.load(source)
    graph = model.graph
    initialized = {i.name for i in graph.initializer}
    for graph_input in list(graph.input):
        tensor_type = graph_input.type.tensor_type
        if graph_input.name in initialized or not graph_input.type.HasField("tensor_type"):
            continue
        dtype = helper.tensor_dtype_to_np_dtype(tensor_type.elem_type)
        if not np.issubdtype(dtype, np.floating):
            continue
        shape = [d.dim_value if d.HasField("dim_value") else 1 for d in tensor_type.shape.dim]
        count = int(np.prod(shape))
        values = (np.arange(count, dtype=np.float64) / max(count, 1)).astype(dtype).reshape(shape)
        graph.initializer.append(numpy_helper.from_array(values, graph_input.name))
        graph.input.remove(graph_input)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    onnx.save(model, target, save_as_external_data=external,
              location=os.path.basename(target) + ".data")


def timed_child(command):
    """Runs command; returns (exit code or -signal, wall seconds start to exit, stdout, stderr)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        child = subprocess.Popen(command, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        _, status, _ = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return (child.returncode, seconds,
                out.read().decode(errors="replace"), err.read().decode(errors="replace"))


def run_fold(fold, source, target, extra, work):
    """One graphgc-fold run under GNU time: (exit code or -signal, seconds, peak RSS KiB, stderr)."""
    report = os.path.join(work, "time.txt")
    command = [GNU_TIME, "-f", "%M", "-o", report, fold, source, target, "--quiet", *extra]
    code, seconds, _, stderr = timed_child(command)
    with open(report) as f:
        lines = f.read().split("\n")
    lines = [line for line in lines if line.strip()]
    for line in lines:  # GNU time exits 128 + N for a signal; its report says which
        if line.startswith("Command terminated by signal"):
            code = -int(line.split()[-1])
    rss = int(lines[-1]) if lines and lines[-1].strip().isdigit() else 0
    return code, seconds, rss, stderr


def run_ort(source):
    """One ORT child: (seconds of session creation + run, or None, error message)."""
    code, _, stdout, stderr = timed_child([sys.executable, "-c", ORT_CHILD, source])
    try:
        result = json.loads(stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None, f"ORT child exited {code}: {stderr.strip()[-200:]}"
    return result.get("seconds"), result.get("error")


def fold_error(code, stderr):
    what = f"killed by signal {-code}" if code < 0 else f"exit {code}"
    message = stderr.strip().splitlines()[0] if stderr.strip() else "no message"
    return f"{what}: {message}"


def measure(name, source, work, args):
    """The row of one model: figures before/after and N alternating graphgc (and ORT) runs."""
    target = os.path.join(work, "folded", name)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    row = {"model": name}
    row["nodes_before"], row["bytes_before"] = model_figures(source)
    fold_times, ort_times, rss = [], [], 0
    for _ in range(args.repeat):
        code, seconds, peak, stderr = run_fold(args.fold, source, target, args.extra, work)
        if code != 0:
            row["error"] = fold_error(code, stderr)
            break
        fold_times.append(seconds)
        rss = max(rss, peak)
        if args.vs_ort and "ort_error" not in row:
            seconds, error = run_ort(source)
            if seconds is None:
                row["ort_error"] = error
            else:
                ort_times.append(seconds)
    if "error" not in row:
        row["nodes_after"], row["bytes_after"] = model_figures(target)
        row["grew"] = row["bytes_after"] > row["bytes_before"]
        row.update(fold_min_s=min(fold_times), fold_median_s=statistics.median(fold_times),
                   peak_rss_kib=rss)
    if ort_times:
        row.update(ort_min_s=min(ort_times), ort_median_s=statistics.median(ort_times))
        if "fold_median_s" in row:
            row["ratio_graphgc_over_ort"] = row["fold_median_s"] / row["ort_median_s"]
    return row


def short(message, limit=70):
    return message if len(message) <= limit else message[:limit - 3] + "..."


def table_cells(row, vs_ort):
    """The text cells of one row."""
    def shown(key):
        return "?" if row.get(key) is None else str(row[key])

    cells = [row["model"], f"{shown('nodes_before')} -> {shown('nodes_after')}",
             f"{shown('bytes_before')} -> {shown('bytes_after')}"]
    if "error" in row:
        return cells + ["FAILED " + short(row["error"], 100)]
    cells += [f"{row['fold_min_s']:.3f} / {row['fold_median_s']:.3f}",
              f"{row['peak_rss_kib'] / 1024:.1f}", "GREW" if row["grew"] else "no"]
    if vs_ort:
        if "ort_median_s" in row:
            cells += [f"{row['ort_min_s']:.3f} / {row['ort_median_s']:.3f}",
                      f"{row['ratio_graphgc_over_ort']:.2f}"]
        else:
            cells += ["ORT failed: " + short(row.get("ort_error", "?")), "-"]
    return cells


def print_table(rows, args):
    header = ["model", "nodes", "bytes", f"fold s min/med of {args.repeat}", "RSS MiB", "grew"]
    if args.vs_ort:
        header += [f"ORT s min/med of {args.repeat}", "graphgc/ORT"]
    lines = [header] + [table_cells(row, args.vs_ort) for row in rows]
    # A failed fold's message runs to the end of its line and sets no column's width.
    widths = [max(len(line[i]) for line in lines if i < len(line) - (len(line) < len(header)))
              for i in range(len(header))]
    for number, line in enumerate(lines):
        padded = [cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i])
                  for i, cell in enumerate(line[:len(header)])]
        if len(line) < len(header):
            padded[-1] = line[-1]
        print("  ".join(padded).rstrip())
        if number == 0:
            print("  ".join("-" * w for w in widths))


def summary(rows):
    failed = sum("error" in row for row in rows)
    grew = sum(row.get("grew", False) for row in rows)
    return failed, grew, f"{len(rows)} models, {failed} failed, {grew} grew"


def main(argv):
    args = parse_args(argv)
    if not os.access(GNU_TIME, os.X_OK):
        print(f"needs GNU time at {GNU_TIME} for graphgc-fold's own peak RSS", file=sys.stderr)
        return 1
    folder = os.path.abspath(args.folder)
    names = find_models(folder)
    if not names:
        print(f"no .onnx models under {folder}", file=sys.stderr)
        return 1
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for name in names:
            source = os.path.join(folder, name)
            if args.make_constant:
                constant = os.path.join(work, "constant", name)
                try:
                    make_constant(source, constant)
                except Exception as error:
                    rows.append({"model": name, "error": f"--make-constant: {error}"})
                    continue
                source = constant
            rows.append(measure(name, source, work, args))
    print_table(rows, args)
    failed, grew, line = summary(rows)
    print(line)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"folder": folder, "fold": os.path.abspath(args.fold),
                       "fold_args": args.extra, "repeat": args.repeat,
                       "make_constant": args.make_constant, "rows": rows}, f, indent=1)
    return 1 if failed or (args.fail_on_growth and grew) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
