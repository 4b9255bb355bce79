"""Figure 2 of Fercoq & Bianchi (2015) from experiments/pdcd.sh's traces.

usage: /usr/bin/python3 pdcd_plot.py OUTDIR FIGURE.png

For each data set of OUTDIR/sizes.txt ("name n" lines), plots the
post-processed duality gap in the paper's scaling (lambda = 1/n times ours)
against the solver's seconds and against epochs, one curve per
OUTDIR/<name>.<solver>.tsv that has a gap column.
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

LABELS = {"pdcd": "pdcd (Fercoq-Bianchi, Alg. 2)", "rcd-pair": "RCD pairs (Necoara-Patrascu)",
          "dcd": "SDCA, no intercept (dcd --select uniform)"}


def read_trace(path):
    with open(path) as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return rows


def main():
    out, figure = sys.argv[1], sys.argv[2]
    sizes = [line.split() for line in open(os.path.join(out, "sizes.txt")) if line.strip()]
    fig, axes = plt.subplots(len(sizes), 2, figsize=(11, 4 * len(sizes)), squeeze=False)
    for row, (name, n) in enumerate(sizes):
        lam = 1.0 / float(n)
        for solver in ("pdcd", "dcd", "rcd-pair"):
            path = os.path.join(out, "%s.%s.tsv" % (name, solver))
            if not os.path.exists(path):
                continue
            trace = read_trace(path)
            column = "intercept_gap" if solver == "dcd" else "gap"
            if not trace or column not in trace[0]:
                print("%s: no %s column, left out" % (path, column))
                continue
            gap = [max(lam * float(r[column]), 1e-16) for r in trace]
            seconds = [float(r["seconds"]) for r in trace]
            epochs = [int(r["iteration"]) for r in trace]
            axes[row][0].semilogy(seconds, gap, label=LABELS[solver])
            axes[row][1].semilogy(epochs, gap, label=LABELS[solver])
        for col, xlabel in enumerate(("seconds (solver time)", "epochs")):
            ax = axes[row][col]
            ax.set_xlabel(xlabel)
            ax.set_ylabel("duality gap (paper's scaling)")
            ax.set_title("%s (n = %s)" % (name, n))
            ax.grid(True, which="both", alpha=0.3)
            ax.legend()
    fig.tight_layout()
    fig.savefig(figure, dpi=110)
    print("wrote", figure)


if __name__ == "__main__":
    main()
