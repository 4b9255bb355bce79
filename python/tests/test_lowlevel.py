"""The LIBLINEAR-style functions against cdtrain and scikit-learn's reader."""

import os
import re
import subprocess

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_svmlight_file as sklearn_load

import cdlinear
from conftest import BIN, data_file


@pytest.mark.parametrize("name", ["heart_scale", "dna.scale", "svmguide1", "w8a",
                                  "svmlight_example1.test"])
def test_load_svmlight_file_matches_scikit_learn(name):
    X, y = cdlinear.load_svmlight_file(data_file(name))
    expected_X, expected_y = sklearn_load(data_file(name))
    assert sp.isspmatrix_csr(X) and X.dtype == np.float64
    assert X.shape == expected_X.shape
    np.testing.assert_array_equal(y, expected_y)
    np.testing.assert_array_equal(X.indptr, expected_X.indptr)
    np.testing.assert_array_equal(X.indices, expected_X.indices)
    np.testing.assert_array_equal(X.data, expected_X.data)


def test_load_svmlight_file_uses_the_readers_arrays():
    X, y = cdlinear.load_svmlight_file(data_file("dna.scale"), n_jobs=2)
    # The values and indices are views of the reader's memory, kept alive by
    # their base, not copies owned by numpy (scipy converts the int64 indptr
    # to the indices' int32, one offset a row).
    for array in (X.data, X.indices):
        assert not array.flags.owndata and array.base is not None
    expected_X, expected_y = sklearn_load(data_file("dna.scale"))
    del expected_y
    X_again, _ = cdlinear.load_svmlight_file(data_file("dna.scale"))
    np.testing.assert_array_equal(X.toarray(), expected_X.toarray())
    np.testing.assert_array_equal(X.toarray(), X_again.toarray())


@pytest.mark.parametrize("n_jobs", [None, 1, 2, -1])
def test_load_svmlight_file_threads_do_not_change_the_matrix(n_jobs):
    X, y = cdlinear.load_svmlight_file(data_file("w8a"), n_jobs=n_jobs)
    expected_X, expected_y = sklearn_load(data_file("w8a"))
    np.testing.assert_array_equal(y, expected_y)
    assert (X != expected_X).nnz == 0


def test_load_svmlight_file_refuses_bad_n_jobs():
    with pytest.raises(ValueError, match="n_jobs"):
        cdlinear.load_svmlight_file(data_file("heart_scale"), n_jobs=0)


def test_load_svmlight_file_names_the_bad_line(tmp_path):
    bad = tmp_path / "bad.svm"
    bad.write_text("+1 1:0.5 2:1\n-1 3:0.25 2:1\n")
    with pytest.raises(ValueError, match=r"bad\.svm:2:"):
        cdlinear.load_svmlight_file(str(bad))


@pytest.mark.parametrize("options,name", [("-s 2 -c 4", "heart_scale"),
                                          ("-s 0 -B 1", "heart_scale"),
                                          ("-s 1 -w1 2", "dna.scale"),
                                          ("-s 5 -c 0.5", "svmguide1"),
                                          ("-s 11 -p 0.2", "heart_scale")])
def test_train_gives_cdtrain_model(options, name, cdtrain):
    X, y = cdlinear.load_svmlight_file(data_file(name))
    model = cdlinear.train(y, X, options)
    assert model.to_string() == cdtrain(options.split(), name)


def test_save_and_load_round_trip(tmp_path):
    X, y = cdlinear.load_svmlight_file(data_file("dna.scale"))
    model = cdlinear.train(y, X, "-s 0 -B 1")
    path = str(tmp_path / "dna.model")
    cdlinear.save_model(path, model)
    loaded = cdlinear.load_model(path)
    assert loaded.to_string() == model.to_string()
    with open(path) as f:
        assert f.read() == model.to_string()
    labels, (accuracy, _, _), probabilities = cdlinear.predict(y, X, loaded, "-b 1")
    np.testing.assert_allclose(probabilities.sum(axis=1), 1.0)
    # The predicted label is the class of largest probability, and the
    # accuracy is the share of labels predicted right.
    np.testing.assert_array_equal(labels, loaded.labels[np.argmax(probabilities, axis=1)])
    assert accuracy == pytest.approx(100 * np.mean(labels == y))


def test_predict_decision_values_are_the_weights_times_x():
    X, y = cdlinear.load_svmlight_file(data_file("heart_scale"))
    model = cdlinear.train(y, X, "-s 2 -B 1")
    labels, _, decision = cdlinear.predict(None, X, model)
    dense = X.toarray()
    w = np.array([float(line) for line in model.to_string().split("\nw\n")[1].split()])
    np.testing.assert_allclose(decision[:, 0], dense @ w[:-1] + w[-1], rtol=1e-12, atol=1e-12)
    expected = np.where(decision[:, 0] > 0, model.labels[0], model.labels[1])
    np.testing.assert_array_equal(labels, expected)


@pytest.mark.parametrize("options,name", [("-s 2 -v 5", "heart_scale"),
                                          ("-s 0 -v 3 --seed 7", "dna.scale"),
                                          ("-s 11 -v 4", "heart_scale")])
def test_cross_validation_prints_cdtrain_figure(options, name, cdtrain):
    X, y = cdlinear.load_svmlight_file(data_file(name))
    figure = cdlinear.train(y, X, options)
    assert cdlinear.cross_validation(y, X, options) == figure
    printed = cdtrain(options.split(), name)
    number = re.search(r"(Accuracy|Mean squared error) = ([0-9.e+-]+)", printed)
    assert number, printed
    # cdtrain prints %g: six significant digits.
    assert float(number.group(2)) == pytest.approx(figure, rel=1e-5)


def test_bad_options_raise_value_error():
    X, y = cdlinear.load_svmlight_file(data_file("heart_scale"))
    with pytest.raises(ValueError, match="-c"):
        cdlinear.train(y, X, "-c -1")
    with pytest.raises(ValueError, match="-z"):
        cdlinear.train(y, X, "-z 1")
    with pytest.raises(ValueError, match="solver"):
        cdlinear.train(y, X, "-s 99")
    with pytest.raises(ValueError, match="option threads: bad value -1"):
        cdlinear.train(y, X, "-m -1")
    with pytest.raises(ValueError, match="-w1"):
        cdlinear.train(y, X, "-w1")


@pytest.mark.parametrize("flag", ["0", "1"])
def test_predict_gives_cdpredict_output(flag, cdtrain, tmp_path):
    """cdpredict's output file: the labels, and with -b 1 a header and each
    instance's probabilities in label order (printed with %g)."""
    cdtrain(["-s", "0"], "dna.scale")
    model_path = str(tmp_path / "cdtrain.model")
    output = str(tmp_path / "cdpredict.out")
    program = os.path.join(BIN, "cdpredict")
    subprocess.run([program, "-b", flag, data_file("dna.scale.t"), model_path, output],
                   check=True, capture_output=True)
    with open(output) as f:
        lines = f.read().splitlines()
    X, y = cdlinear.load_svmlight_file(data_file("dna.scale.t"))
    model = cdlinear.load_model(model_path)
    labels, (accuracy, _, _), values = cdlinear.predict(y, X, model, "-b " + flag)
    if flag == "1":
        assert lines.pop(0) == "labels " + " ".join(str(label) for label in model.labels)
        printed = np.array([[float(v) for v in line.split()] for line in lines])
        np.testing.assert_array_equal(labels, printed[:, 0])
        np.testing.assert_allclose(values, printed[:, 1:], rtol=1e-5, atol=1e-300)
    else:
        np.testing.assert_array_equal(labels, [float(line) for line in lines])
        assert values.shape == (X.shape[0], 3)
    assert accuracy == pytest.approx(100 * np.mean(labels == y))


@pytest.mark.parametrize("options,name", [("-C", "heart_scale"), ("-C -s 11", "heart_scale")])
def test_search_c_finds_cdtrain_best(options, name, cdtrain):
    X, y = cdlinear.load_svmlight_file(data_file(name))
    best_C, best_p, score = cdlinear.train(y, X, options)
    assert (best_C, best_p, score) == cdlinear.search_C(y, X, options)
    printed = cdtrain(options.split() + ["-v", "5"], name).splitlines()[-1]
    assert float(re.search(r"Best C = ([0-9.e+-]+)", printed).group(1)) == pytest.approx(
        best_C, rel=1e-5)
    if "-s 11" in options:
        assert float(re.search(r"Best p = ([0-9.e+-]+)", printed).group(1)) == pytest.approx(
            best_p, abs=1e-9)
        assert float(re.search(r"CV MSE = ([0-9.e+-]+)", printed).group(1)) == pytest.approx(
            score, rel=1e-5)
    else:
        assert best_p == -1
        assert float(re.search(r"CV accuracy = ([0-9.e+-]+)%", printed).group(1)) == (
            pytest.approx(100 * score, rel=1e-5))
