"""Training through the extension: the checks of the arrays that scipy leaves
to the user, and the call that releases the GIL while the solver runs."""

import numpy as np
import scipy.sparse as sp

from . import _core
from ._model import Model


def check_sparse_structure(X):
    """ValueError for a CSR or CSC matrix whose index arrays the solvers cannot
    read: an index out of range, or unsorted or repeated within a row (CSR)
    or a column (CSC). Nothing is copied or changed."""
    n_major = X.shape[0] if X.format == "csr" else X.shape[1]
    n_minor = X.shape[1] if X.format == "csr" else X.shape[0]
    what = "row" if X.format == "csr" else "column"
    indptr, indices = X.indptr, X.indices
    if indptr.shape[0] != n_major + 1 or indptr[0] != 0 or indptr[-1] != indices.shape[0]:
        raise ValueError("%s matrix: indptr must start at 0 and end at nnz" % X.format.upper())
    if np.any(np.diff(indptr) < 0):
        raise ValueError("%s matrix: indptr must not decrease" % X.format.upper())
    if indices.shape[0] == 0:
        return
    if indices.min() < 0 or indices.max() >= n_minor:
        bad = np.flatnonzero((indices < 0) | (indices >= n_minor))[0]
        raise ValueError("%s matrix: index %d of entry %d is out of range [0, %d)"
                         % (X.format.upper(), indices[bad], bad, n_minor))
    step = np.diff(indices.astype(np.int64))
    # A step between two entries of one row must be positive; the steps
    # across a row boundary do not count.
    boundary = np.zeros(indices.shape[0] - 1, dtype=bool)
    ends = indptr[1:-1]
    ends = ends[(ends > 0) & (ends < indices.shape[0])]
    boundary[ends - 1] = True
    bad = np.flatnonzero((step <= 0) & ~boundary)
    if bad.size:
        entry = bad[0] + 1
        major = np.searchsorted(indptr, entry, side="right") - 1
        raise ValueError("%s matrix: %s %d has unsorted or duplicate indices (entry %d, index %d "
                         "after %d)" % (X.format.upper(), what, major, entry, indices[entry],
                                        indices[entry - 1]))


def data_of(X, labels, sample_weight=None):
    """The interface's Data of X (scipy CSR/CSC or a dense array, checked)
    with labels or targets `labels`. A CSR or CSC matrix's arrays go to the
    interface as they are (int32 or int64 indices, float64 or float32
    values), which copies them into its own matrices; a dense array becomes
    CSR first."""
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
