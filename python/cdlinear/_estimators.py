"""scikit-learn estimators over cdlinear's solvers: the names and parameters
of scikit-learn's LinearSVC, LogisticRegression, LinearSVR, Lasso and (with
a linear kernel) OneClassSVM, plus n_jobs (threads; the model never depends
on them), solver ('auto' or any cdlinear solver, by name or by LIBLINEAR's
-s number) and free_intercept (cdtrain's -R)."""

import numbers
import os

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, OutlierMixin, RegressorMixin
from sklearn.linear_model._base import LinearClassifierMixin, LinearModel, SparseCoefMixin
from sklearn.utils import check_random_state
from sklearn.utils.class_weight import compute_class_weight
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, check_is_fitted

from ._train import train_matrix

_ACCEPTED = dict(accept_sparse=["csr", "csc"], dtype=[np.float64, np.float32])

# scikit-learn's check_sample_weights_invariance(kind=zeros) fits the kept
# instances in another (shuffled) order and asks for the same predictions
# to 1e-7; the order-dependent solvers agree only to their stopping
# tolerance. scikit-learn marks the same check of its own LinearSVC,
# LinearSVR and OneClassSVM. test_weight_zero_equals_dropping_the_sample
# checks that a weight of 0 drops the instance, in the same order.
_ORDER_DEPENDENT = {
    "_xfail_checks": {
        "check_sample_weights_invariance": "the instances come shuffled, and the solver stops "
                                           "at its tolerance, not at 1e-7 of the optimum"
    }
}


def _threads(n_jobs):
    """TrainOptions::threads for scikit-learn's n_jobs: None is 1, -1 every
    core, -2 all but one, and so on."""
    if n_jobs is None:
        return 1
    if not isinstance(n_jobs, numbers.Integral) or n_jobs == 0:
        raise ValueError("n_jobs must be None, a positive integer or a negative integer, got %r"
                         % (n_jobs,))
    if n_jobs > 0:
        return int(n_jobs)
    return max(1, (os.cpu_count() or 1) + 1 + int(n_jobs))


def _seed(random_state):
    """The solver's seed: 1 (cdtrain's default) for None, so that a fit is
    reproducible; an int as given; a RandomState's next draw."""
    if random_state is None:
        return 1
    if isinstance(random_state, numbers.Integral):
        if random_state < 0:
            raise ValueError("random_state must be >= 0, got %d" % random_state)
        return int(random_state)
    return int(check_random_state(random_state).randint(np.iinfo(np.int32).max))


def _check_positive(name, value):
    if not isinstance(value, numbers.Real) or not np.isfinite(value) or value <= 0:
        raise ValueError("%s must be a positive number, got %r" % (name, value))


class _Base(BaseEstimator):
    """What every estimator shares: checking the input, and the options
    every solver takes."""

    def _validate_input(self, X, y, sample_weight, y_numeric, unsupervised=False):
        if unsupervised:
            X = self._validate_data(X, accept_large_sparse=True, order="C", **_ACCEPTED)
            y = np.zeros(X.shape[0])
        else:
            X, y = self._validate_data(X, y, accept_large_sparse=True, y_numeric=y_numeric,
                                       order="C", **_ACCEPTED)
        if sample_weight is not None:
            sample_weight = _check_sample_weight(sample_weight, X, dtype=np.float64,
                                                 only_non_negative=True)
            kept = sample_weight > 0
            if not np.any(kept):
                raise ValueError("sample_weight: every weight is 0; nothing to train on")
            if not np.all(kept):
                # A weight of 0 leaves the instance out: left out here, the
                # fit is exactly the one without it (the solvers' stopping
                # tests would otherwise see a different start).
                X, y, sample_weight = X[kept], y[kept], sample_weight[kept]
        return X, y, sample_weight

    def _common_options(self):
        _check_positive("tol", self.tol)
        if not isinstance(self.max_iter, numbers.Integral) or self.max_iter <= 0:
            raise ValueError("max_iter must be a positive integer, got %r" % (self.max_iter,))
        options = dict(eps=float(self.tol), max_iter=int(self.max_iter),
                       threads=_threads(self.n_jobs), seed=_seed(self.random_state),
                       progress=bool(getattr(self, "verbose", 0)))
        if self.solver != "auto":
            if not isinstance(self.solver, (str, numbers.Integral)):
                raise ValueError("solver must be 'auto', a cdlinear solver's name or a LIBLINEAR "
                                 "number, got %r" % (self.solver,))
            options["solver"] = str(self.solver)
        return options

    def _intercept_options(self, options):
        """-B: the intercept as a constant feature of value intercept_scaling,
        regularized with the weights as in LIBLINEAR, or with free_intercept
        not regularized (cdtrain's -R, for the solvers that take it)."""
        if self.fit_intercept:
            _check_positive("intercept_scaling", self.intercept_scaling)
            options["bias"] = float(self.intercept_scaling)
            options["free_bias"] = bool(self.free_intercept)
        elif self.free_intercept:
            raise ValueError("free_intercept=True needs fit_intercept=True")
        return options


class _Classifier(LinearClassifierMixin, SparseCoefMixin, _Base):
    def _options(self):
        raise NotImplementedError

    def _binary_scale(self):
        """The factor of the two classes' weight difference in a binary
        coef_ of a model over all classes: 1 (Crammer and Singer)."""
        return 1.0

    def fit(self, X, y, sample_weight=None):
        """Trains on X (n_samples, n_features; scipy CSR/CSC or dense) and the
        class labels y; sample_weight multiplies each instance's C."""
        X, y, sample_weight = self._validate_input(X, y, sample_weight, y_numeric=False)
        check_classification_targets(y)
        self.classes_, codes = np.unique(y, return_inverse=True)
        if self.classes_.shape[0] < 2:
            raise ValueError("This solver needs samples of at least 2 classes in the data, but "
                             "the data contains only one class: %r" % self.classes_[0])
        _check_positive("C", self.C)
        options = self._intercept_options(self._options())
        options["C"] = float(self.C)
        options["class_weights"] = self._class_weights(codes)
        model = train_matrix(X, codes, options, sample_weight)
        coef, intercept = model.coef_and_intercept(X.shape[1])
        labels = model.labels
        if coef.shape[0] == 1:
            # The model scores labels[0] as positive; scikit-learn's binary
            # coef_ scores classes_[1].
            sign = 1.0 if labels[0] == 1 else -1.0
            self.coef_, self.intercept_ = sign * coef, sign * intercept
        else:
            order = np.argsort(labels)
            self.coef_, self.intercept_ = coef[order], intercept[order]
            if len(self.classes_) == 2:
                # A model over all classes keeps two weight vectors for two
                # classes: scikit-learn's binary decision is their
                # difference, positive for classes_[1] (for a softmax model
                # its half, see _Classifier._binary_scale).
                scale = self._binary_scale()
                self.coef_ = scale * (self.coef_[1:] - self.coef_[:1])
                self.intercept_ = scale * (self.intercept_[1:] - self.intercept_[:1])
        self.n_iter_ = int(model.iterations.max())
        return self

    def _class_weights(self, codes):
        if self.class_weight is None:
            return {}
        weights = compute_class_weight(self.class_weight, classes=np.arange(len(self.classes_)),
                                       y=codes) if isinstance(self.class_weight, str) else None
        if weights is None:
            weights = np.ones(len(self.classes_))
            for label, weight in self.class_weight.items():
                found = np.flatnonzero(self.classes_ == label)
                if found.size == 0:
                    raise ValueError("class_weight: class label %r is not present" % (label,))
                weights[found[0]] = weight
        return {int(k): float(w) for k, w in enumerate(weights)}


class LinearSVC(_Classifier):
    """scikit-learn's LinearSVC on cdlinear's solvers.

    penalty 'l2'/'l1', loss 'squared_hinge'/'hinge', multi_class 'ovr' or
    'crammer_singer' (LIBLINEAR's -s 4), C, tol, max_iter, fit_intercept and
    intercept_scaling (LIBLINEAR's -B: the intercept is regularized),
    class_weight, random_state, as scikit-learn's. dual is accepted and
    chooses the solver when solver='auto': the problem, and so its solution,
    is the same either way. n_jobs: threads; solver: 'auto' or a cdlinear
    solver (name or LIBLINEAR number).
    """

    def __init__(self, penalty="l2", loss="squared_hinge", *, dual=True, tol=1e-4, C=1.0,
                 multi_class="ovr", fit_intercept=True, intercept_scaling=1, class_weight=None,
                 verbose=0, random_state=None, max_iter=1000, n_jobs=None, solver="auto",
                 free_intercept=False):
        self.penalty = penalty
        self.loss = loss
        self.dual = dual
        self.tol = tol
        self.C = C
        self.multi_class = multi_class
        self.fit_intercept = fit_intercept
        self.intercept_scaling = intercept_scaling
        self.class_weight = class_weight
        self.verbose = verbose
        self.random_state = random_state
        self.max_iter = max_iter
        self.n_jobs = n_jobs
        self.solver = solver
        self.free_intercept = free_intercept

    def _options(self):
        options = self._common_options()
        if self.multi_class == "crammer_singer":
            options.setdefault("solver", "4")
            return options
        if self.multi_class != "ovr":
            raise ValueError("multi_class must be 'ovr' or 'crammer_singer', got %r"
                             % (self.multi_class,))
        losses = {"squared_hinge": "l2svm", "hinge": "l1svm"}
        if self.loss not in losses:
            raise ValueError("loss must be 'squared_hinge' or 'hinge', got %r" % (self.loss,))
        if self.penalty not in ("l1", "l2"):
            raise ValueError("penalty must be 'l1' or 'l2', got %r" % (self.penalty,))
        if self.penalty == "l1" and self.loss == "hinge":
            raise ValueError("Unsupported set of arguments: The combination of penalty='l1' and "
                             "loss='hinge' is not supported")
        if "solver" not in options:
            # LIBLINEAR's numbers for the dual solvers; the primal L2-SVM is
            # left to cdtrain's shape rule.
            if self.loss == "hinge":
                options["solver"] = "3"
            elif self.penalty == "l1":
                options["solver"] = "5"
            elif self.dual and not self.free_intercept:
                options["solver"] = "1"
        options["loss"] = losses[self.loss]
        options["regularizer"] = self.penalty
        return options

    def _more_tags(self):
        return _ORDER_DEPENDENT


class LogisticRegression(_Classifier):
    """scikit-learn's LogisticRegression(solver='liblinear') on cdlinear's
    solvers: penalty 'l2'/'l1', one-vs-rest for more than two classes,
    predict_proba as LIBLINEAR's -b 1. multi_class='multinomial' trains one
    softmax model over all classes (penalty 'l2', cdlinear's dcd-maxent,
    dual coordinate descent), whose predict_proba is the softmax of the
    decision values, as scikit-learn's multinomial models'. Other
    parameters as LinearSVC's."""

    def __init__(self, penalty="l2", *, dual=False, tol=1e-4, C=1.0, fit_intercept=True,
                 intercept_scaling=1, class_weight=None, random_state=None, solver="auto",
                 max_iter=100, multi_class="auto", verbose=0, n_jobs=None,
                 free_intercept=False):
        self.penalty = penalty
        self.dual = dual
        self.tol = tol
        self.C = C
        self.fit_intercept = fit_intercept
        self.intercept_scaling = intercept_scaling
        self.class_weight = class_weight
        self.random_state = random_state
        self.solver = solver
        self.max_iter = max_iter
        self.multi_class = multi_class
        self.verbose = verbose
        self.n_jobs = n_jobs
        self.free_intercept = free_intercept

    def _options(self):
        options = self._common_options()
        if self.multi_class not in ("auto", "ovr", "multinomial"):
            raise ValueError("multi_class must be 'auto' or 'ovr' (one-vs-rest) or "
                             "'multinomial', got %r" % (self.multi_class,))
        if self.penalty not in ("l1", "l2"):
            raise ValueError("penalty must be 'l1' or 'l2', got %r" % (self.penalty,))
        if self.multi_class == "multinomial":
            if self.penalty != "l2":
                raise ValueError("multi_class='multinomial' needs penalty='l2', got %r"
                                 % (self.penalty,))
            options.setdefault("solver", "dcd-maxent")
            options.update(loss="softmax", regularizer="l2")
            return options
        if "solver" not in options:
            options["solver"] = "6" if self.penalty == "l1" else (
                "7" if self.dual and not self.free_intercept else "0")
        options["loss"] = "lr"
        options["regularizer"] = self.penalty
        return options

    def _binary_scale(self):
        # Softmax over two classes: P(classes_[1]) = sigmoid((w1 - w0)'x);
        # scikit-learn's binary multinomial probability is sigmoid(2 d) of
        # the decision d, so d is half the difference.
        return 0.5 if self.multi_class == "multinomial" else 1.0

    def predict_proba(self, X):
        """Class probabilities, columns in classes_ order: one-vs-rest, the
        logistic function of each decision value, normalized; multinomial,
        the softmax of the decision values (of -d and d for two classes)."""
        check_is_fitted(self)
        if self.multi_class != "multinomial":
            return self._predict_proba_lr(X)
        decision = self.decision_function(X)
        if decision.ndim == 1:
            decision = np.c_[-decision, decision]
        decision = decision - decision.max(axis=1, keepdims=True)
        proba = np.exp(decision)
        return proba / proba.sum(axis=1, keepdims=True)

    def predict_log_proba(self, X):
        return np.log(self.predict_proba(X))

    def _more_tags(self):
        # The multinomial dual method visits the instances in a random
        # order, as the dual solvers of LinearSVC do.
        return _ORDER_DEPENDENT if self.multi_class == "multinomial" else {}


class LinearSVR(RegressorMixin, LinearModel, _Base):
    """scikit-learn's LinearSVR on cdlinear's solvers: loss
    'epsilon_insensitive' (LIBLINEAR's -s 13) or 'squared_epsilon_insensitive'
    (-s 11/12), epsilon, C, tol, max_iter, fit_intercept and
    intercept_scaling (regularized, as LIBLINEAR's -B), random_state."""

    def __init__(self, *, epsilon=0.0, tol=1e-4, C=1.0, loss="epsilon_insensitive",
                 fit_intercept=True, intercept_scaling=1.0, dual=True, verbose=0,
                 random_state=None, max_iter=1000, n_jobs=None, solver="auto",
                 free_intercept=False):
        self.epsilon = epsilon
        self.tol = tol
        self.C = C
        self.loss = loss
        self.fit_intercept = fit_intercept
        self.intercept_scaling = intercept_scaling
        self.dual = dual
        self.verbose = verbose
        self.random_state = random_state
        self.max_iter = max_iter
        self.n_jobs = n_jobs
        self.solver = solver
        self.free_intercept = free_intercept

    def fit(self, X, y, sample_weight=None):
        X, y, sample_weight = self._validate_input(X, y, sample_weight, y_numeric=True)
        _check_positive("C", self.C)
        if not isinstance(self.epsilon, numbers.Real) or not self.epsilon >= 0:
            raise ValueError("epsilon must be a number >= 0, got %r" % (self.epsilon,))
        losses = {"epsilon_insensitive": "svr1", "squared_epsilon_insensitive": "svr2"}
        if self.loss not in losses:
            raise ValueError("loss must be 'epsilon_insensitive' or "
                             "'squared_epsilon_insensitive', got %r" % (self.loss,))
        options = self._intercept_options(self._common_options())
        if "solver" not in options:
            options["solver"] = "13" if self.loss == "epsilon_insensitive" else (
                "12" if self.dual and not self.free_intercept else "11")
        options.update(C=float(self.C), loss=losses[self.loss], svr_epsilon=float(self.epsilon))
        model = train_matrix(X, y.astype(np.float64), options, sample_weight)
        coef, intercept = model.coef_and_intercept(X.shape[1])
        self.coef_ = coef[0]
        self.intercept_ = float(intercept[0])
        self.n_iter_ = int(model.iterations.max())
        return self

    def _more_tags(self):
        return _ORDER_DEPENDENT


class Lasso(RegressorMixin, LinearModel, _Base):
    """scikit-learn's Lasso, (1 / (2 n)) ||y - Xw - b||^2 + alpha ||w||_1, on
    cdlinear's L1-regularized squared loss (C = 1 / (2 n alpha)). With
    fit_intercept the intercept is not regularized, as scikit-learn's: a
    dense X and y are centered; a sparse X keeps its zeros and gets a free
    bias feature (cdtrain's -B 1 -R)."""

    def __init__(self, alpha=1.0, *, fit_intercept=True, max_iter=1000, tol=1e-4,
                 random_state=None, n_jobs=None, solver="auto"):
        self.alpha = alpha
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.solver = solver

    def fit(self, X, y, sample_weight=None):
        X, y, sample_weight = self._validate_input(X, y, sample_weight, y_numeric=True)
        _check_positive("alpha", self.alpha)
        n = X.shape[0]
        weights = np.ones(n) if sample_weight is None else sample_weight * (n / sample_weight.sum())
        y = y.astype(np.float64)
        options = self._common_options()
        options.update(C=1.0 / (2.0 * n * self.alpha), loss="sq", regularizer="l1")
        center = self.fit_intercept and not sp.issparse(X)
        if center:
            X_offset = np.average(X, axis=0, weights=weights)
            y_offset = float(np.average(y, weights=weights))
            X, y = X - X_offset, y - y_offset
        elif self.fit_intercept:
            options.update(bias=1.0, free_bias=True)
        model = train_matrix(X, y, options, None if sample_weight is None else weights)
        coef, intercept = model.coef_and_intercept(X.shape[1])
        self.coef_ = coef[0]
        self.intercept_ = (y_offset - float(X_offset @ self.coef_) if center
                           else float(intercept[0]))
        self.n_iter_ = int(model.iterations.max())
        return self


class OneClassSVM(OutlierMixin, _Base):
    """scikit-learn's OneClassSVM with a linear kernel: LIBLINEAR's -s 21,
    which finds w and rho of min 1/2 ||w||^2 - rho + 1/(nu l) sum max(0,
    rho - w'x) (Schoelkopf et al.'s problem). decision_function(x) = w'x -
    rho, positive for inliers; predict gives +1 and -1. nu, tol, max_iter,
    sample_weight as scikit-learn's; n_jobs, solver and random_state as the
    other estimators'."""

    def __init__(self, *, nu=0.5, tol=1e-3, max_iter=1000, random_state=None, n_jobs=None,
                 solver="auto"):
        self.nu = nu
        self.tol = tol
        self.max_iter = max_iter
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.solver = solver

    def fit(self, X, y=None, sample_weight=None):
        """Trains on X alone (y is ignored)."""
        X, _, sample_weight = self._validate_input(X, None, sample_weight, y_numeric=True,
                                                   unsupervised=True)
        if not isinstance(self.nu, numbers.Real) or not 0 < self.nu <= 1:
            raise ValueError("nu must be in (0, 1], got %r" % (self.nu,))
        options = self._common_options()
        options.setdefault("solver", "21")
        options["nu"] = float(self.nu)
        model = train_matrix(X, np.ones(X.shape[0]), options, sample_weight)
        coef, intercept = model.coef_and_intercept(X.shape[1])
        self.coef_ = coef
        self.intercept_ = intercept
        self.offset_ = -intercept
        self.n_iter_ = int(model.iterations.max())
        return self

    def _more_tags(self):
        return _ORDER_DEPENDENT

    def score_samples(self, X):
        """w'x, the decision value before the offset rho."""
        check_is_fitted(self)
        X = self._validate_data(X, reset=False, **_ACCEPTED)
        return np.asarray(X @ self.coef_[0]).ravel()

    def decision_function(self, X):
        """w'x - rho: positive for inliers."""
        return self.score_samples(X) - self.offset_[0]

    def predict(self, X):
        """+1 for an inlier (decision value > 0), -1 for an outlier."""
        return np.where(self.decision_function(X) > 0, 1, -1)
