# ref_batch.py: runs the differential test's cases (tests/difftest) with ONNX's Python reference
# evaluator (onnx.reference.ReferenceEvaluator, in the test venv): the second oracle, asked where
# ONNX Runtime has no kernel for a graph or where graphgc and ONNX Runtime disagree.
#
# Usage: python ref_batch.py CASES.txt
#   CASES.txt lists one case directory per line, each as ort_batch.js reads it (model.onnx and
#   feeds.txt: "NAME TYPE DIMS FILE" lines, raw little-endian data, bools one byte each, float16
#   as bits). Writes into each case directory ref_status.txt ("ok", or "error MESSAGE") and, for
#   each output NAME, ref_NAME.txt ("TYPE DIMS") and ref_NAME.bin, in ort_batch.js's formats.
import os
import sys

import numpy as np
import onnx
from onnx.reference import ReferenceEvaluator

TYPES = {
    "float": np.float32, "double": np.float64, "float16": np.float16, "int8": np.int8,
    "int16": np.int16, "int32": np.int32, "int64": np.int64, "uint8": np.uint8,
    "uint16": np.uint16, "uint32": np.uint32, "uint64": np.uint64, "bool": np.bool_,
}
NAMES = {np.dtype(t): name for name, t in TYPES.items()}


def read_feeds(case):
    feeds = {}
    with open(os.path.join(case, "feeds.txt")) as lines:
        for line in lines:
            if not line.strip():
                continue
            name, type_name, dims, file = line.split()
            shape = () if dims == "-" else tuple(int(d) for d in dims.split(","))
            data = np.fromfile(os.path.join(case, file), dtype=TYPES[type_name])
            feeds[name] = data.reshape(shape)
    return feeds


def write_output(case, name, value):
    value = np.asarray(value)
    type_name = NAMES.get(value.dtype)
    if type_name is None:
        raise TypeError(f"output {name} has the type {value.dtype}, which the test cannot compare")
    dims = "-" if value.ndim == 0 else ",".join(str(d) for d in value.shape)
    with open(os.path.join(case, f"ref_{name}.txt"), "w") as header:
        header.write(f"{type_name} {dims}\n")
    np.ascontiguousarray(value).tofile(os.path.join(case, f"ref_{name}.bin"))


def run_case(case):
    model = onnx.load(os.path.join(case, "model.onnx"))
    session = ReferenceEvaluator(model)
    names = [output.name for output in model.graph.output]
    with np.errstate(all="ignore"):
        results = session.run(None, read_feeds(case))
    for name, value in zip(names, results):
        write_output(case, name, value)


def main(cases_file):
    with open(cases_file) as lines:
        cases = [line.strip() for line in lines if line.strip()]
    for case in cases:
        try:
            run_case(case)
            status = "ok"
        except Exception as error:  # the reference's own limits: reported per case, not fatal
            message = str(error).split("\n")[0]
            status = f"error {type(error).__name__}: {message}"
        with open(os.path.join(case, "ref_status.txt"), "w") as out:
            out.write(status + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
