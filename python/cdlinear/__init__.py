"""cdlinear: linear models trained by coordinate descent (LIBLINEAR's problems).

The estimators take scikit-learn's names and parameters; the functions train,
predict, load_model, save_model, cross_validation, search_C and
load_svmlight_file are what LIBLINEAR's Python users know. See
docs/python.md.
"""

from ._core import Error
from ._estimators import Lasso, LinearSVC, LinearSVR, LogisticRegression, OneClassSVM
from ._lowlevel import (cross_validation, load_model, load_svmlight_file, predict, save_model,
                        search_C, train)
from ._model import Model

__all__ = [
    "Error",
    "Lasso",
    "LinearSVC",
    "LinearSVR",
    "LogisticRegression",
    "Model",
    "OneClassSVM",
    "cross_validation",
    "load_model",
    "load_svmlight_file",
    "predict",
    "save_model",
    "search_C",
    "train",
]
