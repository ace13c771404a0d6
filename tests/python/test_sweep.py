# SPDX-License-Identifier: BSD-3-Clause
"""Parameter sweeps: the cases (made as they are needed), local processes against a serial run
(also when a worker process dies), a Dask LocalCluster with two workers against the same sweep
run serially (also when a worker is killed mid-sweep), failed cases recorded with their message,
and kinetree-cli sweep (its messages, its output checked before and kept after)."""
import contextlib
import csv
import errno
import io
import itertools
import os
import signal
import subprocess
import sys
import tempfile
import time
import tracemalloc
import unittest

import kinetree
from kinetree.__main__ import main as sweep_command
from kinetree.sweep import SweepResult, count_cases, iter_cases, make_cases
from support import cli, example

# the module, not the function kinetree.sweep that the package exports under the same name
sweep_module = sys.modules["kinetree.sweep"]

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
        with self.assertRaisesRegex(ValueError, "a: a range needs samples"):
            make_cases({"a": (0, 1)})

    def test_values_that_are_not_numbers_name_the_parameter(self):
        nan = float("nan")
        for parameters, samples, message in [
            ({"gravity[2]": 9.81}, None, r"gravity\[2\]: expected a list of values \(\[1, 2, 3\]\), got 9.81"),
            ({"gravity[2]": "ten"}, None, r"gravity\[2\]: expected a list of values .*, got 'ten'"),
            ({"gravity[2]": [1, "two"]}, None, r"gravity\[2\]: expected finite numbers in the list, got 'two'"),
            ({"gravity[2]": [1, nan]}, None, r"gravity\[2\]: expected finite numbers in the list, got nan"),
            ({"gravity[2]": []}, None, r"gravity\[2\]: no values"),
            ({"gravity[2]": (nan, 1)}, 5, r"gravity\[2\]: a range needs a finite number as low, got nan"),
            ({"gravity[2]": {"low": 0, "high": nan}}, 5, r"a range needs a finite number as high, got nan"),
            ({"gravity[2]": (2, 1)}, 5, r"a range needs low <= high, got low = 2, high = 1"),
            ({"gravity[2]": (0, 1)}, "ten", r"samples: expected a positive whole number of cases, got 'ten'"),
            ({"gravity[2]": (0, 1)}, 0, r"samples: expected a positive whole number of cases, got 0"),
        ]:
            with self.assertRaisesRegex(ValueError, message):
                make_cases(parameters, samples)

    def test_cases_are_made_as_they_are_taken(self):
        # 10^12 grid cases and 10^9 random ones: counted at once, the first ones taken at once, in
        # the memory of a few cases (a list of them would need terabytes)
        axis = list(range(1000))
        grid = {name: axis for name in "abcd"}
        sample = {"a": (0, 1), "b": [1, 2, 3]}
        self.assertEqual(count_cases(grid), 10**12)
        self.assertEqual(count_cases(sample, samples=10**9), 10**9)
        tracemalloc.start()
        try:
            started = time.monotonic()
            first = list(itertools.islice(iter_cases(grid), 5))
            drawn = list(itertools.islice(iter_cases(sample, samples=10**9, seed=3), 10000))
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        self.assertLess(time.monotonic() - started, 2)
        self.assertLess(peak, 20_000_000)
        self.assertEqual(first[4], {"a": 0.0, "b": 0.0, "c": 0.0, "d": 4.0})
        # the same seed gives the same cases however many are taken
        self.assertEqual(drawn[:5000], list(itertools.islice(iter_cases(sample, samples=10**6, seed=3), 5000)))
        self.assertEqual(make_cases(sample, samples=5000, seed=3), drawn[:5000])
        self.assertEqual(make_cases(sample, samples=10, seed=3), drawn[:10])


class TestLocal(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.model = kinetree.load(example("pendulum.yaml"))
        cls.serial = kinetree.sweep(cls.model, GRID, processes=1, **RUN)

    def test_a_killed_writer_leaves_nothing_behind(self):
        # a writer killed (kill -9) before its rename leaves NAME.kinetree-partial-PID-XXXXXX;
        # the next write into the folder removes it, and leaves those of live processes alone
        with tempfile.TemporaryDirectory() as d:
            child = subprocess.Popen([sys.executable, "-c", "pass"])
            child.wait()
            stale = os.path.join(d, f"out.csv.kinetree-partial-{child.pid}-abc123")
            live = os.path.join(d, f"other.csv.kinetree-partial-{os.getppid()}-abc123")
            for name in (stale, live):
                with open(name, "w") as f:
                    f.write("half a table")
            self.serial.write(os.path.join(d, "out.csv"))
            self.assertEqual(sorted(os.listdir(d)), sorted(["out.csv", os.path.basename(live)]))

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
        self.assertIn("bodies[lower].inertial.mass: must be > 0, got -1", invalid["message"])
        diverged = by_case[(0.8, 0.1)]
        self.assertEqual(diverged["status"], "failed")
        self.assertIn("solver aba: qdd:shoulder[0] is NaN", diverged["message"])
        self.assertLess(diverged["final_time"], 5)
        self.assertEqual(len(result.failures), 3)
        self.assertIn("3 failed", result.report())

    def test_a_sweep_of_millions_of_cases_starts_at_once(self):
        # before, the 10^8 cases were made (and batched) before the first ran: minutes and gigabytes
        class Enough(Exception):
            pass

        def stop(row):
            raise Enough()

        huge = {"bodies[link].joint.q0[0]": [0.001 * k for k in range(1, 10001)],
                "bodies[link].inertial.density": list(range(1000, 11000))}
        for processes in (1, 2):
            tracemalloc.start()
            started = time.monotonic()
            try:
                with self.assertRaises(Enough):
                    kinetree.sweep(self.model, huge, processes=processes, on_result=stop, **RUN)
                peak = tracemalloc.get_traced_memory()[1]
            finally:
                tracemalloc.stop()
            self.assertLess(time.monotonic() - started, 10, processes)
            self.assertLess(peak, 50_000_000, processes)

    def test_a_worker_process_that_dies_loses_no_case(self):
        # a case kills its own worker process (as the OOM killer or kill -9 would) the first time
        # it runs; the worker functions are inherited by the forked worker processes
        run_case = sweep_module.run_case
        with tempfile.TemporaryDirectory() as d:
            marker = os.path.join(d, "killed")

            def dies_once(model, index, case, run):
                if index == 37 and not os.path.exists(marker):
                    open(marker, "w").close()
                    os.kill(os.getpid(), signal.SIGKILL)
                return run_case(model, index, case, run)

            sweep_module.run_case = dies_once
            try:
                result = kinetree.sweep(self.model, GRID, processes=2, **RUN)
            finally:
                sweep_module.run_case = run_case
            self.assertTrue(os.path.exists(marker))
        same_rows(self, result, self.serial)

    def test_a_case_that_always_kills_its_worker_is_a_failed_row(self):
        run_case = sweep_module.run_case

        def dies(model, index, case, run):
            if index == 37:
                os.kill(os.getpid(), signal.SIGKILL)
            return run_case(model, index, case, run)

        sweep_module.run_case = dies
        try:
            result = kinetree.sweep(self.model, GRID, processes=2, batch_size=10, **RUN)
        finally:
            sweep_module.run_case = run_case
        self.assertEqual(len(result), 200)
        self.assertEqual([r["case"] for r in result.failures], [37])
        self.assertIn("the worker process died running case 37 (2 times", result.failures[0]["message"])
        self.assertEqual(result.rows[:37], self.serial.rows[:37])
        self.assertEqual(result.rows[38:], self.serial.rows[38:])

    def test_run_settings_are_checked_before_the_cases(self):
        # before, duration = -1 ran every case for the model's 10 s
        for given, message in [({"duration": -1}, "duration: must be > 0, got -1"),
                               ({"step": float("nan")}, "step: must be a finite number, got .nan"),
                               ({"tolerance": 0}, "tolerance: must be > 0, got 0")]:
            with self.assertRaisesRegex(ValueError, message):
                kinetree.sweep(self.model, GRID, processes=1, **given)

    def test_a_path_that_names_nothing_is_refused_before_the_cases(self):
        # before, each case failed with the same message (and the sweep of a million cases ran them all)
        with self.assertRaisesRegex(ValueError, r"parameter bodies\[lnk\]\.inertial\.mass: no body is named 'lnk' "
                                                r"\(did you mean 'link'\?\)"):
            kinetree.sweep(self.model, {"bodies[lnk].inertial.mass": [1.0, 2.0]}, processes=1, **RUN)

    def test_a_noise_peak_is_no_worst_case(self):
        # a planar pendulum's moments are rounding noise: the report shows "-", not a "worst" case
        report = self.serial.report()
        hinge = next(line for line in report.splitlines() if line.strip().startswith("hinge"))
        self.assertRegex(hinge, r"\|M\| +-$")
        self.assertIn("(case 199)", hinge)

    def test_a_model_with_meshes_sweeps_from_anywhere(self):
        # the workers read the model as text with its file's directory: mesh paths resolve from
        # there, not from the working directory (before, every case failed as a dead worker)
        with tempfile.TemporaryDirectory() as d:
            os.mkdir(os.path.join(d, "meshes"))
            with open(os.path.join(d, "meshes", "tetra.stl"), "w") as f:
                f.write("solid t\n")
                for a, b, c in [((0, 0, 0), (0, 1, 0), (1, 0, 0)), ((0, 0, 0), (1, 0, 0), (0, 0, 1)),
                                ((0, 0, 0), (0, 0, 1), (0, 1, 0)), ((1, 0, 0), (0, 1, 0), (0, 0, 1))]:
                    f.write("facet normal 0 0 0\nouter loop\n")
                    for v in (a, b, c):
                        f.write("vertex %g %g %g\n" % tuple(0.1 * x for x in v))
                    f.write("endloop\nendfacet\n")
                f.write("endsolid t\n")
            with open(example("pendulum.yaml")) as f:
                text = f.read()
            text = text.replace("{type: box, size: [0.08, 0.3, 0.08]", "{type: mesh, file: meshes/tetra.stl")
            path = os.path.join(d, "mesh_pendulum.yaml")
            with open(path, "w") as f:
                f.write(text)
            model = kinetree.load(path)
            self.assertEqual(model.source_directory, d)
            with self.assertRaisesRegex(kinetree.ModelError, "meshes/tetra.stl"):
                kinetree.loads(text, "mesh_pendulum.yaml")  # from the working directory: not there
            self.assertEqual(kinetree.loads(text, "mesh_pendulum.yaml", d).source_directory, d)
            grid = {"bodies[link].joint.q0[0]": [0.1, 0.2, 0.3, 0.4]}
            for processes in (1, 2):
                result = kinetree.sweep(model, grid, processes=processes, duration=0.05, step=0.001)
                self.assertEqual([row["status"] for row in result.rows], ["ok"] * 4, result.rows[0]["message"])

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

    def test_ratings_reached_are_reported_and_give_status_3(self):
        # as kinetree-cli peaks warns of one run: before, a sweep whose every case overloaded a rated
        # joint reported nothing of it and exited 0
        with tempfile.TemporaryDirectory() as d:
            model = kinetree.load(example("pendulum.yaml"))
            model.set("bodies[link].joint.rating.force", 200.0)  # reached when released from high up
            with open(os.path.join(d, "rated.yaml"), "w") as f:
                f.write(model.to_yaml())
            spec = os.path.join(d, "spec.yaml")
            with open(spec, "w") as f:
                f.write("model: rated.yaml\nparameters:\n  bodies[link].joint.q0[0]: [0.1, 1.6]\n"
                        "run: {step: 0.001, duration: 2}\n")
            run = cli("sweep", spec, "--processes", "1", check=False)
            self.assertEqual(run.returncode, 3, run.stderr)
            self.assertIn("load ratings reached (utilisation >= 100 %):\n  hinge: in 1 of 2 cases; at most ", run.stdout)
            self.assertIn("(case 1)", run.stdout)

    def spec(self, d, text, name="spec.yaml"):
        path = os.path.join(d, name)
        with open(path, "w") as f:
            f.write(f"model: {example('pendulum.yaml')}\n" + text)
        return path

    def test_spec_messages_name_the_line(self):
        with tempfile.TemporaryDirectory() as d:
            for text, message in [
                ("parameters:\n  gravity[2]: 9.81\n",
                 ":3:15: error: parameters: gravity[2]: expected a list of values ([1, 2, 3]), got 9.81"),
                ("parameters:\n  gravity[2]: [1, 2]\nsamples: ten\n",
                 ":4:10: error: samples: expected a positive whole number of cases, got 'ten'"),
                ("parameters:\n  gravity[2]: {low: .nan, high: 1}\nsamples: 4\n",
                 ":3:15: error: parameters: gravity[2]: a range needs a finite number as low, got nan"),
                ("parameters:\n  gravity[2]: [1, 2]\nrun:\n  step: 0.001\n  duration: -1\n",
                 ":6:13: error: run: duration: must be > 0, got -1"),
                ("parameters:\n  gravity[2]: [1, 2]\nrun: {tolerance: .nan}\n",
                 ":4:18: error: run: tolerance: must be a finite number, got .nan"),
                ("parameters: [gravity]\n", ":2:13: error: parameters: expected a mapping of model fields to values"),
                ("parameters:\n  gravity[2]: [1]\n  gravity[2]: [2]\n", ":4:3: error: duplicate key 'gravity[2]'"),
                ("parameters:\n  bodies[lnk].inertial.density: [2700, 7800]\n",
                 ":3:33: error: parameters: bodies[lnk].inertial.density: no body is named 'lnk' (did you mean "
                 "'link'?)"),
            ]:
                path = self.spec(d, text)
                run = cli("sweep", path, check=False)
                self.assertEqual(run.returncode, 1, text)
                self.assertEqual(run.stderr.strip(), path + message, text)

    def test_huge_sweeps_are_refused_without_max_cases(self):
        with tempfile.TemporaryDirectory() as d:
            axis = "[" + ", ".join(str(k) for k in range(100)) + "]"
            path = self.spec(d, f"parameters:\n  gravity[0]: {axis}\n  gravity[1]: {axis}\n  gravity[2]: {axis}\n"
                                f"  bodies[link].inertial.density: {axis}\n")
            started = time.monotonic()
            run = cli("sweep", path, check=False)
            self.assertEqual(run.returncode, 1)
            self.assertIn("the sweep has 100,000,000 cases, more than --max-cases 1,000,000", run.stderr)
            self.assertLess(time.monotonic() - started, 20)
            small = self.spec(d, "parameters:\n  gravity[2]: [-9, -10, -11]\nrun: {duration: 0.1}\n", "small.yaml")
            self.assertIn("more than --max-cases 2", cli("sweep", small, "--max-cases", "2", check=False).stderr)
            ran = cli("sweep", small, "--processes", "1")
            self.assertIn("sweep: 3 cases on 1 process", ran.stderr)

    def test_an_output_that_cannot_be_written_is_refused_before_the_sweep(self):
        with tempfile.TemporaryDirectory() as d:
            path = self.spec(d, "parameters:\n  gravity[2]: [-9, -10]\nrun: {duration: 0.1}\n")
            plain = os.path.join(d, "plain.txt")
            open(plain, "w").close()
            for output, message in [
                (d, f"{d}: is a folder; expected the table's file name"),
                (os.path.join(d, "missing", "out.csv"), f"cannot write the table: {os.path.join(d, 'missing')} does not exist"),
                (os.path.join(plain, "out.csv"), f"cannot write the table: {plain} is not a folder"),
            ]:
                run = cli("sweep", path, "-o", output, check=False)
                self.assertEqual(run.returncode, 1, output)
                self.assertIn(message, run.stderr)
                self.assertNotIn("Traceback", run.stderr)
                self.assertNotIn("cases,", run.stdout)  # refused before the sweep ran

    def test_a_table_that_cannot_be_written_is_kept(self):
        # the disk fills up while the sweep runs: the table goes to a file of its own
        write = SweepResult.write
        with tempfile.TemporaryDirectory() as d:
            path = self.spec(d, "parameters:\n  gravity[2]: [-9, -10, -11]\nrun: {duration: 0.1}\n")
            output = os.path.join(d, "out.csv")

            def full_disk(result, target):
                if target == output:
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), target)
                write(result, target)

            SweepResult.write = full_disk
            saved_tempdir = tempfile.tempdir
            tempfile.tempdir = d
            stderr, stdout = io.StringIO(), io.StringIO()
            try:
                with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(stdout):
                    status = sweep_command(["sweep", path, "-o", output, "--processes", "1"])
            finally:
                SweepResult.write = write
                tempfile.tempdir = saved_tempdir
            self.assertEqual(status, 1)
            self.assertIn("3 cases, 0 failed", stdout.getvalue())
            self.assertFalse(os.path.exists(output))
            kept = [name for name in os.listdir(d) if name.startswith("kinetree-sweep-out-")]
            self.assertEqual(len(kept), 1)
            self.assertIn(f"cannot write {output}: No space left on device; the table is kept in "
                          f"{os.path.join(d, kept[0])}", stderr.getvalue())
            with open(os.path.join(d, kept[0])) as f:
                self.assertEqual(len(list(csv.DictReader(f))), 3)


if __name__ == "__main__":
    unittest.main()
