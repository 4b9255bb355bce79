"""Training through the extension: a matrix's arrays into the interface's
Data (which checks them: indices sorted, unique and in range, values
finite, and names the row and entry of a fault), and the call that trains
it with the GIL released."""

import numpy as np
import scipy.sparse as sp

from . import _core
from ._model import Model


def data_of(X, labels, sample_weight=None):
    """The interface's Data of X (scipy CSR/CSC or a dense array, checked)
    with labels or targets `labels`. A CSR or CSC matrix's arrays go to the
    interface as they are (int32 or int64 indices, float64 or float32
    values): float64 values with int32 indices are used in place, and the
    Data holds a reference to the arrays (Data.borrowed says so); other
    layouts are converted into the library's matrices. A dense array
    becomes CSR first."""
    if not sp.issparse(X) or X.format not in ("csr", "csc"):
        X = sp.csr_matrix(X)
    weights = np.empty(0) if sample_weight is None else sample_weight
    return _core.data_of(X.format == "csr", np.ascontiguousarray(X.indptr),
                         np.ascontiguousarray(X.indices), np.ascontiguousarray(X.data),
                         X.shape[0], X.shape[1], np.asarray(labels, dtype=np.float64), weights)


def train_matrix(X, labels, options, sample_weight=None):
    """Trains with the TrainOptions in `options` (a dict) on data_of() the
    arguments, the GIL released meanwhile. Returns a Model."""
    return Model(_core.train(data_of(X, labels, sample_weight), options))
