#!/usr/bin/env python3
"""The optimum of LIBLINEAR's -s 5 or -s 6 problem at C = 1, for checks/check_l1.sh.

liblinear-train 2.3.0 stops at 1,000 outer iterations whatever -e says, and
on a9a -s 5 it stops there at -e 1e-4 and at -e 1e-8 alike, short of the
optimum. scikit-learn bundles the same LIBLINEAR solvers (CDN for -s 5,
newGLMNET for -s 6) and lets the iteration limit be raised: this runs them
with eps 1e-8 and up to 200,000 iterations, no bias, and writes the weights
as a LIBLINEAR model file (label order and sign as liblinear-train writes
them: the first label of the data file is the positive side of w).

usage: l1_optimum.py DATA l2svm|lr MODEL [SEED]   (needs python3-sklearn; SEED of
the coordinate order, default 0)
"""
import sys
import time

from sklearn.datasets import load_svmlight_file
from sklearn.linear_model import LogisticRegression
from sklearn.svm import LinearSVC


def main():
    if len(sys.argv) not in (4, 5) or sys.argv[2] not in ("l2svm", "lr"):
        sys.exit("\n".join(__doc__.strip().splitlines()[-2:]))
    data, loss, out = sys.argv[1:4]
    seed = int(sys.argv[4]) if len(sys.argv) == 5 else 0
    x, y = load_svmlight_file(data)
    start = time.time()
    if loss == "l2svm":
        model = LinearSVC(penalty="l1", loss="squared_hinge", dual=False, C=1.0, tol=1e-8,
                          max_iter=200000, fit_intercept=False, random_state=seed)
    else:
        model = LogisticRegression(penalty="l1", solver="liblinear", C=1.0, tol=1e-8,
                                   max_iter=200000, fit_intercept=False, random_state=seed)
    model.fit(x, y)
    w = model.coef_.ravel()
    negative, positive = model.classes_  # coef_ scores classes_[1]
    if y[0] != positive:
        w = -w
        positive, negative = negative, positive
    with open(out, "w") as f:
        f.write("solver_type %s\nnr_class 2\nlabel %d %d\nnr_feature %d\nbias -1\nw\n"
                % ("L1R_L2LOSS_SVC" if loss == "l2svm" else "L1R_LR", positive, negative,
                   x.shape[1]))
        for v in w:
            f.write("%.17g \n" % v)
    iterations = int(max(model.n_iter_)) if hasattr(model.n_iter_, "__len__") else model.n_iter_
    print("%s %s: %d iterations, %.1f s, %d nonzeros"
          % (data, loss, iterations, time.time() - start, int((w != 0).sum())), file=sys.stderr)


if __name__ == "__main__":
    main()
