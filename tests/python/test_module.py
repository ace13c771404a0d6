# SPDX-License-Identifier: BSD-3-Clause
"""The kinetree module against kinetree-cli (the same engine: equal to the last bit), its
diagnostics, its model edits and its dynamics functions."""
import ast
import glob
import os
import pathlib
import signal
import threading
import time
import unittest

import numpy as np

import kinetree
from support import EXAMPLES, SOURCE_DIR, cli, example, read_csv


class TestLoading(unittest.TestCase):
    def test_errors_carry_file_line_and_column(self):
        text = "kinetree: 1\nname: broken\nbodies:\n  - name: a\n    parent: world\n    joint: {type: revolute}\n" \
               "    inertial: {mass: -1, com: [0, 0, 0], inertia: {ixx: 1, iyy: 1, izz: 1}}\n"
        with self.assertRaises(kinetree.ModelError) as caught:
            kinetree.loads(text, "broken.yaml")
        self.assertIsInstance(caught.exception, ValueError)
        self.assertIn("broken.yaml:7:", str(caught.exception))
        self.assertIn("bodies[0].inertial.mass: must be > 0", str(caught.exception))
        first = caught.exception.diagnostics[0]
        self.assertEqual((first["file"], first["line"], first["path"]), ("broken.yaml", 7, "bodies[0].inertial.mass"))
        with self.assertRaises(kinetree.ModelError) as missing:
            kinetree.load(example("no_such_model.yaml"))
        self.assertIn("no_such_model.yaml: error: no such file", str(missing.exception))

    def test_robots_load_as_the_cli_reads_them(self):
        # a URDF and an MJCF model, as every kinetree-cli command takes them: the same run, bit for bit
        for path in (example("arm7.urdf"), os.path.join(SOURCE_DIR, "tests", "data", "mjcf", "arm.xml")):
            robot = kinetree.load(path)
            self.assertGreater(len(robot.bodies), 1)
            run = kinetree.simulate(robot, duration=0.05)
            header, rows = read_csv(cli("simulate", path, "--duration", "0.05").stdout)
            self.assertEqual(run.columns, header)
            self.assertTrue(np.array_equal(run.data, np.array(rows)))

    def test_introspection(self):
        robot = kinetree.load(example("space_robot.yaml"))
        self.assertEqual(robot.name, "space_robot")
        self.assertEqual(len(robot.bodies), 13)
        self.assertEqual((robot.nq, robot.nv), (19, 18))
        self.assertAlmostEqual(robot.mass, 510.0, delta=1e-9)
        joints = {j["name"]: j for j in robot.joints}
        self.assertEqual(joints["J11"]["type"], "revolute")
        self.assertEqual(joints["J11"]["parent"], "base")
        self.assertIn("bodies[L16].inertial.mass", robot.fields())

    def test_edits_are_validated(self):
        robot = kinetree.load(example("space_robot.yaml"))
        robot.set("bodies[L16].inertial.mass", 7.5)
        self.assertEqual(robot.get("bodies[L16].inertial.mass"), 7.5)
        self.assertAlmostEqual(robot.mass, 514.5, delta=1e-9)
        with self.assertRaises(kinetree.ModelError) as caught:
            robot.set("bodies[L16].inertial.mass", -2)
        # the path as the user wrote it, not the validator's bodies[6]
        self.assertIn("bodies[L16].inertial.mass: must be > 0, got -2", str(caught.exception))
        self.assertEqual(caught.exception.diagnostics[0]["path"], "bodies[L16].inertial.mass")
        self.assertEqual(robot.get("bodies[L16].inertial.mass"), 7.5)  # unchanged
        with self.assertRaisesRegex(ValueError, r"no body is named 'L166' \(did you mean 'L16'\?\)"):
            robot.set("bodies[L166].inertial.mass", 1)
        robot.set("gravity", 0.5)  # a vector without an index: every entry
        self.assertEqual(robot.get("gravity[1]"), 0.5)
        robot.set("bodies[L11].joint.drive.kp", 250)
        self.assertIn("kp: 250", robot.to_yaml())
        with self.assertRaisesRegex(ValueError, "pd_sinusoid: it has no stiffness"):
            robot.set("bodies[L11].joint.drive.stiffness", 1)
        with self.assertRaisesRegex(ValueError, "is a single number: it takes no index"):
            robot.set("bodies[L16].inertial.mass[1]", 1)
        with self.assertRaisesRegex(ValueError, "index 3 is past the end \\(1 entries\\)"):
            robot.set("bodies[L16].joint.q0[3]", 1)
        with self.assertRaisesRegex(ValueError, "no reaction rating: set rating.reaction \\(every entry\\) first"):
            robot.set("bodies[L16].joint.rating.reaction[0]", 100)
        robot.set("bodies[L16].joint.rating.reaction", 100)  # every entry at once is a rating
        self.assertEqual(robot.get("bodies[L16].joint.rating.reaction[4]"), 100)
        pendulum = kinetree.load(example("pendulum.yaml"))
        with self.assertRaisesRegex(ValueError, "come from its shapes \\(from_shapes\\): change inertial.density"):
            pendulum.set("bodies[link].inertial.mass", 3)
        with self.assertRaisesRegex(ValueError, "bodies\\[support\\].joint.q0: has no entries here"):
            pendulum.set("bodies[support].joint.q0", 0)
        steel = pendulum.mass
        pendulum.set("bodies[link].inertial.density", 2700)  # aluminium: the link's mass drops by 65 %
        self.assertLess(pendulum.mass, steel - 0.6 * (steel - 0.08 * 0.3 * 0.08 * 7800))
        copy = robot.copy()
        copy.set("bodies[L16].inertial.mass", 1)
        self.assertEqual(robot.get("bodies[L16].inertial.mass"), 7.5)

    def test_paths_that_are_not_indices(self):
        robot = kinetree.load(example("space_robot.yaml"))
        with self.assertRaisesRegex(ValueError, r"there is no bodies\[100000000000000000000000\]: the index is out of "
                                    r"range \(the model has 13 bodies, 0 to 12\)"):
            robot.get("bodies[100000000000000000000000].inertial.mass")
        with self.assertRaisesRegex(ValueError, r"'1e21' is neither a body's name nor an index \(a whole number"):
            robot.get("bodies[1e21].inertial.mass")
        with self.assertRaisesRegex(ValueError, r"there is no bodies\[13\]: the index is out of range"):
            robot.set("bodies[13].inertial.mass", 1)
        with self.assertRaisesRegex(ValueError, r"the index in 'q0\[99999999999\]' is out of range"):
            robot.get("bodies[L16].joint.q0[99999999999]")
        with self.assertRaisesRegex(ValueError, r"the index in 'q0\[-1\]' is not a whole number"):
            robot.get("bodies[L16].joint.q0[-1]")
        # by index the message keeps the index the user wrote
        with self.assertRaisesRegex(ValueError, r"error: bodies\[6\]\.inertial\.mass: must be > 0"):
            robot.set("bodies[6].inertial.mass", 0)


class TestAgainstTheCli(unittest.TestCase):
    def test_simulate_equals_the_cli_bit_for_bit(self):
        for path in sorted(glob.glob(os.path.join(EXAMPLES, "*.yaml"))):
            with self.subTest(model=os.path.basename(path)):
                header, rows = read_csv(cli("simulate", path, "--duration", "0.1").stdout)
                run = kinetree.simulate(kinetree.load(path), duration=0.1)
                self.assertEqual(run.columns, header)
                self.assertTrue(np.array_equal(run.data, np.array(rows)))

    def test_options_signals_and_every_as_the_cli(self):
        args = ["--solver", "cfa-tree", "--integrator", "dopri5", "--step", "0.01", "--duration", "0.3",
                "--tolerance", "1e-9", "--signals", "q:*,load:J11.*", "--every", "7"]
        header, rows = read_csv(cli("simulate", example("space_robot.yaml"), *args).stdout)
        run = kinetree.simulate(example("space_robot.yaml"), solver="cfa-tree", integrator="dopri5", step=0.01,
                                duration=0.3, tolerance=1e-9, signals=["q:*", "load:J11.*"], every=7)
        self.assertEqual(run.columns, header)
        self.assertTrue(np.array_equal(run.data, np.array(rows)))
        self.assertEqual(run["time"][-1], 0.3)

    def test_peaks_as_the_cli(self):
        run = kinetree.simulate(example("space_robot.yaml"), duration=0.5, signals="time")
        self.assertEqual(run.peaks_csv, cli("peaks", example("space_robot.yaml"), "--duration", "0.5", "--csv").stdout)
        self.assertEqual(run.peaks_text, cli("peaks", example("space_robot.yaml"), "--duration", "0.5").stdout)
        table = kinetree.peaks(run)
        robot = kinetree.load(example("space_robot.yaml"))
        self.assertEqual([p["joint"] for p in table], [j["name"] for j in robot.joints])
        self.assertGreater(max(p["moment"] for p in table), 0)

    def test_fatigue_and_spectrum_as_the_cli(self):
        model = example("space_robot.yaml")
        run = kinetree.simulate(model, duration=2.0, signals="load:J1*.mz")
        rows = kinetree.fatigue(run, "load:J1*.mz", wohler=10)
        table = cli("fatigue", model, "--duration", "2", "--signals", "load:J1*.mz", "--wohler", "10", "--csv").stdout
        lines = table.strip().split("\n")
        self.assertEqual(len(rows), len(lines) - 1)
        for row, line in zip(rows, lines[1:]):
            cells = line.split(",")
            self.assertEqual(row["signal"], cells[0])
            self.assertEqual([row[k] for k in ("cycles", "largest_range", "largest_range_mean", "largest_range_t",
                                               "del", "wohler_m", "n_eq")], [float(c) for c in cells[1:]])
        # the ASTM E1049-85 example
        cycles = kinetree.rainflow([-2, 1, -3, 5, -1, 3, -4, 4, -2])
        self.assertEqual(sum(c["count"] for c in cycles), 4.0)
        spectrum = kinetree.spectrum(run, "load:J11.mz", segment=256, detrend="linear")
        header, rows = read_csv(cli("spectrum", model, "--duration", "2", "--signals", "load:J11.mz", "--segment",
                                    "256", "--detrend", "linear").stdout)
        self.assertEqual(header, ["f_Hz", "load:J11.mz.amplitude", "load:J11.mz.psd"])
        table = np.array(rows)
        self.assertTrue(np.array_equal(spectrum["frequency"], table[:, 0]))
        self.assertTrue(np.array_equal(spectrum["amplitude"], table[:, 1]))
        self.assertTrue(np.array_equal(spectrum["psd"], table[:, 2]))
        self.assertEqual((spectrum["segment"], spectrum["segments"]), (256, 6))
        with self.assertRaises(ValueError):
            kinetree.spectrum(run, "load:J11.mz", detrend="cubic")
        with self.assertRaises(KeyError):
            kinetree.fatigue(run, "nothing:*")

    def test_forward_dynamics_is_what_the_run_recorded(self):
        for name in ("space_robot.yaml", "humanoid.yaml", "cardan_chain.yaml"):
            with self.subTest(model=name):
                model = kinetree.load(example(name))
                run = kinetree.simulate(model, duration=0.002, step=0.002, solver="aba")
                tau = np.array([run[c][0] for c in run.columns if c.startswith("tau:")])
                d = kinetree.forward_dynamics(model, model.initial_q, model.initial_v, tau)
                qdd = np.array([run[c][0] for c in run.columns if c.startswith("qdd:")])
                self.assertTrue(np.array_equal(d.qdd, qdd))
                for i, joint in enumerate(model.joints):
                    for k, axis in enumerate(("mx", "my", "mz", "fx", "fy", "fz")):
                        self.assertEqual(d.wrench[i, k], run[f"load:{joint['name']}.{axis}"][0])


class TestDynamics(unittest.TestCase):
    def test_mass_matrix_and_bias_give_the_forward_dynamics(self):
        model = kinetree.load(example("space_robot.yaml"))
        rng = np.random.default_rng(3)
        q = np.array(model.initial_q) + 0.1 * rng.standard_normal(model.nq)
        q[:4] /= np.linalg.norm(q[:4])  # the base's quaternion
        v, tau = rng.standard_normal(model.nv), rng.standard_normal(model.nv)
        M, h = kinetree.mass_matrix(model, q), kinetree.bias(model, q, v)
        self.assertEqual(M.shape, (18, 18))
        self.assertTrue(np.allclose(M, M.T, rtol=0, atol=1e-12 * abs(M).max()))
        self.assertGreater(np.linalg.eigvalsh(M).min(), 0)
        for solver in kinetree.solvers():
            qdd = kinetree.forward_dynamics(model, q, v, tau, solver=solver).qdd
            expected = np.linalg.solve(M, tau - h)
            self.assertLess(abs(qdd - expected).max(), 1e-10 * max(1, abs(expected).max()), solver)
        with self.assertRaisesRegex(ValueError, "q has 3 entries, expected 19"):
            kinetree.forward_dynamics(model, [1, 0, 0], v, tau)

    def test_the_gil_is_released_while_a_run_goes(self):
        model = kinetree.load(example("space_robot.yaml"))
        done = threading.Event()
        thread = threading.Thread(target=lambda: (kinetree.simulate(model, duration=20, signals="time"), done.set()))
        counted = 0
        thread.start()
        while not done.is_set():
            counted += 1
        thread.join()
        # with the GIL held for the whole run this thread could not count at all meanwhile
        self.assertGreater(counted, 10000)


class TestRunSettings(unittest.TestCase):
    def test_invalid_settings_are_refused_as_the_cli_refuses_them(self):
        # before, a NaN, negative or zero setting was silently replaced by the model's (10 s here)
        model = kinetree.load(example("pendulum.yaml"))
        nan = float("nan")
        for given, message in [
            ({"duration": -1}, "duration: must be > 0, got -1"),
            ({"duration": 0}, "duration: must be > 0, got 0"),
            ({"duration": nan}, "duration: must be a finite number, got .nan"),
            ({"step": 0}, "step: must be > 0, got 0"),
            ({"step": -0.001}, "step: must be > 0, got -0.001"),
            ({"step": nan}, "step: must be a finite number, got .nan"),
            ({"tolerance": 0}, "tolerance: must be > 0, got 0"),
            ({"tolerance": nan}, "tolerance: must be a finite number, got .nan"),
            ({"tolerance": 2}, "tolerance: must be < 1"),
            ({"step": 20}, "step: the step (20 s) is longer than the duration"),
        ]:
            with self.assertRaises(ValueError, msg=str(given)) as caught:
                kinetree.simulate(model, signals="time", **given)
            self.assertIn(message, str(caught.exception), given)
        # the same rule as a model file's simulation: block (core/sim/run_limits)
        with self.assertRaisesRegex(kinetree.ModelError, "simulation.duration: must be > 0, got -1"):
            model.set("simulation.duration", -1)
        self.assertEqual(kinetree.simulate(model, duration=0.5, signals="time").final_time, 0.5)

    def test_arguments_of_the_wrong_kind_are_refused(self):
        # before: every=2.5 ran as 2, signals=[] gave every signal, a NaN made a rainflow cycle and
        # load(None) looked for a file named "None"
        model = kinetree.load(example("pendulum.yaml"))
        with self.assertRaisesRegex(TypeError, "every is a whole number"):
            kinetree.simulate(model, duration=0.1, signals="time", every=2.5)
        self.assertEqual(kinetree.simulate(model, duration=0.1, signals="time", every=2).final_time, 0.1)
        with self.assertRaisesRegex(ValueError, "signals is an empty list"):
            kinetree.simulate(model, duration=0.1, signals=[])
        with self.assertRaisesRegex(ValueError, "sample 1 is nan"):
            kinetree.rainflow([1.0, float("nan"), 2.0])
        # fatigue and spectrum of a thinned run are a coarser series than the CLI's: said so
        thinned = kinetree.simulate(model, duration=1.0, signals="load:hinge.fx", every=4)
        with self.assertWarnsRegex(UserWarning, "kept one output step in 4"):
            kinetree.fatigue(thinned, "load:hinge.fx")
        with self.assertWarnsRegex(UserWarning, "kept one output step in 4"):
            kinetree.spectrum(thinned, "load:hinge.fx", segment=64)
        with self.assertRaisesRegex(TypeError, "load takes a file path"):
            kinetree.load(None)
        self.assertEqual(kinetree.load(pathlib.Path(example("pendulum.yaml"))).name, model.name)

    def test_ctrl_c_stops_a_run(self):
        model = kinetree.load(example("space_robot.yaml"))
        started = time.monotonic()
        timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
        timer.start()
        try:
            with self.assertRaises(KeyboardInterrupt):
                kinetree.simulate(model, duration=2000, signals="time")  # minutes of work
        finally:
            timer.cancel()
        # the signal is seen within a poll of the run (0.05 s) and a step
        self.assertLess(time.monotonic() - started, 1.5)
        self.assertTrue(kinetree.simulate(model, duration=0.1, signals="time").ok)  # the module still works


class TestDocumentation(unittest.TestCase):
    def test_motion_as_the_cli(self):
        # a dict of arrays and a DataFrame give the run kinetree-cli simulate --motion gives
        t = np.linspace(0.0, 1.0, 101)
        q = 0.4 * np.sin(2.0 * np.pi * t) ** 2
        import tempfile

        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "m.csv")
            with open(path, "w") as f:
                f.write("time,q:hinge[0]\n")
                for a, b in zip(t, q):
                    f.write("%r,%r\n" % (float(a), float(b)))
            header, rows = read_csv(cli("simulate", example("pendulum.yaml"), "--motion", path, "--duration", "1",
                                        "--step", "0.01", "--signals", "q:*,tau:*").stdout)
        for motion in ({"time": t, "q:hinge[0]": q}, __import__("pandas").DataFrame({"q:hinge[0]": q, "time": t})):
            run = kinetree.simulate(example("pendulum.yaml"), duration=1, step=0.01, signals="q:*,tau:*",
                                    motion=motion)
            self.assertEqual(run.columns, header)
            self.assertTrue(np.array_equal(run.data, np.array(rows)))
        # what the CLI refuses, ValueError here
        for motion, message in (({"time": t, "q:hnge[0]": q}, "names no joint of the model"),
                                ({"time": t[::-1], "q:hinge[0]": q}, "the times must increase"),
                                ({"q:hinge[0]": q}, "needs a 'time' column"),
                                ({"time": t[:50], "q:hinge[0]": q[:50]}, "runs past the data")):
            with self.assertRaisesRegex(ValueError, message):
                kinetree.simulate(example("pendulum.yaml"), duration=1, step=0.01, motion=motion)
        with self.assertRaisesRegex(ValueError, "give motion as well"):
            kinetree.simulate(example("pendulum.yaml"), duration=1, cutoff=5)

    def test_every_public_name_is_documented(self):
        for name in kinetree.__all__:
            obj = getattr(kinetree, name)
            self.assertTrue((obj.__doc__ or "").strip(), name)
        for method in ("get", "set", "fields", "to_yaml", "save", "copy"):
            self.assertTrue((getattr(kinetree.Model, method).__doc__ or "").strip(), method)

    def test_type_stubs(self):
        package = os.path.dirname(kinetree.__file__)
        self.assertTrue(os.path.exists(os.path.join(package, "py.typed")))
        with open(os.path.join(package, "_kinetree.pyi")) as f:
            tree = ast.parse(f.read())
        names = {node.name for node in ast.walk(tree) if isinstance(node, (ast.ClassDef, ast.FunctionDef))}
        for name in ("Model", "ModelError", "load", "loads", "simulate", "forward_dynamics", "mass_matrix", "bias",
                     "set", "get"):
            self.assertIn(name, names)


if __name__ == "__main__":
    unittest.main()
