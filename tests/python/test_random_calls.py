"""Random calls of every generated op function, with operands and attributes of every kind, right
and wrong: each returns or raises graphgc.Error (or Python's TypeError for a call that does not
fit the signature: a variadic input given something that is not a list); none crashes the interpreter, which runs in a child process so that a crash
fails the test instead of ending the run."""

import subprocess
import sys
import textwrap

CALLS = textwrap.dedent(
    """
    import inspect, random, sys
    import numpy as np
    import graphgc
    from graphgc import ml, opset13, opset17

    rng = random.Random(int(sys.argv[1]))
    g = graphgc.Graph(max_value_bytes=1 << 20, max_loop_trips=100)
    vars = [
        g.constant(np.float32([[1.5, -2.0], [0.0, 3.0]])), g.constant(np.int64([2, 1])),
        g.constant(np.array(True)), g.constant(np.int64(1)), g.constant(np.array(["a", "b"])),
        g.argument("x", np.float32, ("n", 3)), g.argument("b", np.bool_, ()),
        g.constant(np.zeros((0, 4), np.float16)), g.constant(np.uint8([7])),
    ]
    values = [None, 0, 1, -1, 3, 2**70, 1.5, float("nan"), "", "relu", b"x", [1, 2], [0.5],
              ["a"], [], np.float32([1, 2]), np.int64(2), np.float32, graphgc.VarType.tensor(
              np.float32), (lambda *args: list(args)), (lambda *args: [vars[0]]), object()]

    def operand():
        return rng.choice(vars + [None, None, 3, "x"])

    last_kwargs = []

    def call(function):
        args, kwargs = [], {}
        for p in inspect.signature(function).parameters.values():
            if p.name == "graph":
                args.append(g if rng.random() < 0.9 else None)
            elif p.kind is p.KEYWORD_ONLY:
                if p.default is p.empty or rng.random() < 0.3:
                    kwargs[p.name] = rng.choice(values + [rng.randint(1, 3)])
            elif p.annotation and "Sequence" in str(p.annotation) or p.name in (
                    "inputs", "data_0", "v_initial", "Inputs", "initial_state_and_scan_inputs"):
                args.append([operand() for _ in range(rng.randint(0, 3))])
            elif p.default is p.empty or rng.random() < 0.5:
                args.append(operand())
        last_kwargs[:] = kwargs.values()
        return function(*args, **kwargs)

    functions = []
    for module in (opset13, opset17, ml):
        functions += [getattr(module, name) for name in module.__all__]
    outcomes = {"ok": 0, "Error": 0, "TypeError": 0}
    for _ in range(int(sys.argv[2])):
        function = rng.choice(functions)
        try:
            result = call(function)
            outcomes["ok"] += 1
            for var in (result if isinstance(result, (list, tuple)) else [result]):
                var.dtype, var.shape, var.type, var.value, var.value_status, repr(var)
        except graphgc.Error:
            outcomes["Error"] += 1
        except TypeError as error:
            # Only a call that does not fit the Python signature (a variadic input given
            # something that is not a list), or a body callable's own error (numpy.float32
            # called with a Loop's arguments). Everything graphgc checks is graphgc.Error.
            if not (str(error).startswith("Value after * must be an iterable")
                    or any(callable(v) for v in last_kwargs)):
                raise
            outcomes["TypeError"] += 1
        if rng.random() < 0.01:
            g.collect()
    model = graphgc.to_onnx(g, {"x": vars[5]}, check=True)
    print(outcomes)
    """
)


def test_random_calls_raise_but_never_crash():
    for seed in (1, 2, 3):
        done = subprocess.run([sys.executable, "-c", CALLS, str(seed), "20000"],
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, f"seed {seed}: exit {done.returncode}\\n{done.stderr[-3000:]}"
        print(f"seed {seed}: {done.stdout.strip()}")
