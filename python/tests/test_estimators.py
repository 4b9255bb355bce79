"""The estimators: scikit-learn's own checks, and their models against
scikit-learn's LIBLINEAR-backed estimators on the same data."""

import gc
import os
import pickle
import signal
import threading
import warnings
import weakref

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.special import logsumexp
import sklearn.linear_model
import sklearn.svm
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.estimator_checks import parametrize_with_checks

import cdlinear
from conftest import data_file

ESTIMATORS = [
    cdlinear.LinearSVC(),
    cdlinear.LinearSVC(penalty="l1", dual=False),
    cdlinear.LinearSVC(loss="hinge"),
    cdlinear.LinearSVC(multi_class="crammer_singer"),
    cdlinear.LogisticRegression(),
    cdlinear.LogisticRegression(penalty="l1"),
    cdlinear.LogisticRegression(multi_class="multinomial"),
    cdlinear.LinearSVR(),
    cdlinear.LinearSVR(loss="squared_epsilon_insensitive"),
    cdlinear.Lasso(alpha=0.1),
    cdlinear.OneClassSVM(nu=0.2),
    cdlinear.LinearSVC(free_intercept=True),
    cdlinear.LogisticRegression(free_intercept=True),
    cdlinear.LinearSVR(loss="squared_epsilon_insensitive", free_intercept=True),
]


@parametrize_with_checks(ESTIMATORS)
def test_scikit_learn_checks(estimator, check):
    check(estimator)


def heart():
    X, y = cdlinear.load_svmlight_file(data_file("heart_scale"))
    return X, y


def dna():
    X, y = cdlinear.load_svmlight_file(data_file("dna.scale"))
    return X, y


# L2 problems have one solution: the coefficients must agree with
# scikit-learn's (LIBLINEAR inside), both run to a tight tolerance (the
# L1-loss SVM's dual at C = 1 needs about 210000 epochs on dna.scale; at
# C = 0.05 far fewer).
@pytest.mark.parametrize("ours,theirs", [
    (cdlinear.LinearSVC(C=0.5, tol=1e-8, max_iter=100000),
     sklearn.svm.LinearSVC(C=0.5, tol=1e-8, max_iter=100000, random_state=0)),
    (cdlinear.LinearSVC(loss="hinge", C=0.05, tol=1e-8, max_iter=1000000),
     sklearn.svm.LinearSVC(loss="hinge", C=0.05, tol=1e-8, max_iter=1000000, random_state=0)),
    (cdlinear.LogisticRegression(C=2, tol=1e-8, max_iter=1000),
     sklearn.linear_model.LogisticRegression(C=2, solver="liblinear", tol=1e-8, max_iter=1000)),
])
@pytest.mark.parametrize("data", [heart, dna])
def test_l2_coefficients_match_scikit_learn(ours, theirs, data):
    X, y = data()
    ours.fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        theirs.fit(X, y)
    np.testing.assert_array_equal(ours.classes_, theirs.classes_)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=2e-4, rtol=2e-3)
    np.testing.assert_allclose(ours.intercept_, theirs.intercept_, atol=2e-4, rtol=2e-3)
    assert np.mean(ours.predict(X) == theirs.predict(X)) > 0.99


def softmax_objective(estimator, X, y):
    """0.5 ||W||^2 + C sum_i (log sum_k exp(w_k'x_i) - w_{y_i}'x_i) of a
    multinomial model without intercept, from its decision values (a binary
    model's coef_ is w1 = -w0, its decision the half difference)."""
    decision = estimator.decision_function(X)
    norm = np.sum(estimator.coef_ ** 2)
    if decision.ndim == 1:
        decision = np.c_[-decision, decision]
        norm *= 2
    truth = decision[np.arange(len(y)), np.searchsorted(estimator.classes_, y)]
    return 0.5 * norm + estimator.C * np.sum(logsumexp(decision, axis=1) - truth)


# The multinomial problem has one solution: scikit-learn's lbfgs run to
# 1e-10 is the reference, without an intercept (scikit-learn does not
# regularize its intercept, cdlinear's -B does).
@pytest.mark.parametrize("data,C", [(heart, 1.0), (dna, 0.5)])
def test_multinomial_matches_scikit_learn(data, C):
    X, y = data()
    ours = cdlinear.LogisticRegression(multi_class="multinomial", C=C, tol=1e-8, max_iter=10000,
                                       fit_intercept=False).fit(X, y)
    theirs = sklearn.linear_model.LogisticRegression(multi_class="multinomial", C=C, tol=1e-10,
                                                     max_iter=100000,
                                                     fit_intercept=False).fit(X, y)
    np.testing.assert_array_equal(ours.classes_, theirs.classes_)
    assert ours.coef_.shape == theirs.coef_.shape
    f_ours = softmax_objective(ours, X, y)
    f_theirs = softmax_objective(theirs, X, y)
    # lbfgs stops about 1e-8 (relative) above the optimum on dna.scale,
    # where the dual method's gap is below that; both are within 1e-6.
    assert f_ours == pytest.approx(f_theirs, rel=1e-6)
    assert f_ours <= f_theirs * (1 + 1e-9)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-3)
    np.testing.assert_allclose(ours.predict_proba(X), theirs.predict_proba(X), atol=1e-3)


def test_multinomial_probabilities_are_the_softmax():
    X, y = dna()
    model = cdlinear.LogisticRegression(multi_class="multinomial").fit(X, y)
    proba = model.predict_proba(X)
    decision = model.decision_function(X)
    expected = np.exp(decision - logsumexp(decision, axis=1, keepdims=True))
    np.testing.assert_allclose(proba, expected, rtol=1e-12)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=1e-12)
    np.testing.assert_array_equal(model.classes_[np.argmax(proba, axis=1)], model.predict(X))
    # Not one-vs-rest's normalized sigmoids.
    ovr = cdlinear.LogisticRegression().fit(X, y)
    assert np.max(np.abs(ovr.predict_proba(X) - proba)) > 1e-2


def test_multinomial_needs_the_l2_penalty():
    X, y = heart()
    with pytest.raises(ValueError, match="multinomial"):
        cdlinear.LogisticRegression(multi_class="multinomial", penalty="l1").fit(X, y)


def test_svr_coefficients_match_scikit_learn():
    X, y = heart()
    ours = cdlinear.LinearSVR(C=0.5, epsilon=0.1, tol=1e-8, max_iter=100000).fit(X, y)
    theirs = sklearn.svm.LinearSVR(C=0.5, epsilon=0.1, tol=1e-8, max_iter=100000,
                                   random_state=0).fit(X, y)
    assert ours.n_iter_ >= 1
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-3, rtol=1e-2)


def l1_objective(estimator, X, y, loss):
    """||w||_1 + C sum loss(margin) with the intercept as a weight, LIBLINEAR's
    L1 problem (the intercept regularized), for labels +1 for classes_[1]."""
    sign = np.where(y == estimator.classes_[1], 1.0, -1.0)
    margin = sign * estimator.decision_function(X)
    w = np.concatenate([estimator.coef_.ravel(), estimator.intercept_])
    return np.abs(w).sum() + estimator.C * loss(margin).sum()


@pytest.mark.parametrize("ours,theirs,loss", [
    (cdlinear.LinearSVC(penalty="l1", dual=False, tol=1e-6, max_iter=100000),
     sklearn.svm.LinearSVC(penalty="l1", dual=False, tol=1e-6, max_iter=100000),
     lambda m: np.maximum(0, 1 - m) ** 2),
    (cdlinear.LogisticRegression(penalty="l1", tol=1e-6, max_iter=100000),
     sklearn.linear_model.LogisticRegression(penalty="l1", solver="liblinear", tol=1e-6,
                                             max_iter=100000),
     lambda m: np.logaddexp(0, -m)),
])
def test_l1_objective_matches_scikit_learn(ours, theirs, loss):
    X, y = heart()
    ours.fit(X, y)
    theirs.fit(X, y)
    f_ours = l1_objective(ours, X, y, loss)
    f_theirs = l1_objective(theirs, X, y, loss)
    assert f_ours == pytest.approx(f_theirs, rel=1e-4)


def test_lasso_matches_scikit_learn():
    X, y = heart()
    X = X.toarray()
    target = X[:, :5] @ np.arange(1, 6) + 0.1 * y
    ours = cdlinear.Lasso(alpha=0.01, tol=1e-10, max_iter=100000).fit(X, target)
    theirs = sklearn.linear_model.Lasso(alpha=0.01, tol=1e-10, max_iter=100000).fit(X, target)
    np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-4)
    assert ours.intercept_ == pytest.approx(theirs.intercept_, abs=1e-4)


def test_lasso_sparse_intercept_matches_scikit_learn():
    """A sparse X with fit_intercept trains with a free bias feature, no
    dense copy; scikit-learn's Lasso centers the sparse X implicitly. The
    same solution, with and without sample weights."""
    X, y = dna()
    X, y = X[:600], y[:600]
    target = np.asarray(X[:, :20] @ np.linspace(-1, 1, 20)).ravel() + 0.1 * y + 3
    weights = 1.0 + np.arange(600) % 3
    for sample_weight in (None, weights):
        ours = cdlinear.Lasso(alpha=0.005, tol=1e-10, max_iter=100000).fit(
            X, target, sample_weight=sample_weight)
        theirs = sklearn.linear_model.Lasso(alpha=0.005, tol=1e-10, max_iter=100000).fit(
            X, target, sample_weight=sample_weight)
        assert 0 < np.count_nonzero(theirs.coef_) < X.shape[1]
        np.testing.assert_allclose(ours.coef_, theirs.coef_, atol=1e-4)
        assert ours.intercept_ == pytest.approx(theirs.intercept_, abs=1e-4)


def test_lasso_sparse_intercept_keeps_x_sparse():
    """2e5 x 2e6 with two nonzeros a row: made dense, X would take 3.2 TB.
    The free intercept leaves a residual of mean about 0 (the gap test
    bounds it by sqrt(eps) of y's spread; it would be 3 without it)."""
    rng = np.random.default_rng(0)
    n = 200000
    first = rng.integers(0, 1000000, n)
    columns = np.column_stack([first, 1000000 + rng.integers(0, 1000000, n)]).ravel()
    X = sp.csr_matrix((np.ones(2 * n), columns, np.arange(0, 2 * n + 1, 2)),
                      shape=(n, 2000000))
    y = 3.0 + 50.0 * (first < 1000) + rng.normal(size=n)
    model = cdlinear.Lasso(alpha=1e-4).fit(X, y)
    assert 0 < np.count_nonzero(model.coef_[:1000])
    residual = y - X @ model.coef_ - model.intercept_
    assert abs(residual.mean()) < 0.05 * y.std()
    assert model.intercept_ == pytest.approx(3.0, abs=0.1)


@pytest.mark.parametrize("make", [lambda n: cdlinear.LinearSVC(n_jobs=n),
                                  lambda n: cdlinear.LogisticRegression(n_jobs=n),
                                  lambda n: cdlinear.LogisticRegression(
                                      multi_class="multinomial", n_jobs=n),
                                  lambda n: cdlinear.LinearSVC(solver="cdper", n_jobs=n)])
def test_threads_do_not_change_the_model(make):
    X, y = dna()
    one = make(1).fit(X, y)
    two = make(2).fit(X, y)
    np.testing.assert_array_equal(one.coef_, two.coef_)
    np.testing.assert_array_equal(one.intercept_, two.intercept_)


@pytest.mark.parametrize("estimator", [cdlinear.LinearSVC(), cdlinear.LogisticRegression(),
                                       cdlinear.LinearSVR(), cdlinear.Lasso(alpha=0.01)])
def test_pickle_round_trip(estimator):
    X, y = heart()
    estimator.fit(X, y)
    copy = pickle.loads(pickle.dumps(estimator))
    np.testing.assert_array_equal(copy.coef_, estimator.coef_)
    np.testing.assert_array_equal(copy.predict(X), estimator.predict(X))


@pytest.mark.parametrize("estimator", [cdlinear.LinearSVC(tol=1e-6),
                                       cdlinear.LogisticRegression(tol=1e-6),
                                       cdlinear.LinearSVR(tol=1e-6)])
def test_weight_zero_equals_dropping_the_sample(estimator):
    X, y = heart()
    weights = np.ones(X.shape[0])
    dropped = np.arange(0, X.shape[0], 7)
    weights[dropped] = 0
    kept = np.setdiff1d(np.arange(X.shape[0]), dropped)
    weighted = pickle.loads(pickle.dumps(estimator)).fit(X, y, sample_weight=weights)
    smaller = pickle.loads(pickle.dumps(estimator)).fit(X[kept], y[kept])
    np.testing.assert_allclose(weighted.coef_, smaller.coef_, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("convert", [
    lambda X: X, lambda X: X.tocsc(), lambda X: X.toarray(), lambda X: X.astype(np.float32),
    lambda X: sp.csr_array(X),
    lambda X: sp.csr_matrix((X.data, X.indices.astype(np.int64), X.indptr.astype(np.int64)),
                            shape=X.shape)])
def test_inputs_unchanged_and_layouts_agree(convert):
    X, y = heart()
    reference = cdlinear.LogisticRegression().fit(X, y).coef_
    given = convert(X)
    before = pickle.dumps((given, y))
    coef = cdlinear.LogisticRegression().fit(given, y).coef_
    assert pickle.dumps((given, y)) == before
    tolerance = 1e-5 if getattr(given, "dtype", None) == np.float32 else 0
    np.testing.assert_allclose(coef, reference, rtol=tolerance, atol=tolerance)


@pytest.mark.parametrize("layout", ["csr", "csc"])
@pytest.mark.parametrize("make", [cdlinear.LogisticRegression, cdlinear.LinearSVC,
                                  lambda: cdlinear.LinearSVC(fit_intercept=False, dual=False)])
def test_fit_uses_float64_int32_arrays_in_place(monkeypatch, layout, make):
    """fit hands X's own arrays to the library, which reports that it uses
    them in place (no copy), and leaves them unchanged."""
    X, y = heart()
    X = X.asformat(layout)
    assert X.dtype == np.float64 and X.indices.dtype == np.int32
    seen = []
    original = cdlinear._train._core.data_of

    def spy(compressed_rows, indptr, indices, values, *rest):
        data = original(compressed_rows, indptr, indices, values, *rest)
        seen.append((data.borrowed, indices is X.indices, values is X.data))
        return data

    monkeypatch.setattr(cdlinear._train._core, "data_of", spy)
    before = pickle.dumps((X, y))
    make().fit(X, y)
    assert seen == [(True, True, True)]
    assert pickle.dumps((X, y)) == before


def test_other_layouts_are_converted_and_borrowed_arrays_kept_alive():
    X, y = heart()
    from cdlinear._train import data_of
    assert data_of(X, y).borrowed
    assert not data_of(X.astype(np.float32), y).borrowed
    wide = X.copy()  # scipy's constructor would make the indices int32 again
    wide.indices = wide.indices.astype(np.int64)
    assert not data_of(wide, y).borrowed
    # The Data holds the arrays it uses in place: dropping every other
    # reference to them leaves them alive until the Data goes.
    values = X.data.copy()
    alive = weakref.ref(values)
    data = cdlinear._train._core.data_of(True, X.indptr, X.indices.copy(), values, X.shape[0],
                                         X.shape[1], y, np.empty(0))
    del values
    gc.collect()
    assert alive() is not None
    expected = cdlinear._core.train(data_of(X, y), {}).to_string()
    assert cdlinear._core.train(data, {}).to_string() == expected
    del data
    gc.collect()
    assert alive() is None


def test_predict_proba_is_liblinear_probability():
    X, y = dna()
    estimator = cdlinear.LogisticRegression().fit(X, y)
    proba = estimator.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    decision = X @ estimator.coef_.T + estimator.intercept_
    sigmoid = 1 / (1 + np.exp(-decision))
    np.testing.assert_allclose(proba, sigmoid / sigmoid.sum(axis=1, keepdims=True), rtol=1e-12)


def csr(data, indices, indptr, shape, index_type=np.int32):
    return sp.csr_matrix((np.array(data, dtype=np.float64), np.array(indices, dtype=index_type),
                          np.array(indptr, dtype=index_type)), shape=shape)


@pytest.mark.parametrize("X,message", [
    (csr([1, 2, 3], [1, 0, 2], [0, 2, 3], (2, 3)), "row 0, entry 1: column index 0 not greater"),
    (csr([1, 2, 3], [1, 1, 2], [0, 2, 3], (2, 3)), "row 0, entry 1: column index 1 not greater"),
    (csr([1, 2, 3], [0, 1, 2**40], [0, 2, 3], (2, 3), np.int64),
     "row 1, entry 0: column index 1099511627776 is not below the 3 columns"),
    (csr([1, 2, 3], [0, 1, -1], [0, 2, 3], (2, 3)), "column index -1 is negative"),
    (csr([1, np.nan, 3], [0, 1, 2], [0, 2, 3], (2, 3)), "NaN"),
    (np.array([[1.0, np.inf], [0.0, 1.0]]), "infinity"),
])
def test_bad_matrix_raises_value_error(X, message):
    with pytest.raises(ValueError, match=message):
        cdlinear.LinearSVC().fit(X, [0, 1])


def test_bad_targets_and_weights_raise_value_error():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    with pytest.raises(ValueError, match="only one class"):
        cdlinear.LinearSVC().fit(X, [1, 1, 1])
    with pytest.raises(ValueError, match="Unknown label type"):
        cdlinear.LogisticRegression().fit(X, [0.5, 1.5, 2.25])
    with pytest.raises(ValueError, match="Negative values in data passed to `sample_weight`"):
        cdlinear.LinearSVC().fit(X, [0, 1, 0], sample_weight=[1, -1, 1])
    fitted = cdlinear.LinearSVC().fit(X, [0, 1, 0])
    with pytest.raises(ValueError, match="features"):
        fitted.predict(np.ones((2, 3)))


def test_random_csr_arrays_train_or_raise_value_error():
    """Random matrices, well- and ill-formed: every one trains (and predicts
    its own rows) or raises ValueError; none crashes the interpreter."""
    rng = np.random.RandomState(0)
    outcomes = {"trained": 0, "refused": 0}
    for trial in range(60):
        rows, cols = rng.randint(1, 12), rng.randint(1, 9)
        dense = rng.randn(rows, cols) * (rng.rand(rows, cols) < 0.4)
        X = sp.csr_matrix(dense)
        X.indices = X.indices.astype(rng.choice([np.int32, np.int64]))
        X.indptr = X.indptr.astype(X.indices.dtype)
        if X.nnz and rng.rand() < 0.3:
            beyond = 2**31 + 5 if X.indices.dtype == np.int64 else cols + 1
            X.indices[rng.randint(X.nnz)] = rng.choice([-1, cols, beyond, 0])
        if X.nnz and rng.rand() < 0.2:
            X.data[rng.randint(X.nnz)] = rng.choice([np.nan, np.inf, 1e308])
        y = rng.randint(0, rng.randint(1, 4), size=rows)
        for estimator in (cdlinear.LinearSVC(), cdlinear.LogisticRegression(),
                          cdlinear.LinearSVR()):
            try:
                estimator.fit(X, y)
            except ValueError:
                outcomes["refused"] += 1
                continue
            outcomes["trained"] += 1
            assert estimator.predict(X).shape == (rows,)
    # Both paths ran, many times.
    assert min(outcomes.values()) >= 20, outcomes


@pytest.mark.parametrize("estimator,args", [
    (cdlinear.OneClassSVM(nu=0.2), ["-s", "21", "-n", "0.2", "-e", "0.001"]),
    (cdlinear.LinearSVC(free_intercept=True),
     ["-l", "l2svm", "-r", "l2", "-B", "1", "-R", "-e", "0.0001"]),
    (cdlinear.LogisticRegression(free_intercept=True, C=2),
     ["-s", "0", "-c", "2", "-B", "1", "-R", "-e", "0.0001", "--max-iter", "100"]),
])
def test_estimator_is_cdtrain_with_the_same_options(estimator, args, cdtrain, tmp_path):
    """heart_scale's first label is +1, so the model's first class is
    scikit-learn's classes_[1] and no sign changes."""
    X, y = heart()
    estimator.fit(X, y)
    cdtrain(args, "heart_scale")
    model = cdlinear.load_model(str(tmp_path / "cdtrain.model"))
    coef, intercept = model.coef_and_intercept(X.shape[1])
    np.testing.assert_allclose(estimator.coef_, coef, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(estimator.intercept_, intercept, rtol=1e-12, atol=1e-14)
    if isinstance(estimator, cdlinear.OneClassSVM):
        decision = estimator.decision_function(X)
        np.testing.assert_array_equal(estimator.predict(X), np.where(decision > 0, 1, -1))
        # About nu of the instances fall outside.
        assert 0.1 < np.mean(decision < 0) < 0.3


def test_free_intercept_is_not_shrunk():
    """With C small the regularized intercept is pulled to 0; the free one
    stays near the data's offset."""
    X, y = heart()
    regularized = cdlinear.LinearSVR(C=0.001, loss="squared_epsilon_insensitive", tol=1e-8,
                                     max_iter=100000).fit(X, y + 10)
    free = cdlinear.LinearSVR(C=0.001, loss="squared_epsilon_insensitive", tol=1e-8,
                              max_iter=100000, free_intercept=True).fit(X, y + 10)
    assert abs(free.intercept_ - 10) < 1
    assert abs(regularized.intercept_) < abs(free.intercept_) / 2


@pytest.fixture
def sigint_raises():
    """SIGINT raising KeyboardInterrupt, as in an interactive session, for
    the Ctrl-C tests: a process started with SIGINT ignored (a script's
    background job, nohup) keeps it ignored, and the signal would then stop
    nothing."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_ctrl_c_stops_training_with_keyboard_interrupt(sigint_raises):
    """SIGINT during a fit that would run for minutes (the L1-loss SVM at a
    large C to a tolerance it cannot reach) raises KeyboardInterrupt; the
    estimator stays unfitted and the next fit works."""
    X, y = cdlinear.load_svmlight_file(data_file("a9a"))
    estimator = cdlinear.LinearSVC(loss="hinge", C=1000, tol=1e-15, max_iter=10**9)
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            estimator.fit(X, y)
    finally:
        timer.cancel()
    assert not hasattr(estimator, "coef_")
    assert cdlinear.LinearSVC().fit(X[:200], y[:200]).coef_.shape == (1, X.shape[1])


@pytest.mark.parametrize("call", ["cross_validation", "search_C"])
def test_ctrl_c_stops_cross_validation_and_the_search(call, sigint_raises):
    """SIGINT during cross validation or the search for C, whose folds would
    run for minutes, raises KeyboardInterrupt; the next call works."""
    X, y = cdlinear.load_svmlight_file(data_file("a9a"))
    function = getattr(cdlinear, call)
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            function(y, X, "-s 3 -c 1000 -e 1e-15 --max-iter 1000000000 -v 3")
    finally:
        timer.cancel()
    assert 50 < cdlinear.cross_validation(y[:300], X[:300], "-v 3") <= 100


def test_verbose_prints_the_solver_progress(capfd):
    X, y = heart()
    cdlinear.LogisticRegression().fit(X, y)
    assert capfd.readouterr().err == ""
    cdlinear.LogisticRegression(verbose=1).fit(X, y)
    err = capfd.readouterr().err
    assert "tron" in err and "iter" in err
