"""`fl.saved_model`: TensorFlow's save/load names on Feedline's own export layout.

Pages: https://www.tensorflow.org/api_docs/python/tf/saved_model/save (signatures: one
function is `serving_default`, a dict names several),
https://www.tensorflow.org/api_docs/python/tf/saved_model/load (the loaded object's methods,
variables and `signatures`), https://www.tensorflow.org/guide/saved_model (signatures take
keyword arguments and return a dict, `output_0` for an unnamed output),
https://www.tensorflow.org/api_docs/python/tf/saved_model/contains_saved_model.
"""

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import feedline as fl
from feedline.saved_model import layout


class Scale(fl.Module):
    """The basics guide's MyModule: a variable and an fl.function method."""

    def __init__(self, value):
        super().__init__()
        self.weight = fl.Variable(value)

    @fl.function
    def multiply(self, x):
        return x * self.weight

    @fl.function(input_signature=[fl.TensorSpec([None], fl.float32)])
    def __call__(self, x):
        return x * self.weight


def test_a_module_round_trips_with_its_methods_and_call(tmp_path):
    scale = Scale(3.0)
    fl.saved_model.save(scale, tmp_path / "scale")
    loaded = fl.saved_model.load(tmp_path / "scale")
    assert loaded.multiply(fl.constant([1.0, 2.0])).tolist() == [3.0, 6.0]
    assert loaded([2.0]).tolist() == [6.0]
    assert [float(variable) for variable in loaded.variables] == [3.0]


def test_variables_come_back_as_saved_after_a_change_in_memory(tmp_path):
    scale = Scale(3.0)
    fl.saved_model.save(scale, tmp_path)
    scale.weight.assign(7.0)
    assert float(fl.saved_model.load(tmp_path).weight) == 3.0


def test_variables_are_read_from_the_npz_file(tmp_path):
    """The layout promises that variables.npz holds the values load restores."""
    fl.saved_model.save(Scale(3.0), tmp_path)
    path = tmp_path / layout.VARIABLES
    np.savez(path, variable_0=np.float32(9.0))
    assert float(fl.saved_model.load(tmp_path).weight) == 9.0


def test_the_manifest_says_this_is_not_tensorflows_format(tmp_path):
    fl.saved_model.save(Scale(3.0), tmp_path)
    manifest = json.loads((tmp_path / layout.MANIFEST).read_text())
    assert manifest["format"] == "feedline-saved-model" and manifest["version"] == 1
    assert "not TensorFlow's SavedModel" in manifest["note"]
    assert manifest["class"] == {"module": Scale.__module__, "qualname": "Scale"}
    assert sorted(os.listdir(tmp_path)) == sorted(
        [layout.MANIFEST, layout.OBJECT, layout.VARIABLES_DIR])


def test_one_signature_is_saved_as_serving_default_taking_keywords_returning_a_dict(tmp_path):
    scale = Scale(2.0)
    fl.saved_model.save(scale, tmp_path, signatures=scale.__call__)
    serving = fl.saved_model.load(tmp_path).signatures["serving_default"]
    result = serving(x=fl.constant([1.0, 4.0]))
    assert list(result) == ["output_0"] and result["output_0"].tolist() == [2.0, 8.0]
    assert serving.structured_input_signature == (
        (), {"x": fl.TensorSpec([None], fl.float32, name="x")})
    with pytest.raises(TypeError, match="keyword arguments only"):
        serving(fl.constant([1.0]))


def test_a_dict_of_concrete_functions_keeps_its_names(tmp_path):
    scale = Scale(2)  # an int32 weight: int32 inputs multiply by it (TensorFlow never promotes)
    grow = scale.multiply.get_concrete_function(fl.TensorSpec([None], fl.int32))
    fl.saved_model.save(scale, tmp_path, signatures={"grow": grow})
    loaded = fl.saved_model.load(tmp_path)
    assert list(loaded.signatures) == ["grow"]
    with pytest.raises(TypeError, match="Binding inputs to tf.function failed"):
        loaded.signatures["grow"](x=fl.constant([1.0]))  # int32 was traced, not float32


def test_a_signature_needs_an_input_signature_or_a_concrete_function(tmp_path):
    scale = Scale(2.0)
    with pytest.raises(ValueError, match="without an input_signature"):
        fl.saved_model.save(scale, tmp_path / "export", signatures=scale.multiply)
    assert not os.path.exists(tmp_path / "export") and os.listdir(tmp_path) == []


def test_without_signatures_the_only_method_with_an_input_signature_serves(tmp_path):
    """tf.saved_model.save's Adder example: saved without `signatures`, it is "servable with
    an input named x"."""
    fl.saved_model.save(Scale(2.0), tmp_path)
    serving = fl.saved_model.load(tmp_path).signatures["serving_default"]
    assert serving(x=[1.0])["output_0"].tolist() == [2.0]


def test_without_signatures_or_such_a_method_the_loaded_object_has_an_empty_dict(tmp_path):
    module = fl.Module()
    module.v = fl.Variable(1.0)
    fl.saved_model.save(module, tmp_path)
    assert fl.saved_model.load(tmp_path).signatures == {}


def test_a_spec_name_names_the_signature_input(tmp_path):
    """tf.saved_model.save: inputs are named after the function's arguments unless the
    TensorSpec gives a name=."""
    module = fl.Module()
    module.v = fl.Variable(1.0)
    fl.saved_model.save(module, tmp_path, signatures=double_values)
    serving = fl.saved_model.load(tmp_path).signatures["serving_default"]
    assert serving(values=[1.0, 2.0])["output_0"].tolist() == [2.0, 4.0]
    assert list(serving.structured_input_signature[1]) == ["values"]


@fl.function(input_signature=[fl.TensorSpec([None], fl.float32, name="values")])
def double_values(x):
    return x * 2


def test_a_keras_model_round_trips_with_its_predictions(tmp_path):
    """The basics and ragged guides save a Keras model with tf.saved_model.save and call the
    loaded one."""
    model = fl.keras.Sequential([fl.keras.layers.Dense(2, input_shape=(3,))])
    batch = np.arange(6, dtype="float32").reshape(2, 3)
    expected = model(batch).numpy()
    fl.saved_model.save(model, tmp_path)
    np.testing.assert_array_equal(fl.saved_model.load(tmp_path)(batch).numpy(), expected)


def test_a_keras_model_without_weights_yet_is_refused(tmp_path):
    model = fl.keras.Sequential([fl.keras.layers.Dense(2)])
    with pytest.raises(ValueError, match="call it once on a batch"):
        fl.saved_model.save(model, tmp_path / "model")


def test_an_unpicklable_attribute_gets_an_explanation(tmp_path):
    scale = Scale(1.0)
    scale.shift = fl.function(lambda x: x + 1)
    with pytest.raises(ValueError, match="saves objects by reference.*no lambdas"):
        fl.saved_model.save(scale, tmp_path / "export")


def test_saving_again_replaces_the_export_and_keeps_other_files(tmp_path):
    fl.saved_model.save(Scale(1.0), tmp_path / "export")
    (tmp_path / "export" / "README.txt").write_text("mine")
    fl.saved_model.save(Scale(5.0), tmp_path / "export")
    assert float(fl.saved_model.load(tmp_path / "export").weight) == 5.0
    assert (tmp_path / "export" / "README.txt").read_text() == "mine"
    assert os.listdir(tmp_path) == ["export"]  # no staging directory left beside it


def test_a_tensorflow_savedmodel_directory_is_refused_with_the_reason(tmp_path):
    (tmp_path / "saved_model.pb").write_bytes(b"\x08\x01")
    (tmp_path / "variables").mkdir()
    assert fl.saved_model.contains_saved_model(tmp_path)
    with pytest.raises(OSError, match="cannot read TensorFlow's graph format"):
        fl.saved_model.load(tmp_path)


def test_a_directory_without_an_export_is_refused(tmp_path):
    assert not fl.saved_model.contains_saved_model(tmp_path)
    with pytest.raises(OSError, match="no Feedline export"):
        fl.saved_model.load(tmp_path)


def test_options_are_accepted_and_checked(tmp_path):
    fl.saved_model.save(Scale(1.0), tmp_path, options=fl.saved_model.SaveOptions(
        save_debug_info=True))
    loaded = fl.saved_model.load(tmp_path, tags=["serve"],
                                 options=fl.saved_model.LoadOptions())
    assert float(loaded.weight) == 1.0
    with pytest.raises(TypeError, match="options must be a fl.saved_model.SaveOptions"):
        fl.saved_model.save(Scale(1.0), tmp_path, options={"save_debug_info": True})


SAVE_FROM_MAIN = """
import sys
import feedline as fl

class Notebook(fl.Module):
    def __init__(self):
        super().__init__()
        self.v = fl.Variable(2.0)

    @fl.function
    def grow(self, x):
        return x * self.v

fl.saved_model.save(Notebook(), sys.argv[1])
"""


def test_loading_a_class_from_another_processs_main_names_it_and_says_what_to_do(tmp_path):
    """A class defined in a notebook lives in its __main__; a fresh process has none."""
    export = str(tmp_path / "export")
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    subprocess.run([sys.executable, "-c", textwrap.dedent(SAVE_FROM_MAIN), export],
                   check=True, env=environment, timeout=120)
    loading = subprocess.run(
        [sys.executable, "-c", f"import feedline as fl; fl.saved_model.load({export!r})"],
        capture_output=True, text=True, env=environment, timeout=120)
    assert loading.returncode != 0
    message = loading.stderr.splitlines()[-1]
    assert message.startswith("ImportError: load: the saved object is a Notebook")
    assert "Define or import Notebook first" in message and "by reference" in message
