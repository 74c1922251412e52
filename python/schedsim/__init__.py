# Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
"""schedsim for Python: machines, policies, what-if experiments,
simulations, traces and validation, with results as records (lists of
dicts) that pandas.DataFrame takes as they are.

    import pandas as pd
    import schedsim

    result = schedsim.run("experiments/examples/seed000_hwp_boost_skylake.json",
                          iterations=2)
    df = pd.DataFrame(result.iterations())   # one row per run
    df.groupby(["variant"])["tps"].mean()

The C++ library (include/schedsim/, docs/library.md) does the work: the
extension module schedsim._schedsim binds it with pybind11. docs/library.md,
"Python", describes every function.
"""

import csv
import json
import os
import sys
import tempfile

# libhwloc loads its XML parser (libxml2) as a plugin that needs libhwloc's
# own symbols: visible only when the extension (which links libhwloc) is
# loaded RTLD_GLOBAL. Without it hwloc falls back to its minimal parser,
# which refuses ordinary files (comments, DOCTYPE).
_flags = sys.getdlopenflags()
sys.setdlopenflags(_flags | os.RTLD_GLOBAL)
try:
    from schedsim import _schedsim
finally:
    sys.setdlopenflags(_flags)

__all__ = [
    "SchedsimError", "machines", "machine", "policies", "workload_models",
    "config_keys", "run", "RunResult", "simulate", "SimResult", "trace",
    "validate", "cli",
]

SCHEMA_VERSION = 1  # the result JSON layout this package reads


class SchedsimError(RuntimeError):
    """A schedsim command failed; the message is its stderr."""

    def __init__(self, message, code=1):
        super().__init__(message)
        self.code = code


def cli(*args):
    """Runs `schedsim ARGS` in this process: (exit code, stdout, stderr)."""
    return _schedsim.cli([str(a) for a in args])


def _json_command(*args):
    code, out, err = cli(*args)
    if code != 0:
        raise SchedsimError(err.strip(), code)
    doc = json.loads(out)
    version = doc.get("schema_version")
    if version is not None and version > SCHEMA_VERSION:
        raise SchedsimError(
            f"schedsim wrote schema_version {version}; this package reads "
            f"{SCHEMA_VERSION}")
    return doc


def machines():
    """The built-in machines' names."""
    return list(_schedsim.preset_machines())


def _machine_flags(name=None, sysfs=None, hwloc=None, power_model=None):
    given = [x for x in (name, sysfs, hwloc) if x is not None]
    if len(given) != 1:
        raise ValueError("give exactly one of name, sysfs and hwloc")
    flags = []
    if name is not None:
        flags.append(f"--machine={name}")
    if sysfs is not None:
        flags.append(f"--sysfs={sysfs}")
    if hwloc is not None:
        flags.append(f"--hwloc={hwloc}")
    if power_model is not None:
        flags.append(f"--power-model={power_model}")
    return flags


def machine(name=None, sysfs=None, hwloc=None, power_model=None):
    """A machine (built-in, or imported from a sysfs tree or an hwloc XML)
    as `schedsim topology --format=json` describes it: a dict whose "cpus"
    (place and capacity per CPU), "nodes", "cstates" and "domains" are
    records."""
    return _json_command("topology", *_machine_flags(
        name, sysfs, hwloc, power_model), "--format=json")


def policies():
    """Every registered policy (`schedsim policies`): records of family,
    name, description and params (one line of text per parameter)."""
    code, out, err = cli("policies")
    if code != 0:
        raise SchedsimError(err.strip(), code)
    records = []
    family = None
    current = None
    for line in out.splitlines():
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip(" "))
        if indent == 0:
            family = line.strip().rstrip(":")
        elif indent == 2:
            current = {"family": family, "name": line.strip(),
                       "description": "", "params": []}
            records.append(current)
        elif current is not None and not current["description"]:
            current["description"] = line.strip()
        elif current is not None:
            current["params"].append(line.strip())
    return records


def workload_models():
    """Every registered workload model: name, description, metrics."""
    return list(_schedsim.workload_models())


def config_keys():
    """The model parameters a simulation's `config` takes."""
    return list(_schedsim.config_keys())


def _experiment_file(experiment, workdir):
    if isinstance(experiment, dict):
        path = os.path.join(workdir, "experiment.json")
        with open(path, "w") as f:
            json.dump(experiment, f)
        return path
    return os.fspath(experiment)


class RunResult:
    """What `run` returns: the result JSON (`json`,
    docs/experiments-results.md) and its tables as records."""

    def __init__(self, doc, stderr):
        self.json = doc
        self.stderr = stderr
        self.warnings = [l.split("warning: ", 1)[1]
                         for l in stderr.splitlines() if "warning: " in l]

    def iterations(self):
        """One record per run: sweep_value, variant, iteration, seed and
        each metric of the workload model."""
        records = []
        for point in self.json["points"]:
            for variant, v in point["variants"].items():
                for run in v["runs"]:
                    r = {"sweep_value": point["sweep_value"],
                         "variant": variant,
                         "iteration": run["iteration"],
                         "seed": run["seed"]}
                    r.update(run["metrics"])
                    records.append(r)
        return records

    def comparison(self):
        """One record per (sweep value, variant, metric): the summary
        statistics and the difference against the baseline."""
        records = []
        for point in self.json["points"]:
            for variant, v in point["variants"].items():
                for metric, m in v["metrics"].items():
                    r = {"sweep_value": point["sweep_value"],
                         "variant": variant, "metric": metric,
                         "unit": m["unit"]}
                    r.update(m["summary"])
                    for key in ("diff_pct", "p_value", "significant"):
                        r[key] = m[key]
                    records.append(r)
        return records

    def reports(self):
        """One record per run of its report's numbers (C0 and C-state
        residency, frequency, energy, placement schedstats)."""
        records = []
        for point in self.json["points"]:
            for variant, v in point["variants"].items():
                for run in v["runs"]:
                    r = {"sweep_value": point["sweep_value"],
                         "variant": variant, "iteration": run["iteration"]}
                    _flatten("", run["report"], r)
                    records.append(r)
        return records


def _flatten(prefix, value, out):
    """Scalars of nested dicts as "a.b.c" keys; lists are left out."""
    if isinstance(value, dict):
        for k, v in value.items():
            _flatten(f"{prefix}.{k}" if prefix else str(k), v, out)
    elif isinstance(value, (int, float, str, bool)) or value is None:
        out[prefix] = value


def run(experiment, iterations=None, seed=None, jobs=0, defines=None):
    """Runs a what-if experiment (a file path, or a dict in the experiment
    file format, docs/experiments.md) as `schedsim run` does; returns a
    RunResult. Raises SchedsimError with the command's message."""
    with tempfile.TemporaryDirectory() as workdir:
        args = ["run", _experiment_file(experiment, workdir),
                "--format=json", f"--jobs={jobs}"]
        if iterations is not None:
            args.append(f"--iterations={iterations}")
        if seed is not None:
            args.append(f"--seed={seed}")
        for key, value in (defines or {}).items():
            args.append(f"--define={key}={value}")
        code, out, err = cli(*args)
        if code != 0:
            raise SchedsimError(err.strip(), code)
        return RunResult(json.loads(out), err)


def trace(experiment, variant=0, iteration=0, window_ms=None, cpus=None,
          iterations=None):
    """The per-event records of one traced run (`schedsim run
    --trace=csv`): time_ns, event, cpu, task, arg1, arg2, and the task's
    name. `variant` is an index or a name; `window_ms` a (from, to) pair of
    simulated milliseconds; `cpus` a kernel cpulist ("0-15")."""
    with tempfile.TemporaryDirectory() as workdir:
        path = _experiment_file(experiment, workdir)
        args = ["run", path, "--format=csv", "--jobs=1", "--trace=csv",
                f"--trace-iteration={iteration}", f"--out={workdir}"]
        if iterations is not None:
            args.append(f"--iterations={iterations}")
        if window_ms is not None:
            args.append(f"--trace-window={window_ms[0]}:{window_ms[1]}")
        if cpus is not None:
            args.append(f"--trace-cpus={cpus}")
        code, _, err = cli(*args)
        if code != 0:
            raise SchedsimError(err.strip(), code)
        traces = sorted(f for f in os.listdir(workdir)
                        if f.startswith("trace-") and f.endswith(".csv"))
        names = [f[len("trace-"):-len(".csv")] for f in traces]
        if isinstance(variant, int):
            with open(path) as f:
                variant = json.load(f)["variants"][variant]["name"]
        if variant not in names:
            raise ValueError(f"no variant {variant!r}; have {names}")
        records = []
        task_names = {}
        with open(os.path.join(workdir, f"trace-{variant}.csv")) as f:
            for row in csv.DictReader(f):
                if row["event"] == "task_name":
                    task_names[row["task"]] = row["arg1"]
                    continue
                rec = {"time_ns": int(row["time_ns"]), "event": row["event"]}
                for key in ("cpu", "task", "arg1", "arg2"):
                    rec[key] = int(row[key]) if row[key] != "" else None
                rec["name"] = task_names.get(row["task"])
                records.append(rec)
        return records


class SimResult(dict):
    """What `simulate` returns: a dict (machine, policies, duration_s,
    busy_pct, energy_j, ...) whose "model_metrics", "cpus" (per-CPU busy
    time, idle-state residencies <state>_time_ns, average frequency) and
    "tasks" are records, and "schedstats" the wake-up path's counters."""


def simulate(machine="skylake-e3-1240v5", model="hackbench", params=None,
             duration_ms=100.0, warmup_ms=0.0, seed=1, cpufreq="", cpuidle="",
             placement="", config=None):
    """One simulation of a workload model on a built-in machine (the C++
    schedsim::Simulate). Empty policy names take the machine's defaults."""
    return SimResult(_schedsim.simulate(
        machine, model, params or {}, float(duration_ms), float(warmup_ms),
        int(seed), cpufreq, cpuidle, placement, config or {}))


def validate(only=None, tier="quick", jobs=0, seed=None):
    """The validation scoreboard (`schedsim validate --format=json`): a
    dict with "rows" (records: id, verdict, published and simulated
    change...) and "summary"."""
    args = ["validate", "--format=json", f"--tier={tier}", f"--jobs={jobs}"]
    if only is not None:
        args.append(f"--only={only}")
    if seed is not None:
        args.append(f"--seed={seed}")
    return _json_command(*args)
