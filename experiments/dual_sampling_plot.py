"""Figures of experiments/dual_sampling.sh: mean over seeds per epoch."""
import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

src, dst = sys.argv[1], sys.argv[2]


def load(name):
    runs = defaultdict(lambda: defaultdict(list))  # rule -> epoch -> rows
    with open(f"{src}/{name}") as f:
        for row in csv.DictReader(f):
            runs[row["rule"]][int(row["epoch"])].append(row)
    out = {}
    for rule, epochs in runs.items():
        keys = sorted(epochs)
        mean = lambda k: [sum(float(r[k]) for r in epochs[e]) / len(epochs[e]) for e in keys]
        out[rule] = {"epoch": keys, "gap": mean("gap"), "subopt": mean("subopt"),
                     "nnz": mean("nnz_ops"), "dual": mean("dual"),
                     "seeds": len(epochs[keys[0]])}
    return out


FLOOR = 1e-16  # log axes: values below are drawn at the floor


def fig1(name, title, out):
    runs = load(name)
    fig, axes = plt.subplots(2, 2, figsize=(11, 8))
    for rule, r in runs.items():
        style = "--" if rule == "importance" else "-"
        label = f"{rule} ({r['seeds']} seed{'s' if r['seeds'] > 1 else ''})"
        for col, x in enumerate(["epoch", "nnz"]):
            for row, y in enumerate(["gap", "subopt"]):
                ys = [max(v, FLOOR) for v in r[y]]
                xs = r[x] if x == "epoch" else [max(v, 1) for v in r[x]]
                axes[row][col].plot(xs, ys, style, label=label, marker="." if len(xs) < 5 else None)
    for row, y in enumerate(["duality gap P(w) + D(alpha)", "dual suboptimality D(alpha) - D*"]):
        for col, x in enumerate(["epochs", "nnz operations (steps + margin upkeep)"]):
            ax = axes[row][col]
            ax.set_yscale("log")
            if col == 1:
                ax.set_xscale("log")
            ax.set_xlabel(x)
            ax.set_ylabel(y)
            ax.grid(True, alpha=0.3)
    axes[0][0].legend(fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(f"{dst}/{out}", dpi=110)
    plt.close(fig)


fig1("fig1_heart_scale.csv", "hinge SVM dual CD, heart_scale (n=270), lambda=0.1 (C=1/(0.1 n)), mean of 5 seeds",
     "dual_sampling_fig1_heart_scale.png")
fig1("fig1_breast_cancer.csv", "hinge SVM dual CD, breast-cancer_scale (n=683), lambda=0.1, mean of 5 seeds",
     "dual_sampling_fig1_breast_cancer.png")
fig1("fig1_a9a.csv", "hinge SVM dual CD, a9a (n=32561), lambda=0.1; per-step rules: 1 seed, 2 epochs",
     "dual_sampling_fig1_a9a.png")

runs = load("fig6_a2a_size.csv")
fig, ax = plt.subplots(figsize=(7, 5))
for rule, r in runs.items():
    ax.plot(r["epoch"], r["dual"], label=f"{rule} ({r['seeds']} seed{'s' if r['seeds'] > 1 else ''})",
            marker=".")
ax.set_xlabel("epochs (n coordinate steps each)")
ax.set_ylabel("dual objective 1/2 a'Qa - e'a")
ax.set_title("primer Fig. 6: hinge SVM dual CD, 2,265-row subsample of a9a, C=1")
ax.grid(True, alpha=0.3)
ax.legend()
# Epoch 0 (alpha = 0, D = 0) would flatten the curves: start the axis at the
# highest value after one epoch.
ax.set_ylim(top=max(r["dual"][1] for r in runs.values()) + 0.02 * abs(max(r["dual"][1] for r in runs.values())))
fig.tight_layout()
fig.savefig(f"{dst}/dual_sampling_fig6_primer.png", dpi=110)
plt.close(fig)

# Numbers for docs/experiments.md: the value at a few epochs.
for name in ["fig1_heart_scale.csv", "fig1_breast_cancer.csv", "fig1_a9a.csv"]:
    runs = load(name)
    print(name)
    for rule, r in runs.items():
        picks = [e for e in (1, 2, 5, 10, 20, 50) if e in r["epoch"]]
        cells = " ".join(f"e{e}: gap {r['gap'][r['epoch'].index(e)]:.2e} sub {r['subopt'][r['epoch'].index(e)]:.2e} nnz {r['nnz'][r['epoch'].index(e)]:.2e}" for e in picks)
        print(f"  {rule:16s} {cells}")
runs = load("fig6_a2a_size.csv")
print("fig6")
for rule, r in runs.items():
    print(f"  {rule:8s} " + " ".join(f"{d:.4f}" for d in r["dual"]))
