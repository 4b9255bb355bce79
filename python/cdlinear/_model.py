"""A trained model as numpy arrays, read from the model file's text (LIBLINEAR's
format, which cdtrain writes), and the predictions LIBLINEAR makes from it."""

import numpy as np
from scipy.special import expit

from . import _core

# LIBLINEAR's solver types whose models give probabilities (its -b 1).
_LOGISTIC = ("L2R_LR", "L1R_LR", "L2R_LR_DUAL")


class Model:
    """A model as LIBLINEAR's text file holds it.

    Attributes: solver_type, labels (class labels in the model's order; empty
    for a regression or one-class model), nr_class, num_features, bias (< 0:
    none), rho (a one-class model's offset), and w, the weights as the file
    lays them out: one row per feature (plus one for the bias), nr_w columns.
    """

    def __init__(self, core_model):
        self._core = core_model
        self._parse(core_model.to_string())

    def _parse(self, text):
        lines = text.splitlines()
        header = {}
        position = 0
        while lines[position] != "w":
            key, _, value = lines[position].partition(" ")
            header[key] = value
            position += 1
        self.solver_type = header["solver_type"]
        self.nr_class = int(header["nr_class"])
        self.labels = np.array(header["label"].split(), dtype=np.int64) if "label" in header else (
            np.empty(0, dtype=np.int64))
        self.num_features = int(header["nr_feature"])
        self.bias = float(header["bias"])
        self.rho = float(header.get("rho", 0.0))
        rows = lines[position + 1:]
        self.w = np.array([[float(v) for v in row.split()] for row in rows], dtype=np.float64)
        if self.w.size == 0:
            self.w = self.w.reshape(len(rows), 0)

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
