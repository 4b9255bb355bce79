"""Figures and summary of experiments/lasso.sh.

Reads OUT/NAME.csv (build/lasso_run: data,rule,seed,epoch,objective,grad,gap;
one row per epoch of n coordinate steps) and OUT/NAME.ref.csv (the last rows
of the reference runs), takes f* as the lowest objective seen anywhere, and
plots the mean over seeds of the duality gap (21) and of f - f* against
epochs, log scale. Prints a markdown summary.
"""
import csv
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

src, dst = sys.argv[1], sys.argv[2]
FLOOR = 1e-12  # relative to f*: values below (rounding of f) are drawn at the floor


def load(name):
    runs = defaultdict(lambda: defaultdict(list))  # rule -> seed -> rows
    with open(f"{src}/{name}.csv") as f:
        for row in csv.DictReader(f):
            runs[row["rule"]][row["seed"]].append({k: float(row[k]) for k in
                                                   ("epoch", "objective", "grad", "gap")})
    refs = []
    with open(f"{src}/{name}.ref.csv") as f:
        for line in f:
            p = line.strip().split(",")
            refs.append({"rule": p[1], "epoch": int(float(p[3])), "objective": float(p[4]),
                         "gap": float(p[6])})
    fstar = min([r["objective"] for r in refs] +
                [x["objective"] for seeds in runs.values() for rows in seeds.values() for x in rows])
    out = {}
    for rule, seeds in runs.items():
        traces = list(seeds.values())
        epochs = min(len(t) for t in traces)
        mean = lambda key, f=lambda v: v: [sum(f(t[e][key]) for t in traces) / len(traces)
                                            for e in range(epochs)]
        out[rule] = {"epoch": [int(traces[0][e]["epoch"]) for e in range(epochs)],
                     "gap": mean("gap"), "subopt": mean("objective", lambda v: v - fstar),
                     "grad": mean("grad"), "seeds": len(traces)}
    return out, fstar, refs


STYLE = {"uniform": ("tab:blue", "-"), "importance": ("tab:orange", "--"),
         "gap-per-epoch": ("tab:green", "-"), "ada-gap": ("tab:red", "-"),
         "support-uniform": ("tab:purple", "-."), "adaptive": ("tab:brown", "-."),
         "ada-uniform": ("tab:pink", "-."), "cyclic": ("black", ":"), "perm": ("tab:gray", "-"),
         "gs-s": ("tab:olive", "--"), "gs-r": ("tab:cyan", "--"), "gs-q": ("navy", "--")}


def figure(name, title, panels, rules, png):
    runs, fstar, refs = load(name)
    fig, axes = plt.subplots(1, len(panels), figsize=(6 * len(panels), 4.8))
    floor = FLOOR * abs(fstar)
    for ax, (key, label) in zip(axes, panels):
        for rule in rules:
            if rule not in runs:
                continue
            r = runs[rule]
            colour, dash = STYLE[rule]
            seeds = f" ({r['seeds']} seeds)" if r["seeds"] > 1 else ""
            ax.semilogy(r["epoch"], [max(v, floor) for v in r[key]], dash, color=colour,
                        label=rule + seeds, lw=1.8)
        ax.set_xlabel("epochs (n coordinate steps)")
        ax.set_ylabel(label)
        ax.grid(True, which="major", alpha=0.4)
    axes[0].legend(fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(f"{dst}/{png}", dpi=110)
    plt.close(fig)
    return runs, fstar, refs


def first_below(values, level):
    for e, v in enumerate(values):
        if v <= level:
            return e + 1
    return None


def summary(name, runs, fstar, refs, rules, levels, marks):
    print(f"\n### {name}: f* = {fstar:.12g}\n")
    for r in refs:
        print(f"- reference {r['rule']}: {r['epoch']} epochs, f = {r['objective']:.12g}, "
              f"duality gap {r['gap']:.3g}")
    print()
    head = " | ".join(f"f - f* at epoch {m}" for m in marks)
    lv = " | ".join(f"epochs to f - f* <= {l:g} f*" for l in levels)
    print(f"| rule | seeds | {head} | gap at the last epoch | {lv} |")
    print("|---" * (3 + len(marks) + len(levels)) + "|")
    for rule in rules:
        if rule not in runs:
            continue
        r = runs[rule]
        at = " | ".join("%.3g" % r["subopt"][m - 1] if len(r["subopt"]) >= m else "-" for m in marks)
        hits = []
        for l in levels:
            hit = first_below(r["subopt"], l * abs(fstar))
            hits.append(str(hit) if hit else f"> {len(r['subopt'])}")
        print(f"| {rule} | {r['seeds']} | {at} | {r['gap'][-1]:.3g} | {' | '.join(hits)} |")


fig1 = ["uniform", "importance", "gap-per-epoch", "ada-gap", "support-uniform", "adaptive",
        "ada-uniform", "cyclic", "gs-s", "gs-r", "gs-q"]
panels = [("gap", "duality gap (21), mean over seeds"), ("subopt", "f(w) - f*, mean over seeds")]
print("## Lasso experiments (experiments/lasso.sh)")
primer = ["cyclic", "perm", "uniform", "gs-s", "gs-r", "gs-q"]
if os.path.exists(f"{src}/synthetic.csv"):
    runs, fstar, refs = figure(
        "synthetic", "Primer Figure 3: Lasso, Gaussian A 50 x 100, noise 1e-4, lambda = 1e3 (C = 500)",
        [("subopt", "f(x) - f*"), ("grad", "min-norm subgradient, ||.||_1"),
         ("gap", "duality gap (21)")], primer, "lasso_fig3_primer.png")
    summary("synthetic", runs, fstar, refs, primer, [1e-3, 1e-8], [10, 100, 500])
for name, title, png, marks in [
        ("rcv1_1000", "Lasso, rcv1* (983 x 1000 subsample of rcv1_small), C = 1.2 (lambda = 0.83)",
         "lasso_fig1_rcv1.png", [5, 20, 100]),
        ("agaricus", "Lasso, agaricus (mushrooms), lambda = 0.05 (C = 20)",
         "lasso_fig1_agaricus.png", [10, 50, 200])]:
    if not os.path.exists(f"{src}/{name}.csv"):
        continue
    runs, fstar, refs = figure(name, title, panels, fig1, png)
    summary(name, runs, fstar, refs, fig1, [1e-3, 1e-8], marks)
