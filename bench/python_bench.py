"""The measurements of bench/bench.sh's python section, one per process.

Each run of this script is a fresh process, so that its peak memory is its
own. It prints one line of "name value" pairs on standard output, which
bench.sh parses (a value that does not parse fails the section there).

  prepare TRAIN.svm TEST.svm TRAIN.npz TEST.npz
      Reads both LIBSVM files with scikit-learn's load_svmlight_files (one
      column count for both) and saves each as an uncompressed scipy .npz,
      labels included.
  fit ESTIMATOR TRAIN.npz TEST.npz
      Loads the training matrix (not timed), fits ESTIMATOR (see estimator())
      at its defaults and prints: seconds (the fit), before_kb (RSS before the
      fit), added_kb (peak RSS during the fit minus before_kb), iterations
      (n_iter_, the largest over classes), max_iter, converged (1, or 0 if
      scikit-learn warned ConvergenceWarning or n_iter_ reached max_iter),
      f (objective(), on the training matrix), multinomial (1 if the model
      is of scikit-learn's multinomial problem), accuracy (test accuracy
      in percent) and, for the logistic models, log_loss (the mean test
      log-loss of predict_proba) and f_softmax (objective() of the softmax
      problem).
  softmax-check TRAIN.svm C
      The multinomial problem without intercept on a LIBSVM file, solved by
      scikit-learn's lbfgs at tol 1e-10 (the reference) and by cdlinear's
      LogisticRegression(multi_class='multinomial') at its default tol and
      at tol 1e-8: prints f_lbfgs, f_default, f_tight, and seconds_default
      (cdlinear's fit).
  reference LOSS TRAIN.npz
      f of a tight fit (cdlinear's tron, tol 1e-6; for softmax its
      dcd-maxent at tol 1e-6) of the L2-regularized problem with LOSS (l2svm,
      lr or softmax): an upper bound on f*.
  model-f LOSS TRAIN.npz MODEL
      f of a model file that cdtrain wrote, on the training matrix, and
      write_seconds: the median of 3 writes of that model by
      cdlinear.save_model (the library's writer, on one thread; cdtrain
      writes on -m's threads and counts the write in its training time).
  load TOOL FILE
      Reads FILE with TOOL's load_svmlight_file (cdlinear or sklearn) and
      prints seconds and added_kb.
  same FILE
      Reads FILE with both loaders; fails unless data, indices, indptr, the
      shape and y are equal, dtypes included. Prints "same 1".

The peak is /proc/self/status's VmHWM, reset just before the measured part
by writing 5 to /proc/self/clear_refs (Linux 4.0 and later), so that the
loading's peak does not count.
"""

import gc
import os
import sys
import time
import warnings

import numpy as np
import scipy.sparse as sp
from scipy.special import logsumexp

C = 1.0


def status_kb(field):
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError("no %s in /proc/self/status" % field)


def reset_peak():
    """Sets VmHWM to the current RSS and returns that RSS in KB."""
    gc.collect()
    with open("/proc/self/clear_refs", "w") as refs:
        refs.write("5")
    before = status_kb("VmRSS")
    if status_kb("VmHWM") > before + 1024:
        raise RuntimeError("writing 5 to /proc/self/clear_refs did not reset VmHWM")
    return before


def save(path, X, y):
    """X (CSR) and its labels y in one uncompressed .npz."""
    X = sp.csr_matrix(X)
    np.savez(path, data=X.data, indices=X.indices, indptr=X.indptr, shape=np.array(X.shape), y=y)


def load(path):
    with np.load(path) as arrays:
        X = sp.csr_matrix((arrays["data"], arrays["indices"], arrays["indptr"]),
                          shape=tuple(arrays["shape"]))
        return X, arrays["y"]


def softmax_objective(X, y, coef, intercept, classes):
    """The multinomial problem with -B 1's intercept (regularized):
        0.5 (|W|^2 + |b|^2) + C sum_i (log sum_k exp(s_ik) - s_i,y_i)
    with s_ik = w_k'x_i + b_k. A binary model's one row is w1 = -w0 (its
    decision the half difference of the two classes' scores)."""
    coef = np.atleast_2d(coef)
    intercept = np.asarray(intercept, dtype=np.float64).reshape(-1)
    scores = np.asarray(X @ coef.T) + intercept[None, :]
    norm = np.sum(coef * coef) + np.sum(intercept * intercept)
    if coef.shape[0] == 1:
        scores = np.c_[-scores[:, 0], scores[:, 0]]
        norm *= 2
    classes = np.asarray(classes)
    order = np.argsort(classes)  # a model file's labels come in its own order
    truth = scores[np.arange(len(y)), order[np.searchsorted(classes, y, sorter=order)]]
    return 0.5 * norm + C * np.sum(logsumexp(scores, axis=1) - truth)


def objective(loss, X, y, coef, intercept, classes):
    """LIBLINEAR's primal objective with -B 1 (scikit-learn's liblinear
    estimators at intercept_scaling=1): the intercept b is the weight of a
    constant feature 1, regularized with w. Summed over one-vs-rest's
    problems (one problem for two classes, +1 being classes[-1]):
        sum_k 0.5 * (|w_k|^2 + b_k^2) + C * sum_i loss(y_ik * (w_k'x_i + b_k))
    with loss(m) = max(0, 1 - m)^2 (l2svm) or log(1 + exp(-m)) (lr)."""
    coef = np.atleast_2d(coef)
    intercept = np.asarray(intercept, dtype=np.float64).reshape(-1)
    if coef.shape[0] == 1:
        signs = np.where(y == classes[-1], 1.0, -1.0)[:, None]
    else:
        signs = np.where(y[:, None] == np.asarray(classes)[None, :], 1.0, -1.0)
    margins = signs * (np.asarray(X @ coef.T) + intercept[None, :])
    if loss == "softmax":
        return softmax_objective(X, y, coef, intercept, classes)
    if loss == "l2svm":
        losses = np.square(np.maximum(0.0, 1.0 - margins))
    elif loss == "lr":
        losses = np.logaddexp(0.0, -margins)
    else:
        raise ValueError("loss: l2svm, lr or softmax, not %r" % loss)
    return 0.5 * (np.sum(coef * coef) + np.sum(intercept * intercept)) + C * np.sum(losses)


def estimator(name):
    """(estimator at its defaults, its loss in objective()). lbfgs is
    scikit-learn's LogisticRegression() as it is, unless
    CDL_PY_LBFGS_MAX_ITER gives it another max_iter (its default, 100,
    stops it before it converges on text)."""
    import cdlinear
    import sklearn.linear_model
    import sklearn.svm
    if name == "cdlinear-svc":
        return cdlinear.LinearSVC(n_jobs=2), "l2svm"
    if name == "sklearn-svc":
        return sklearn.svm.LinearSVC(), "l2svm"
    if name == "cdlinear-lr":
        return cdlinear.LogisticRegression(n_jobs=2), "lr"
    if name == "cdlinear-multinomial":
        return cdlinear.LogisticRegression(multi_class="multinomial", n_jobs=2), "softmax"
    if name == "sklearn-liblinear":
        return sklearn.linear_model.LogisticRegression(solver="liblinear"), "lr"
    if name == "sklearn-lbfgs":
        max_iter = os.environ.get("CDL_PY_LBFGS_MAX_ITER", "")
        if not max_iter:
            return sklearn.linear_model.LogisticRegression(), "lr"
        return sklearn.linear_model.LogisticRegression(max_iter=int(max_iter)), "lr"
    raise ValueError("estimator: cdlinear-svc, sklearn-svc, cdlinear-lr, cdlinear-multinomial, "
                     "sklearn-liblinear or sklearn-lbfgs, not %r" % name)


def fit(name, train_path, test_path):
    from sklearn.exceptions import ConvergenceWarning
    model, loss = estimator(name)
    X, y = load(train_path)
    before = reset_peak()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        start = time.perf_counter()
        model.fit(X, y)
        seconds = time.perf_counter() - start
    added = status_kb("VmHWM") - before
    iterations = int(np.max(model.n_iter_))
    converged = not any(issubclass(w.category, ConvergenceWarning) for w in caught)
    converged = converged and iterations < model.max_iter
    # scikit-learn's lbfgs solves the multinomial problem for more than two
    # classes: objective() is then not that problem's.
    multinomial = int(name == "sklearn-lbfgs" and len(model.classes_) > 2)
    f = objective(loss, X, y, model.coef_, model.intercept_, model.classes_)
    logistic = loss in ("lr", "softmax")
    if logistic:
        f_softmax = softmax_objective(X, y, model.coef_, model.intercept_, model.classes_)
    del X, y
    X_test, y_test = load(test_path)
    accuracy = 100.0 * model.score(X_test, y_test)
    line = ("seconds %.6f before_kb %d added_kb %d iterations %d max_iter %d converged %d f %.10g "
            "multinomial %d accuracy %.4f" % (seconds, before, added, iterations, model.max_iter,
                                              converged, f, multinomial, accuracy))
    if logistic:
        from sklearn.metrics import log_loss
        loss_value = log_loss(y_test, model.predict_proba(X_test), labels=model.classes_)
        line += " log_loss %.6f f_softmax %.10g" % (loss_value, f_softmax)
    print(line)


def softmax_check(train_svm, c):
    import cdlinear
    import sklearn.linear_model
    from sklearn.datasets import load_svmlight_file
    X, y = load_svmlight_file(train_svm)
    c = float(c)
    global C
    C = c
    lbfgs = sklearn.linear_model.LogisticRegression(multi_class="multinomial", C=c, tol=1e-10,
                                                    max_iter=100000, fit_intercept=False)
    lbfgs.fit(X, y)
    values = {"f_lbfgs": objective("softmax", X, y, lbfgs.coef_, lbfgs.intercept_,
                                   lbfgs.classes_)}
    for name, tol in (("default", None), ("tight", 1e-8)):
        options = dict(multi_class="multinomial", C=c, fit_intercept=False, n_jobs=2)
        if tol is not None:
            options.update(tol=tol, max_iter=100000)
        model = cdlinear.LogisticRegression(**options)
        start = time.perf_counter()
        model.fit(X, y)
        seconds = time.perf_counter() - start
        values["f_" + name] = objective("softmax", X, y, model.coef_, model.intercept_,
                                        model.classes_)
        if name == "default":
            values["seconds_default"] = seconds
    print(" ".join("%s %.10g" % item for item in values.items()))


def reference(loss, train_path):
    import cdlinear
    X, y = load(train_path)
    if loss == "l2svm":
        model = cdlinear.LinearSVC(solver="tron", tol=1e-6, n_jobs=2)
    elif loss == "softmax":
        model = cdlinear.LogisticRegression(multi_class="multinomial", tol=1e-6, max_iter=100000,
                                            n_jobs=2)
    else:
        model = cdlinear.LogisticRegression(solver="tron", tol=1e-6, max_iter=1000, n_jobs=2)
    model.fit(X, y)
    print("f %.10g" % objective(loss, X, y, model.coef_, model.intercept_, model.classes_))


def model_f(loss, train_path, model_path):
    import cdlinear
    X, y = load(train_path)
    model = cdlinear.load_model(model_path)
    coef, intercept = model.coef_and_intercept(X.shape[1])
    if coef.shape[0] == 1:
        # One weight vector scores the model's first label as positive.
        classes = [model.labels[1], model.labels[0]]
    else:
        classes = model.labels
    f = objective(loss, X, y, coef, intercept, classes)
    copy = model_path + ".copy"
    writes = []
    for _ in range(3):
        start = time.perf_counter()
        cdlinear.save_model(copy, model)
        writes.append(time.perf_counter() - start)
    os.remove(copy)
    print("f %.10g write_seconds %.6f" % (f, np.median(writes)))


def loader(tool):
    if tool == "cdlinear":
        import cdlinear
        return lambda path: cdlinear.load_svmlight_file(path, n_jobs=2)
    if tool == "sklearn":
        import sklearn.datasets
        return sklearn.datasets.load_svmlight_file
    raise ValueError("load: cdlinear or sklearn, not %r" % tool)


def load_file(tool, path):
    read = loader(tool)
    before = reset_peak()
    start = time.perf_counter()
    X, y = read(path)
    seconds = time.perf_counter() - start
    added = status_kb("VmHWM") - before
    print("seconds %.6f added_kb %d rows %d nonzeros %d" % (seconds, added, X.shape[0], X.nnz))


def same(path):
    X_ours, y_ours = loader("cdlinear")(path)
    X_theirs, y_theirs = loader("sklearn")(path)
    for what, ours, theirs in (("shape", X_ours.shape, X_theirs.shape),
                               ("data", X_ours.data, X_theirs.data),
                               ("indices", X_ours.indices, X_theirs.indices),
                               ("indptr", X_ours.indptr, X_theirs.indptr), ("y", y_ours, y_theirs)):
        ours, theirs = np.asarray(ours), np.asarray(theirs)
        if ours.dtype != theirs.dtype or not np.array_equal(ours, theirs):
            sys.exit("python_bench: %s: the loaders' %s differ (dtypes %s and %s)"
                     % (path, what, ours.dtype, theirs.dtype))
    print("same 1")


def prepare(train_svm, test_svm, train_npz, test_npz):
    from sklearn.datasets import load_svmlight_files
    X, y, X_test, y_test = load_svmlight_files([train_svm, test_svm])
    save(train_npz, X, y)
    save(test_npz, X_test, y_test)


def main(argv):
    commands = {"prepare": (prepare, 4), "fit": (fit, 3), "reference": (reference, 2),
                "model-f": (model_f, 3), "load": (load_file, 2), "same": (same, 1),
                "softmax-check": (softmax_check, 2)}
    if len(argv) < 2 or argv[1] not in commands or len(argv) - 2 != commands[argv[1]][1]:
        sys.exit("usage: python_bench.py prepare|fit|reference|model-f|load|same|softmax-check "
                 "ARGS (see the module's comment)")
    function, _ = commands[argv[1]]
    function(*argv[2:])


if __name__ == "__main__":
    main(sys.argv)
