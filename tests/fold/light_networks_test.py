"""ONNX's nine "light" networks (AlexNet, DenseNet-121, Inception v1/v2, ResNet-50, ShuffleNet,
SqueezeNet, VGG-19, ZFNet-512, shipped in the onnx wheel's backend test data with each network's
expected output, their weights made at run time by ConstantOfShape), folded by graphgc-fold twice:

- their input made constant as ONNX's runner feeds it (arange(n) / n): each folds to its output,
  which must match output_0.pb at ONNX's tolerance (rtol 1e-3, atol 1e-7). SqueezeNet is the case
  that once failed: its last Conv has 1000 channels with identical weights, a BLAS gave the last
  four other logits, and a Softmax over logits near 1e10 turned that into an answer off by 0.249;
- their input kept (the realistic case): the folded model must be no larger than the input (the
  never-grow promise: ConstantOfShape weights stay nodes rather than become megabytes), pass
  ONNX's checker, give the original's output in ONNX Runtime, and fold at a peak RSS under
  128 MiB (graphgc-fold plans before it computes: a weight no written value needs is never made).

Usage: light_networks_test.py GRAPHGC_FOLD [--no-memory-checks]
(--no-memory-checks for sanitizer builds, whose shadow memory makes RSS meaningless)
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import numpy_helper


def constant_input_model(path):
    model = onnx.load(path)
    graph = model.graph
    initialized = {i.name for i in graph.initializer}
    (data,) = [i for i in graph.input if i.name not in initialized]
    shape = [d.dim_value for d in data.type.tensor_type.shape.dim]
    count = int(np.prod(shape))
    values = (np.arange(count, dtype=np.float32) / count).reshape(shape)
    graph.initializer.append(numpy_helper.from_array(values, data.name))
    graph.input.remove(data)
    return model


def folded_output(model):
    """The value of the folded model's first output: an initializer or a Constant node."""
    name = model.graph.output[0].name
    for initializer in model.graph.initializer:
        if initializer.name == name:
            return numpy_helper.to_array(initializer)
    for node in model.graph.node:
        if node.op_type == "Constant" and node.output[0] == name:
            return numpy_helper.to_array(node.attribute[0].t)
    return None


def run_fold(fold, source, target):
    """graphgc-fold's exit status, stderr and peak RSS in MiB (GNU time's, of that process alone)."""
    run = subprocess.run(["/usr/bin/time", "-f", "peak-rss-kib %M", fold, source, target,
                          "--quiet"], capture_output=True, text=True)
    lines = run.stderr.strip().splitlines()
    rss = int(lines[-1].split()[-1]) / 1024 if lines and lines[-1].startswith("peak-rss-kib") else -1
    return run.returncode, "\n".join(lines[:-1]), rss


MAX_RSS_MIB = 128


def check_input_kept(fold, light, name, work, memory_checks):
    import onnxruntime

    source = os.path.join(light, name + ".onnx")
    target = os.path.join(work, name + "_kept.onnx")
    status, stderr, rss = run_fold(fold, source, target)
    if status != 0:
        print(f"FAIL {name} (input kept): graphgc-fold exited {status}: {stderr.strip()}")
        return False
    before, after = os.path.getsize(source), os.path.getsize(target)
    if after > before:
        print(f"FAIL {name} (input kept): grew from {before} to {after} bytes")
        return False
    if memory_checks and not 0 < rss < MAX_RSS_MIB:
        print(f"FAIL {name} (input kept): peak RSS {rss:.0f} MiB, over {MAX_RSS_MIB} MiB")
        return False
    onnx.checker.check_model(target)
    options = onnxruntime.SessionOptions()
    options.log_severity_level = 3  # no warnings about these models' initializers-as-inputs
    options.intra_op_num_threads = 1
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL
    original = onnxruntime.InferenceSession(source, options, providers=["CPUExecutionProvider"])
    folded = onnxruntime.InferenceSession(target, options, providers=["CPUExecutionProvider"])
    feed = {}
    for graph_input in original.get_inputs():
        shape = graph_input.shape
        count = int(np.prod(shape))
        feed[graph_input.name] = (np.arange(count, dtype=np.float32) / count).reshape(shape)
    want = original.run(None, feed)[0]
    got = folded.run(None, feed)[0]
    if not np.allclose(got, want, rtol=1e-3, atol=1e-6):
        print(f"FAIL {name} (input kept): ONNX Runtime gives max |diff| "
              f"{np.max(np.abs(got - want)):.3g} against the original")
        return False
    print(f"PASS {name} (input kept): {before} -> {after} bytes, peak RSS {rss:.0f} MiB")
    return True


def main():
    fold = sys.argv[1]
    memory_checks = "--no-memory-checks" not in sys.argv[2:]
    light = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "light")
    names = sorted(f[: -len(".onnx")] for f in os.listdir(light) if f.endswith(".onnx"))
    if len(names) != 9:
        print(f"expected ONNX's nine light networks in {light}, found {names}")
        return 1
    failed = 0
    with tempfile.TemporaryDirectory() as work:
        for name in names:
            failed += not check_input_kept(fold, light, name, work, memory_checks)
            source = os.path.join(work, name + ".onnx")
            target = os.path.join(work, name + "_folded.onnx")
            onnx.save(constant_input_model(os.path.join(light, name + ".onnx")), source)
            run = subprocess.run([fold, source, target], capture_output=True, text=True)
            if run.returncode != 0:
                print(f"FAIL {name}: graphgc-fold exited {run.returncode}: {run.stderr.strip()}")
                failed += 1
                continue
            folded = onnx.load(target)
            onnx.checker.check_model(folded)
            got = folded_output(folded)
            expected = numpy_helper.to_array(
                onnx.load_tensor(os.path.join(light, name + "_output_0.pb")))
            if got is None:
                print(f"FAIL {name}: not folded to its output ({len(folded.graph.node)} nodes)")
                failed += 1
            elif not np.allclose(got.reshape(expected.shape), expected, rtol=1e-3, atol=1e-7):
                diff = np.max(np.abs(got.reshape(expected.shape) - expected))
                print(f"FAIL {name}: max |folded - expected| = {diff:.3g}")
                failed += 1
            else:
                print(f"PASS {name}")
    print(f"{2 * len(names) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
