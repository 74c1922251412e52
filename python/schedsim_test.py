# Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
"""Tests of the schedsim Python package (run by //python:python_test)."""

import unittest

import pandas as pd

import schedsim

SMALL = {
    "machine": "skylake-e3-1240v5",
    "workload": {"model": "hackbench", "params": {"groups": 1}},
    "sweep": {"param": "fds", "values": [2, 4]},
    "iterations": 2,
    "duration_ms": 10,
    "variants": [{"name": "menu", "cpuidle": "menu"},
                 {"name": "teo", "cpuidle": "teo"}],
}


class MachinesAndPolicies(unittest.TestCase):

    def test_machines(self):
        self.assertIn("skylake-e3-1240v5", schedsim.machines())
        m = schedsim.machine("juno-r0")
        self.assertEqual(m["schema_version"], 1)
        cpus = pd.DataFrame(m["cpus"])
        self.assertEqual(list(cpus["capacity"]), [446, 1024, 1024, 446, 446, 446])
        hybrid = schedsim.machine(hwloc="tests/data/hybrid_cpukinds.xml")
        self.assertEqual(hybrid["cpus"][4]["capacity"], 763)
        with self.assertRaises(ValueError):
            schedsim.machine()
        with self.assertRaises(schedsim.SchedsimError):
            schedsim.machine("no-such-machine")

    def test_policies_and_models(self):
        policies = pd.DataFrame(schedsim.policies())
        self.assertIn("schedutil",
                      set(policies[policies["family"] == "cpufreq"]["name"]))
        self.assertIn("menu", set(policies["name"]))
        models = {m["name"] for m in schedsim.workload_models()}
        self.assertTrue({"hackbench", "pgbench", "rtapp"} <= models)
        self.assertIn("hz", schedsim.config_keys())


class Runs(unittest.TestCase):

    def test_run_iterations_are_a_dataframe(self):
        result = schedsim.run(SMALL, jobs=1)
        df = pd.DataFrame(result.iterations())
        # 2 sweep values x 2 variants x 2 iterations.
        self.assertEqual(len(df), 8)
        self.assertEqual(set(df["variant"]), {"menu", "teo"})
        self.assertEqual(set(df["sweep_value"]), {2, 4})
        self.assertTrue((df["messages_per_s"] > 0).all())
        comparison = pd.DataFrame(result.comparison())
        self.assertIn("diff_pct", comparison.columns)
        reports = pd.DataFrame(result.reports())
        self.assertEqual(len(reports), 8)
        # The same seed gives the same runs.
        again = pd.DataFrame(schedsim.run(SMALL, jobs=1).iterations())
        pd.testing.assert_frame_equal(df, again)

    def test_run_errors_raise(self):
        bad = dict(SMALL, machine="no-such-machine")
        with self.assertRaises(schedsim.SchedsimError) as e:
            schedsim.run(bad)
        self.assertIn("no-such-machine", str(e.exception))

    def test_simulate_records(self):
        r = schedsim.simulate("skylake-e3-1240v5", "hackbench",
                              {"groups": 1}, duration_ms=20, seed=3)
        cpus = pd.DataFrame(r["cpus"])
        self.assertEqual(len(cpus), 8)
        self.assertIn("busy_pct", cpus.columns)
        self.assertTrue(any(c.endswith("_time_ns") for c in cpus.columns))
        metrics = pd.DataFrame(r["model_metrics"])
        self.assertIn("messages_per_s", set(metrics["metric"]))
        self.assertGreater(r["schedstats"]["wakeups"], 0)
        tasks = pd.DataFrame(r["tasks"])
        self.assertGreater(tasks["run_ns"].sum(), 0)
        with self.assertRaises(ValueError):
            schedsim.simulate("skylake-e3-1240v5", "no_such_model")

    def test_trace_records(self):
        events = pd.DataFrame(schedsim.trace(
            SMALL, variant="teo", window_ms=(2, 6), cpus="0-3",
            iterations=1))
        self.assertGreater(len(events), 10)
        self.assertTrue(events["time_ns"].between(2e6, 6e6).all())
        on_cpu = events[events["event"].isin(["switch", "idle",
                                              "frequency_khz"])]
        self.assertTrue(on_cpu["cpu"].between(0, 3).all())
        self.assertIn("switch", set(events["event"]))


if __name__ == "__main__":
    unittest.main()
