"""A trained model as numpy arrays: LIBLINEAR's model, as cdtrain writes it."""

import numpy as np

from . import _core


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

    def to_string(self):
        """The model file's text."""
        return self._core.to_string()

    def coef_and_intercept(self, num_features):
        """The weights as (nr_w, num_features) and the intercepts (nr_w,):
        features beyond the model's get weight 0; intercept = bias * w_bias
        (minus rho for a one-class model)."""
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


def load(path):
    """A model file cdtrain (or LIBLINEAR's train) wrote."""
    return Model(_core.Model.load(str(path)))
