"""A trained model as numpy arrays (LIBLINEAR's model, as cdtrain writes it),
and the predictions LIBLINEAR makes from it."""

import numpy as np
from scipy.special import expit

from . import _core

# LIBLINEAR's solver types whose models give probabilities (its -b 1).
_LOGISTIC = ("L2R_LR", "L1R_LR", "L2R_LR_DUAL")


class Model:
    """A model as LIBLINEAR's text file holds it.

    Attributes: solver_type, labels (class labels in the model's order; empty
    for a regression or one-class model), nr_class, num_features, bias (< 0:
    none), rho (a one-class model's offset), w, the weights as the file lays
    them out: one row per feature (plus one for the bias), nr_w columns, and
    from the training run (empty for a loaded model) iterations and
    objectives, the solver's outer iterations and final f(w) per problem.
    """

    def __init__(self, core_model):
        self._core = core_model
        self.solver_type = core_model.solver_type
        self.nr_class = core_model.nr_class
        self.labels = np.array(core_model.labels, dtype=np.int64)
        self.num_features = core_model.num_features
        self.bias = core_model.bias
        self.rho = core_model.rho
        self.w = core_model.weights
        # From the training run (empty for a loaded model): the solver's
        # outer iterations and final objective, one per problem solved.
        self.iterations = np.array(core_model.iterations, dtype=np.int64)
        self.objectives = np.array(core_model.objectives, dtype=np.float64)

    @property
    def is_regression(self):
        return self._core.is_regression

    @property
    def is_one_class(self):
        return self.solver_type == "ONECLASS_SVM"

    @property
    def has_probabilities(self):
        return self.solver_type in _LOGISTIC

    def to_string(self):
        """The model file's text."""
        return self._core.to_string()

    def coef_and_intercept(self, num_features):
        """The weights as (nr_w, num_features) and the intercepts (nr_w,):
        features beyond the model's get weight 0; intercept = bias * w_bias."""
        nr_w = self.w.shape[1]
        coef = np.zeros((nr_w, num_features), dtype=np.float64)
        used = min(num_features, self.num_features)
        coef[:, :used] = self.w[:used].T
        if self.bias >= 0:
            intercept = self.bias * self.w[self.num_features]
        else:
            intercept = np.zeros(nr_w, dtype=np.float64)
        if self.is_one_class:
            intercept = intercept - self.rho
        return coef, intercept

    def decision_values(self, X):
        """Decision values, (n_instances, nr_w), of a scipy sparse matrix or a
        dense array; columns beyond the model's are ignored."""
        coef, intercept = self.coef_and_intercept(X.shape[1])
        return np.asarray(X @ coef.T) + intercept

    def predict_from_decision(self, decision):
        """LIBLINEAR's prediction for decision values."""
        if self.is_regression:
            return decision[:, 0].copy()
        if self.is_one_class:
            return np.where(decision[:, 0] > 0, 1.0, -1.0)
        if decision.shape[1] == 1:
            return np.where(decision[:, 0] > 0, self.labels[0], self.labels[1]).astype(np.float64)
        return self.labels[np.argmax(decision, axis=1)].astype(np.float64)

    def probabilities(self, decision):
        """LIBLINEAR's probability estimates (its -b 1), columns in label order."""
        if not self.has_probabilities:
            raise ValueError("probability estimates need a logistic regression model, not "
                             + self.solver_type)
        if decision.shape[1] == 1:
            first = expit(decision[:, 0])
            return np.column_stack([first, 1 - first])
        p = expit(decision)
        return p / p.sum(axis=1, keepdims=True)


def load(path):
    return Model(_core.Model.load(str(path)))
