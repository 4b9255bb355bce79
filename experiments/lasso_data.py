"""Data of experiments/lasso.sh, written in LIBSVM format.

  lasso_data.py synthetic OUT SEED
      The primer's Figure 3 problem (Shi et al., Section 4.1.5): A 50 x 100
      with N(0, 1) entries, a sparse truth x_s with 10 nonzeros (the primer's
      k = |supp(x_s)| is lost in the text; 10% of n, on a random support from
      a permutation, N(0, 1) values), b = A x_s + noise of standard deviation
      1e-4.
  lasso_data.py rcv1 IN OUT FEATURES SEED
      A FEATURES-column subsample of rcv1_small (Perekrestenko et al.'s rcv1*,
      "a subsample with empty rows and columns removed"): FEATURES columns
      drawn uniformly without replacement among those that occur in at least
      one document, renumbered 1..FEATURES in increasing order, and the
      documents left empty dropped. Targets: the labels (+1/-1) as they are.
"""
import lzma
import random
import sys

import numpy as np


def synthetic(out, seed):
    rng = np.random.default_rng(seed)
    m, n, k, sigma = 50, 100, 10, 1e-4
    a = rng.standard_normal((m, n))
    x = np.zeros(n)
    support = rng.permutation(n)[:k]
    x[support] = rng.standard_normal(k)
    b = a @ x + sigma * rng.standard_normal(m)
    with open(out, "w") as f:
        for j in range(m):
            f.write("%.17g " % b[j] + " ".join("%d:%.17g" % (i + 1, a[j, i]) for i in range(n)) + "\n")


def rcv1(path, out, features, seed):
    opener = lzma.open if path.endswith(".xz") else open
    rows = []
    with opener(path, "rt") as f:
        for line in f:
            parts = line.split()
            rows.append((parts[0], [(int(i), v) for i, v in (p.split(":") for p in parts[1:])]))
    present = sorted({i for _, row in rows for i, _ in row})
    keep = sorted(random.Random(seed).sample(present, features))
    number = {i: k + 1 for k, i in enumerate(keep)}
    kept = 0
    with open(out, "w") as f:
        for label, row in rows:
            entries = [(number[i], v) for i, v in row if i in number]
            if entries:
                f.write(label + " " + " ".join("%d:%s" % e for e in entries) + "\n")
                kept += 1
    print("rcv1 subsample: %d of %d documents, %d of %d features" % (kept, len(rows), features,
                                                                     len(present)), file=sys.stderr)


if __name__ == "__main__":
    if sys.argv[1] == "synthetic":
        synthetic(sys.argv[2], int(sys.argv[3]))
    else:
        rcv1(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
