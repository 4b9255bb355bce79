"""The functions LIBLINEAR's Python users know: train(y, X, '-s 2 -c 4'),
predict, load_model, save_model, cross_validation, search_C, and
load_svmlight_file on cdtrain's reader."""

import shlex

import numpy as np
import scipy.sparse as sp
from sklearn.utils.validation import check_array

from . import _core
from ._estimators import _threads
from ._model import load
from ._train import data_of, train_matrix

# cdtrain's flags that train() takes: flag -> (TrainOptions key, converter).
_FLAGS = {
    "-s": ("solver", str),
    "-l": ("loss", str),
    "-r": ("regularizer", str),
    "-c": ("C", float),
    "-e": ("eps", float),
    "-B": ("bias", float),
    "-p": ("svr_epsilon", float),
    "-m": ("threads", int),
    "--seed": ("seed", int),
    "--max-iter": ("max_iter", int),
    "-n": ("nu", float),
    "--select": ("select", str),
    "--partitions": ("partitions", int),
}
# cdtrain's flags without a value: flag -> (key, value), None for -q.
_SWITCHES = {
    "-q": None,
    "-R": ("free_bias", True),
    "-C": ("search", True),
    "--stratified": ("stratified", True),
    "--shrink": ("shrink", True),
    "--no-shrink": ("shrink", False),
}


def parse_options(options):
    """The TrainOptions (a dict) of a cdtrain option string such as
    '-s 2 -c 4 -w1 2'; ValueError for a flag train() does not take."""
    tokens = shlex.split(options) if isinstance(options, str) else list(options)
    parsed = {"threads": 1}
    position = 0
    while position < len(tokens):
        flag = tokens[position]
        if flag in _SWITCHES:
            if _SWITCHES[flag] is not None:
                key, value = _SWITCHES[flag]
                parsed[key] = value
            position += 1
            continue
        if position + 1 >= len(tokens):
            raise ValueError("option %s needs a value" % flag)
        value = tokens[position + 1]
        position += 2
        try:
            if flag.startswith("-w") and flag[2:].lstrip("-").isdigit():
                parsed.setdefault("class_weights", {})[int(flag[2:])] = float(value)
            elif flag == "-v":
                parsed["folds"] = int(value)
            elif flag in _FLAGS:
                key, convert = _FLAGS[flag]
                parsed[key] = convert(value)
                if flag in ("-c", "-e") and not parsed[key] > 0:
                    raise ValueError("option %s: expected a positive number, got %r"
                                     % (flag, value))
            else:
                raise ValueError("option %s: not one train() takes (%s, -wi, -v, %s)"
                                 % (flag, ", ".join(_FLAGS), ", ".join(_SWITCHES)))
        except ValueError as error:
            if str(error).startswith("option"):
                raise
            raise ValueError("option %s: bad value %r" % (flag, value)) from None
    return parsed


def _matrix(X):
    X = check_array(X, accept_sparse=["csr", "csc"], dtype=[np.float64, np.float32],
                    accept_large_sparse=True)
    return X


def train(y, X, options=""):
    """Trains as cdtrain does with `options` (a string of its flags: -s -l -r
    -c -e -B -R -p -n -wi -m --seed --max-iter --select --partitions
    --stratified --shrink --no-shrink -q; -m defaults to 1 thread) on the
    labels or targets y and the matrix X (scipy CSR/CSC or dense, one
    instance a row). Returns a Model; with -v n, the cross validation's
    result instead, as cross_validation() gives it; with -C, search_C()'s."""
    parsed = parse_options(options)
    if parsed.pop("search", False):
        return search_C(y, X, options)
    folds = parsed.pop("folds", None)
    if folds is not None:
        return cross_validation(y, X, options)
    X = _matrix(X)
    y = np.asarray(y, dtype=np.float64)
    if y.shape != (X.shape[0],):
        raise ValueError("y has %d labels for %d instances" % (y.size, X.shape[0]))
    return train_matrix(X, y, parsed)


def predict(y, X, model, options=""):
    """Predicts the instances of X with `model`, as cdpredict does, on every
    core (the numbers never depend on the threads). Returns (labels,
    (accuracy in percent, mean squared error, squared correlation), decision
    values or, with options '-b 1', probabilities), as LIBLINEAR's
    predict(); y may be None or empty when the true labels are unknown."""
    tokens = [token for token in shlex.split(options) if token != "-q"]
    if tokens not in ([], ["-b", "0"], ["-b", "1"]):
        raise ValueError("predict: the options are -b 0|1 and -q, got %r" % options)
    probability = tokens == ["-b", "1"]
    X = _matrix(X)
    data = data_of(X, np.zeros(X.shape[0]))
    labels = model._core.predict_data(data, 0)[:, 0]
    if probability:
        values = model._core.probabilities_data(data, 0)
    else:
        values = model._core.decision_values_data(data, 0)
    scores = (float("nan"),) * 3
    if y is not None and len(y) > 0:
        truth = np.asarray(y, dtype=np.float64)
        accuracy = 100.0 * float(np.mean(labels == truth))
        mse = float(np.mean((labels - truth) ** 2))
        with np.errstate(invalid="ignore", divide="ignore"):
            correlation = float(np.corrcoef(labels, truth)[0, 1] ** 2)
        scores = (accuracy, mse, correlation)
    return labels, scores, values


def load_model(path):
    """A model file cdtrain (or LIBLINEAR's train) wrote."""
    return load(path)


def save_model(path, model):
    """Writes `model` as cdtrain writes its model file, whole or not at all."""
    model._core.save(str(path))


def cross_validation(y, X, options=""):
    """cdtrain -v n with the train() options (n from -v, default 5): the
    accuracy in percent for a classification, the mean squared error for a
    regression, as cdtrain prints them (its folds, seeded by --seed)."""
    parsed = parse_options(options)
    folds = int(parsed.pop("folds", 5))
    X = _matrix(X)
    y = np.asarray(y, dtype=np.float64)
    accuracy, mse, _, _ = _core.cross_validate(data_of(X, y), folds, parsed)
    return 100.0 * accuracy if np.isnan(mse) else mse


def search_C(y, X, options=""):
    """cdtrain -C with the train() options (-v n folds, default 5; -c the
    first C): (best C, best p, best score), p being an SVR's epsilon (-1
    otherwise) and the score the cross validation's accuracy as a share in
    [0, 1], or for a regression its mean squared error."""
    parsed = parse_options(options)
    parsed.pop("search", None)
    folds = int(parsed.pop("folds", 5))
    start = parsed.pop("C", None)
    X = _matrix(X)
    y = np.asarray(y, dtype=np.float64)
    return _core.search_C(data_of(X, y), folds, parsed, start)


def load_svmlight_file(path, n_jobs=None):
    """(X, y) of a LIBSVM-format file read by cdtrain's strict reader: X a
    scipy CSR matrix of float64 (0-based columns, as scikit-learn's
    load_svmlight_file gives for a file whose indices start at 1) whose
    arrays are the reader's own, not a copy; y the labels. n_jobs: the
    reader's threads, None for one per core (at most 4), -1 every core, -2
    all but one, ...; the matrix does not depend on them."""
    threads = 0 if n_jobs is None else _threads(n_jobs)
    indptr, indices, values, labels, num_features = _core.read_file(str(path), threads)
    X = sp.csr_matrix((values, indices, indptr), shape=(labels.shape[0], num_features), copy=False)
    return X, labels
