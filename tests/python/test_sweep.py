# SPDX-License-Identifier: BSD-3-Clause
"""Parameter sweeps: the cases, local processes against a serial run, a Dask LocalCluster with two
workers against the same sweep run serially (also when a worker is killed mid-sweep), failed
cases recorded with their message, and kinetree-cli sweep."""
import csv
import os
import signal
import tempfile
import unittest

import kinetree
from kinetree.sweep import make_cases
from support import cli, example

# 200 cases of the pendulum: 20 release angles x 10 densities, 0.5 s each
GRID = {
    "bodies[link].joint.q0[0]": [0.05 * k for k in range(1, 21)],
    "bodies[link].inertial.density": [1000.0 * k for k in range(1, 11)],
}
RUN = {"duration": 0.5, "step": 0.001}


def same_rows(test, a, b):
    test.assertEqual(len(a.rows), len(b.rows))
    for x, y in zip(a.rows, b.rows):
        test.assertEqual(x, y)


class TestCases(unittest.TestCase):
    def test_grid_and_random_sample(self):
        grid = make_cases({"a": [1, 2], "b": [10, 20, 30]})
        self.assertEqual(len(grid), 6)
        self.assertEqual(grid[0], {"a": 1.0, "b": 10.0})
        sample = make_cases({"a": (0, 1), "b": [5, 6]}, samples=50, seed=4)
        self.assertEqual(sample, make_cases({"a": (0, 1), "b": [5, 6]}, samples=50, seed=4))
        self.assertTrue(all(0 <= c["a"] <= 1 and c["b"] in (5, 6) for c in sample))
        with self.assertRaisesRegex(ValueError, "a range needs samples="):
            make_cases({"a": (0, 1)})


class TestLocal(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.model = kinetree.load(example("pendulum.yaml"))
        cls.serial = kinetree.sweep(cls.model, GRID, processes=1, **RUN)

    def test_summaries(self):
        self.assertEqual(len(self.serial), 200)
        self.assertEqual(self.serial.failures, [])
        row = self.serial.rows[37]
        self.assertEqual(row["case"], 37)
        self.assertEqual(row["bodies[link].joint.q0[0]"], GRID["bodies[link].joint.q0[0]"][3])
        # a case's summary is that of the same run done by hand
        edited = self.model.copy()
        for path in GRID:
            edited.set(path, row[path])
        run = kinetree.simulate(edited, signals="time", **RUN)
        hinge = next(p for p in kinetree.peaks(run) if p["joint"] == "hinge")
        self.assertEqual(row["peak_force:hinge"], hinge["force"])
        self.assertEqual(row["peak_moment:hinge"], hinge["moment"])
        self.assertEqual(row["final.q:hinge[0]"], run.final_q[0])
        self.assertEqual(row["energy_drift"], run.energy_end - run.energy_start)
        # the heaviest pendulum released highest loads the hinge most
        worst = {w["joint"]: w for w in self.serial.worst()}
        self.assertEqual(worst["hinge"]["force_case"], 199)

    def test_processes_equal_serial(self):
        same_rows(self, kinetree.sweep(self.model, GRID, processes=2, **RUN), self.serial)

    def test_failed_cases_are_recorded(self):
        # the double pendulum with Euler steps of 0.1 s diverges (NaN at t = 1.8 s); a negative
        # mass is rejected by the model
        model = kinetree.load(example("double_pendulum.yaml"))
        cases = {"bodies[lower].inertial.mass": [0.8, -1.0], "simulation.step": [0.001, 0.1]}
        result = kinetree.sweep(model, cases, processes=1, integrator="euler", duration=5)
        by_case = {(r["bodies[lower].inertial.mass"], r["simulation.step"]): r for r in result.rows}
        self.assertEqual(by_case[(0.8, 0.001)]["status"], "ok")
        invalid = by_case[(-1.0, 0.001)]
        self.assertEqual(invalid["status"], "failed")
        self.assertIn("bodies[1].inertial.mass: must be > 0, got -1", invalid["message"])
        diverged = by_case[(0.8, 0.1)]
        self.assertEqual(diverged["status"], "failed")
        self.assertIn("solver aba: qdd:shoulder[0] is NaN", diverged["message"])
        self.assertLess(diverged["final_time"], 5)
        self.assertEqual(len(result.failures), 3)
        self.assertIn("3 failed", result.report())

    def test_table_file(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "sweep.csv")
            self.serial.write(path)
            with open(path) as f:
                rows = list(csv.DictReader(f))
            self.assertEqual(len(rows), 200)
            self.assertEqual(float(rows[5]["peak_force:hinge"]), self.serial.rows[5]["peak_force:hinge"])
            self.assertEqual(os.listdir(d), ["sweep.csv"])


class TestDask(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise unittest.SkipTest("python3-distributed is not installed")
        cls.cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
        cls.client = Client(cls.cluster)
        cls.model = kinetree.load(example("pendulum.yaml"))
        cls.serial = kinetree.sweep(cls.model, GRID, processes=1, **RUN)

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        cls.cluster.close()

    def test_local_cluster_equals_serial(self):
        same_rows(self, kinetree.sweep(self.model, GRID, client=self.client, **RUN), self.serial)

    def test_a_lost_worker_loses_no_case(self):
        pids = self.client.run(os.getpid)  # worker address -> process id
        killed = []

        def kill_one(row):
            if len(killed) == 0:
                victim = sorted(pids.values())[0]
                os.kill(victim, signal.SIGKILL)
                killed.append(victim)

        result = kinetree.sweep(self.model, GRID, client=self.client, batch_size=2, on_result=kill_one, **RUN)
        self.assertEqual(len(killed), 1)
        same_rows(self, result, self.serial)
        self.client.wait_for_workers(2, timeout=60)  # the nanny restarts it for the next test


class TestCommandLine(unittest.TestCase):
    def test_sweep_file(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "pendulum.csv")
            run = cli("sweep", example("sweeps/pendulum_release.yaml"), "--processes", "2", "-o", out)
            self.assertIn("6 cases, 0 failed", run.stdout)
            self.assertIn("hinge", run.stdout)
            with open(out) as f:
                self.assertEqual(len(list(csv.DictReader(f))), 6)
            bad = os.path.join(d, "bad.yaml")
            with open(bad, "w") as f:
                f.write("model: ../nowhere.yaml\nparameters:\n  gravity[2]: [1]\nrun: {durtion: 1}\n")
            failed = cli("sweep", bad, check=False)
            self.assertNotEqual(failed.returncode, 0)
            self.assertIn("run: unknown key 'durtion'", failed.stderr)


if __name__ == "__main__":
    unittest.main()
