#!/usr/bin/env python3
# Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
"""A what-if in a notebook's style: does HWP boost help pgbench on
Skylake?  Runs the seed 000 experiment (fewer iterations and a shorter
window than the file's, to stay quick), puts every run in a pandas
DataFrame, prints the comparison and draws transactions per second per
variant with matplotlib.

    python3 examples/python/what_if.py --out /tmp/what_if

Needs the schedsim package (`pip install .` from the checkout, or the Bazel
build on PYTHONPATH), pandas and matplotlib (Debian: python3-pandas,
python3-matplotlib).
"""

import argparse
import json
import os

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

import schedsim  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
EXPERIMENT = os.path.join(HERE, "..", "..", "experiments", "examples",
                          "seed000_hwp_boost_skylake.json")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="what_if")
    parser.add_argument("--experiment", default=EXPERIMENT)
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--duration-ms", type=int, default=100)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)

    with open(args.experiment) as f:
        experiment = json.load(f)
    experiment["duration_ms"] = args.duration_ms
    experiment["warmup_ms"] = min(experiment.get("warmup_ms", 0), 20)

    result = schedsim.run(experiment, iterations=args.iterations)
    runs = pd.DataFrame(result.iterations())
    print(runs.head())
    metric = result.json["metrics"][0]["name"]  # the model's first: tps
    table = pd.DataFrame(result.comparison())
    print(table[table["metric"] == metric][
        ["sweep_value", "variant", "amean", "diff_pct", "p_value"]])

    means = runs.groupby(["sweep_value", "variant"])[metric].mean().unstack()
    ax = means.plot(kind="bar", rot=0)
    ax.set_xlabel(result.json["sweep"]["param"] if result.json["sweep"]
                  else "")
    ax.set_ylabel(metric)
    ax.set_title(f"{experiment['machine']}: {metric} by variant "
                 f"({args.iterations} iterations)")
    plt.tight_layout()
    path = os.path.join(args.out, "what_if.png")
    plt.savefig(path)
    runs.to_csv(os.path.join(args.out, "runs.csv"), index=False)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
