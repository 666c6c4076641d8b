"""Models as spox's users bring them: files with external data from Python, numpy tensors as
attributes, models stamped with a newer IR version than graphgc's ONNX knows, and an If whose
condition is known folding to its branch, as the README promises."""

import os
import warnings

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

import graphgc
from graphgc import op


def if_model(condition, ir_version=8):
    """y = If(condition, then: Relu(x), else: Neg(x)), the condition a Constant."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])

    def branch(op_type, name):
        out = helper.make_tensor_value_info(name, TensorProto.FLOAT, [2])
        return helper.make_graph([helper.make_node(op_type, ["x"], [name])], op_type, [], [out])

    nodes = [
        helper.make_node("Constant", [], ["c"],
                         value=helper.make_tensor("c", TensorProto.BOOL, [], [condition])),
        helper.make_node("If", ["c"], ["y"], then_branch=branch("Relu", "t"),
                         else_branch=branch("Neg", "e")),
    ]
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])
    model = helper.make_model(helper.make_graph(nodes, "if", [x], [y]),
                              opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = ir_version
    return model


@pytest.mark.parametrize("condition, branch", [(True, "Relu"), (False, "Neg")])
def test_an_if_with_a_known_condition_folds_to_its_branch(condition, branch):
    folded = graphgc.fold(if_model(condition)).model
    assert [node.op_type for node in folded.graph.node] == [branch]
    onnx.checker.check_model(folded, full_check=True)
    g = graphgc.Graph()
    x = g.constant(np.array([-1.0, 2.0], np.float32))
    y = graphgc.inline_model(g, if_model(condition), {"x": x})["y"]
    assert y.value.tolist() == ([0.0, 2.0] if condition else [1.0, -2.0])


def test_a_model_stamped_with_a_newer_ir_version_is_read_with_a_warning():
    model = if_model(True, ir_version=onnx.IR_VERSION + 2)
    with pytest.warns(UserWarning, match=r"IR version \d+, newer than the 12"):
        folded = graphgc.fold(model).model
    assert folded.ir_version <= 12
    onnx.checker.check_model(folded, full_check=True)
    g = graphgc.Graph()
    with pytest.warns(UserWarning, match="read as IR 12"):
        outputs = graphgc.inline_model(g, model, {"x": g.constant(np.ones(2, np.float32))})
    assert outputs["y"].value.tolist() == [1.0, 1.0]
    imported = graphgc.import_model(graphgc.Graph(), model)
    assert any("newer than the 12" in warning for warning in imported.warnings)


def test_a_model_of_the_known_ir_version_gives_no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        graphgc.fold(if_model(True, ir_version=8))


def test_numpy_arrays_are_tensor_attributes():
    g = graphgc.Graph()
    constant = graphgc.make_node("Constant", [], {"value": np.ones(3, np.float32)}, graph=g)[0]
    assert constant.value.tolist() == [1.0, 1.0, 1.0]
    scalar = graphgc.make_node("Constant", [], {"value": np.array(7, np.int64)}, graph=g)[0]
    assert scalar.value.shape == () and scalar.value == 7
    shape = g.constant(np.array([3], np.int64))
    filled = graphgc.make_node("ConstantOfShape", [shape], {"value": np.array([2], np.int64)})[0]
    assert filled.value.tolist() == [2, 2, 2]
    assert op.constant_of_shape(shape, value=np.array([2], np.int64)).value.tolist() == [2, 2, 2]


def test_to_onnx_bytes_is_to_onnx_serialized(graph):
    x = graph.argument("x", np.float32, [2])
    y = op.relu(op.add(x, graph.constant(np.ones(2, np.float32))))
    assert graphgc.to_onnx_bytes(graph, {"y": y}) == graphgc.to_onnx(
        graph, {"y": y}).SerializeToString()


def test_save_and_load_a_model_with_external_data(tmp_path, graph):
    weights = np.arange(4096, dtype=np.float32)
    x = graph.argument("x", np.float32, [4096])
    y = op.mul(x, graph.constant(weights))
    model = graphgc.to_onnx(graph, {"y": y}, constants_as_initializers=True)
    path = tmp_path / "model.onnx"
    graphgc.save_model(model, path, external_data_file="weights.bin")
    assert (tmp_path / "weights.bin").stat().st_size >= weights.nbytes
    assert path.stat().st_size < weights.nbytes
    loaded = graphgc.load_model(path)
    assert loaded.graph.initializer[0].data_location == TensorProto.DEFAULT
    np.testing.assert_array_equal(onnx.numpy_helper.to_array(loaded.graph.initializer[0]),
                                  weights)
    outside = graphgc.load_model(os.fspath(path), load_external_data=False)
    assert outside.graph.initializer[0].data_location == TensorProto.EXTERNAL
    g = graphgc.Graph()
    folded = graphgc.inline_model(g, path, {"x": g.constant(np.ones(4096, np.float32))})
    np.testing.assert_array_equal(folded["y"].value, weights)


def test_external_data_never_resolves_outside_the_model_folder(tmp_path):
    secret = tmp_path / "secret.bin"
    secret.write_bytes(np.ones(16, np.float32).tobytes())
    folder = tmp_path / "model"
    folder.mkdir()
    tensor = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[16])
    tensor.data_location = TensorProto.EXTERNAL
    entry = tensor.external_data.add()
    entry.key, entry.value = "location", "../secret.bin"
    y = helper.make_tensor_value_info("w", TensorProto.FLOAT, [16])
    model = helper.make_model(helper.make_graph([], "g", [], [y], initializer=[tensor]),
                              opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    (folder / "model.onnx").write_bytes(model.SerializeToString())
    with pytest.raises(graphgc.Error, match=r"\.\."):
        graphgc.load_model(folder / "model.onnx")


def test_save_model_refuses_a_path_as_the_model(tmp_path):
    with pytest.raises(graphgc.Error, match="not a path"):
        graphgc.save_model(str(tmp_path / "a.onnx"), tmp_path / "b.onnx")


def test_to_onnx_writes_the_inputs_it_is_given_in_their_order(graph):
    a = graph.argument("a", np.float32, [2])
    b = graph.argument("b", np.float32, [2])
    unused = graph.argument("unused", np.int64, [3])
    y = op.add(a, b)
    model = graphgc.to_onnx(graph, {"y": y}, inputs=[b, unused, a], check=True)
    assert [value.name for value in model.graph.input] == ["b", "unused", "a"]
    assert graphgc.to_onnx_bytes(graph, {"y": y}, inputs=[b, unused, a]) == \
        model.SerializeToString()
    assert [value.name for value in graphgc.to_onnx(graph, {"y": y}).graph.input] == ["a", "b"]
    with pytest.raises(graphgc.Error, match="need argument 'a'"):
        graphgc.to_onnx(graph, {"y": y}, inputs=[b])
    with pytest.raises(graphgc.Error, match="listed twice"):
        graphgc.to_onnx(graph, {"y": y}, inputs=[a, b, a])
    with pytest.raises(graphgc.Error, match=r"inputs\[0\] is not an argument"):
        graphgc.to_onnx(graph, {"y": y}, inputs=[y, a, b])


def _symbolic_batch_reshape_model():
    """x.view(x.size(0), -1) as PyTorch exports it, on an input of symbolic batch."""
    ints = lambda name, values: onnx.numpy_helper.from_array(np.array(values, np.int64), name)
    nodes = [
        helper.make_node("Shape", ["x"], ["shape"]),
        helper.make_node("Gather", ["shape", "zero"], ["batch"], axis=0),
        helper.make_node("Unsqueeze", ["batch", "axes"], ["batch_1d"]),
        helper.make_node("Concat", ["batch_1d", "minus_one"], ["target"], axis=0),
        helper.make_node("Reshape", ["x", "target"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes, "flatten",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 8, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 32])],
        [ints("zero", 0), ints("axes", [0]), ints("minus_one", [-1])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def test_a_reshape_around_a_symbolic_batch_dim_folds_to_one_reshape():
    import onnxruntime

    model = _symbolic_batch_reshape_model()
    folded, _ = graphgc.fold(model)
    assert [n.op_type for n in folded.graph.node] == ["Reshape"]
    target = {i.name: onnx.numpy_helper.to_array(i) for i in folded.graph.initializer}[
        folded.graph.node[0].input[1]]
    assert target.tolist() == [0, -1]
    for batch in (1, 3):
        x = np.random.default_rng(batch).standard_normal((batch, 8, 4)).astype(np.float32)
        run = lambda m: onnxruntime.InferenceSession(m.SerializeToString()).run(None, {"x": x})[0]
        np.testing.assert_array_equal(run(folded), run(model))


def _sparse_vector():
    values = helper.make_tensor("v", TensorProto.FLOAT, [2], [5.0, 7.0])
    indices = helper.make_tensor("i", TensorProto.INT64, [2], [1, 3])
    return helper.make_sparse_tensor(values, indices, [4])


def test_sparse_tensors_are_the_dense_tensors_they_stand_for():
    sparse = _sparse_vector()
    with graphgc.Graph() as g:
        c = op.constant(sparse_value=sparse)
        d = graphgc.make_node("Constant", [], {"sparse_value": sparse}, graph=g)[0]
    np.testing.assert_array_equal(c.value, [0, 5, 0, 7])
    np.testing.assert_array_equal(d.value, [0, 5, 0, 7])
    assert "sparse_value" in op.constant.__doc__
    # In a model: a Constant's sparse_value and a sparse initializer, as ONNX Runtime reads them.
    coordinates = helper.make_sparse_tensor(
        helper.make_tensor("w", TensorProto.FLOAT, [2], [2.0, 3.0]),
        helper.make_tensor("wi", TensorProto.INT64, [2, 2], [0, 1, 1, 0]), [2, 2])
    nodes = [helper.make_node("Constant", [], ["c"], sparse_value=sparse),
             helper.make_node("Relu", ["c"], ["y"]), helper.make_node("Add", ["x", "w"], ["z"])]
    model = helper.make_model(helper.make_graph(
        nodes, "sparse", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4]),
         helper.make_tensor_value_info("z", TensorProto.FLOAT, [2, 2])],
        sparse_initializer=[coordinates]), opset_imports=[helper.make_opsetid("", 17)],
        ir_version=8)
    folded, _ = graphgc.fold(model)
    assert len(folded.graph.sparse_initializer) == 0
    import onnxruntime

    x = np.ones((2, 2), np.float32)
    run = lambda m: onnxruntime.InferenceSession(m.SerializeToString()).run(None, {"x": x})
    for ours, theirs in zip(run(folded), run(model)):
        np.testing.assert_array_equal(ours, theirs)


def test_attributes_graphgc_cannot_hold_are_errors_that_say_so():
    with graphgc.Graph() as g:
        with pytest.raises(graphgc.Error, match="takes an onnx.SparseTensorProto"):
            op.constant(sparse_value=np.ones(3))
        with pytest.raises(graphgc.Error, match="attribute 'value' takes a tensor"):
            graphgc.make_node("Constant", [], {"value": [np.ones(3), np.ones(2)]}, graph=g)
        with pytest.raises(graphgc.Error, match="lists of tensors"):
            graphgc.make_node("Custom", [], {"t": [np.ones(3), np.ones(2)]}, graph=g,
                              domain="my.domain")
        bad = _sparse_vector()
        bad.indices.int64_data[1] = 9
        with pytest.raises(graphgc.Error, match="outside"):
            op.constant(sparse_value=bad)


def test_attribute_values_take_the_kind_the_schema_declares():
    import ml_dtypes

    with graphgc.Graph() as g:
        for scalar, dtype in ((np.float32(2), np.float32), (np.int64(3), np.int64),
                              (np.bool_(True), np.bool_), (ml_dtypes.bfloat16(1.5), ml_dtypes.bfloat16)):
            (c,) = graphgc.make_node("Constant", [], {"value": scalar}, graph=g)
            assert c.dtype == dtype and c.shape == () and c.value == scalar
        x = op.const(np.array([-2.0, 3.0], np.float32))
        # An int where the schema takes a FLOAT, a numpy int where it takes an INT.
        (leaky,) = graphgc.make_node("LeakyRelu", [x], {"alpha": 1})
        np.testing.assert_array_equal(leaky.value, [-2.0, 3.0])
        (total,) = graphgc.make_node("ReduceSum", [x], {"keepdims": np.int64(0)}, version=11)
        assert total.shape == () and total.value == 1.0
        # A custom op has no schema: the value's own kind.
        with pytest.raises(graphgc.Error, match="cannot tell the ONNX type"):
            graphgc.make_node("Custom", [x], {"a": object()}, domain="my.domain")
