# SPDX-License-Identifier: BSD-3-Clause
"""Kinetree: tree-structured rigid multibody models and simulation, from Python.

The same engine as the application and ``kinetree-cli`` (the same solvers, the same results to
the last bit), for scripts and notebooks::

    import kinetree
    robot = kinetree.load("examples/space_robot.yaml")
    robot.set("bodies[L16].inertial.mass", 3.0)
    run = kinetree.simulate(robot, duration=2.0, signals=["q:*", "energy.*"])
    run["q:J11[0]"]            # a column, as a numpy array
    kinetree.peaks(run)        # the peak load of every joint, as `kinetree-cli peaks`

Parameter sweeps run many cases on every local core or on a Dask cluster: see ``sweep``.
Models are described in docs/model-format.md, signals in docs/signals.md, this module in
docs/python.md.
"""

from __future__ import annotations

import csv
import fnmatch
import numbers
import os
import tempfile
import warnings
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Union

import numpy as np

from . import _kinetree
from ._kinetree import Model, ModelError

__version__: str = _kinetree.__version__

__all__ = [
    "Model",
    "ModelError",
    "Run",
    "Dynamics",
    "load",
    "loads",
    "simulate",
    "forward_dynamics",
    "mass_matrix",
    "bias",
    "peaks",
    "fatigue",
    "rainflow",
    "spectrum",
    "solvers",
    "sweep",
    "SweepResult",
]


def load(path: str, package_paths: Sequence[str] = ()) -> Model:
    """Read a model file (YAML, docs/model-format.md), or a robot: an MJCF model or a URDF,
    imported as ``kinetree-cli import`` imports it without an output file (docs/mjcf.md,
    docs/urdf.md), a URDF's package:// meshes looked for in ``package_paths``.

    Raises ModelError, whose message lists every problem as ``file:line:col: error: path:
    message`` and whose ``diagnostics`` attribute holds them as dicts (file, line, column, path,
    message, warning).
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"load takes a file path (str or os.PathLike), not {type(path).__name__}")
    return _kinetree.load(os.fspath(path), [os.fspath(p) for p in package_paths])


def loads(text: str, name: str = "<string>", directory: str = "") -> Model:
    """Read a model from YAML text; ``name`` names it in diagnostics, mesh paths resolve from
    ``directory``. Raises ModelError as ``load`` does."""
    return _kinetree.loads(text, name, directory)


def solvers() -> List[str]:
    """The solver names: aba (the default), crba, poisson-*, cfa-*."""
    return list(_kinetree.solvers())


class Run:
    """One simulated run: the kept signals, the peak joint loads and how the run ended.

    ``columns`` are the signal names (docs/signals.md), time first; ``data`` is a 2-D numpy array
    with one row per kept output step. ``run["q:J11[0]"]`` is a column; ``run.time`` the times.
    ``ok`` is False when the run stopped before its duration (``error`` says when and why; the
    rows up to the last good state are kept). ``frame()`` gives a pandas DataFrame.
    """

    def __init__(self, raw: Dict[str, Any]):
        self.columns: List[str] = list(raw["columns"])
        self.data: np.ndarray = raw["data"]
        self.error: str = raw["error"]
        self.solver: str = raw["solver"]
        self.energy_start: float = raw["energy_start"]
        self.energy_end: float = raw["energy_end"]
        self.final_time: float = raw["final_time"]
        self.final_q: np.ndarray = raw["final_q"]
        self.coordinates: List[str] = list(raw["coordinates"])
        self._peaks: List[Dict[str, Any]] = list(raw["peaks"])
        self.peaks_text: str = raw["peaks_text"]
        self.peaks_csv: str = raw["peaks_csv"]
        self._index = {name: k for k, name in enumerate(self.columns)}
        self.every: int = 1  # the run kept every k-th output step (simulate's every)

    @property
    def ok(self) -> bool:
        return not self.error

    @property
    def time(self) -> np.ndarray:
        return self.data[:, 0]

    def __getitem__(self, name: str) -> np.ndarray:
        try:
            return self.data[:, self._index[name]]
        except KeyError:
            raise KeyError(f"no signal {name!r} in this run (signals= selects them; docs/signals.md)") from None

    def __len__(self) -> int:
        return self.data.shape[0]

    def frame(self):
        """The run as a pandas DataFrame (one column per signal, time first). Needs pandas."""
        import pandas

        return pandas.DataFrame(self.data, columns=self.columns)

    def __repr__(self) -> str:
        state = "ok" if self.ok else f"stopped: {self.error}"
        return f"<kinetree.Run {self.solver}: {len(self)} rows x {len(self.columns)} signals, {state}>"


def simulate(
    model: Union[Model, str],
    solver: Optional[str] = None,
    integrator: Optional[str] = None,
    step: Optional[float] = None,
    duration: Optional[float] = None,
    tolerance: Optional[float] = None,
    signals: Union[None, str, Sequence[str]] = None,
    every: int = 1,
    motion: Any = None,
    cutoff: Optional[float] = None,
) -> Run:
    """Run a model from its initial state, as ``kinetree-cli simulate`` does.

    Settings left as None come from the model's ``simulation:`` block; a given step, duration or
    tolerance that is not a positive finite number (or one the CLI would refuse, such as a step
    longer than the duration) raises ValueError with the CLI's message. ``signals`` selects
    columns by glob patterns (``["q:*", "energy.*"]`` or ``"q:*,energy.*"``; time is always first;
    None keeps every signal). ``every`` keeps every k-th output step and the last. The peak joint
    loads are taken over every output step whatever is kept. The GIL is released while the run
    goes, so runs in several threads proceed in parallel; Ctrl+C ends a run within a fraction of
    a second (KeyboardInterrupt).

    ``motion`` prescribes joints, as ``kinetree-cli simulate --motion`` does (docs/motion.md): a
    dict of equal-length arrays or a pandas DataFrame with a ``time`` column (s, increasing from
    0) and ``q:<joint>[k]`` columns (rad or m); every joint named follows its samples through a C2
    spline, and ``tau:<joint>[k]`` is then the effort it needs. ``cutoff`` (Hz) low-passes the
    samples first (zero phase), for measured data. A column that names no joint, a bad number,
    times that do not increase or a run longer than the samples raise ValueError; its "line L"
    counts the header as line 1, so sample k (from 0) is line k + 2.
    """
    if isinstance(model, (str, os.PathLike)):
        model = load(model)
    if not isinstance(signals, str) and signals is not None:
        signals = list(signals)
        if not signals:
            raise ValueError("signals is an empty list: give glob patterns, or None for every signal")
    patterns = signals if isinstance(signals, str) or signals is None else ",".join(signals)
    if isinstance(every, bool) or not isinstance(every, numbers.Integral):
        raise TypeError(f"every is a whole number of output steps (1, 2, ...), not {every!r}")
    if motion is None:
        if cutoff is not None:
            raise ValueError("cutoff filters the samples of motion; give motion as well")
        run = Run(_simulate(model, solver, integrator, step, duration, tolerance, patterns, every, "", 0.0))
        run.every = int(every)
        return run
    with tempfile.TemporaryDirectory(prefix="kinetree-motion-") as directory:
        path = os.path.join(directory, "motion.csv")
        _write_motion(motion, path)
        try:
            run = Run(
                _simulate(
                    model, solver, integrator, step, duration, tolerance, patterns, every, path,
                    0.0 if cutoff is None else float(cutoff),
                )
            )
            run.every = int(every)
            return run
        except ValueError as error:  # the samples are "motion" to the caller, not a temporary file
            raise ValueError(str(error).replace(path, "motion")) from None


def _simulate(model, solver, integrator, step, duration, tolerance, patterns, every, motion, cutoff):
    return _kinetree.simulate(
        model,
        solver or "",
        integrator or "",
        _setting(step),
        _setting(duration),
        _setting(tolerance),
        patterns or "",
        int(every),
        True,
        motion,
        cutoff,
    )


def _write_motion(motion: Any, path: str) -> None:
    """Joint histories (a dict of arrays, or a DataFrame) as the CSV table the engine reads."""
    if hasattr(motion, "columns") and hasattr(motion, "to_numpy"):  # a pandas DataFrame
        names = [str(c) for c in motion.columns]
        columns = [np.asarray(motion[c].to_numpy(), dtype=float) for c in motion.columns]
    elif isinstance(motion, dict):
        names = [str(k) for k in motion]
        columns = [np.atleast_1d(np.asarray(v, dtype=float)) for v in motion.values()]
    else:
        raise TypeError("motion must be a dict of arrays or a pandas DataFrame, got %s" % type(motion).__name__)
    if "time" not in names:
        raise ValueError("motion needs a 'time' column (s), got columns: %s" % ", ".join(names))
    order = [names.index("time")] + [k for k, n in enumerate(names) if n != "time"]
    lengths = {len(c) for c in columns}
    if len(lengths) != 1:
        raise ValueError("motion columns differ in length: %s" % ", ".join(
            "%s %d" % (n, len(c)) for n, c in zip(names, columns)))
    with open(path, "w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow([names[k] for k in order])
        for row in zip(*[columns[k] for k in order]):
            writer.writerow([repr(float(x)) for x in row])


def _setting(value: Optional[float]) -> Optional[float]:
    """A run setting as given (None: the model's). Never replaced: the engine checks it."""
    return None if value is None else float(value)


@dataclass
class Dynamics:
    """Forward dynamics at one state: ``qdd`` (nv), and the joint loads: ``wrench`` (nb x 6,
    [moment; force] at each joint origin in the child joint frame), ``wrench_world`` (the same in
    world axes), ``tau`` (nv, the actuation part S^T f) and ``reaction`` (the reaction part
    lambda = T^T f, docs/dynamics.md section 3)."""

    qdd: np.ndarray
    wrench: np.ndarray
    wrench_world: np.ndarray
    tau: np.ndarray
    reaction: np.ndarray


def forward_dynamics(model: Model, q, v, tau, solver: str = "aba") -> Dynamics:
    """q̈ and the joint loads at (q, v) under joint forces tau, with the named solver (the
    model's gravity and applied wrenches included). q has nq entries (quaternions w, x, y, z
    first for spherical and free joints), v and tau nv."""
    raw = _kinetree.forward_dynamics(
        model, np.asarray(q, dtype=float), np.asarray(v, dtype=float), np.asarray(tau, dtype=float), solver
    )
    return Dynamics(raw["qdd"], raw["wrench"], raw["wrench_world"], raw["tau"], raw["reaction"])


def mass_matrix(model: Model, q) -> np.ndarray:
    """The joint-space mass matrix M(q), nv x nv (composite-rigid-body algorithm)."""
    return _kinetree.mass_matrix(model, np.asarray(q, dtype=float))


def bias(model: Model, q, v) -> np.ndarray:
    """The bias forces h(q, v) = ID(q, v, 0): gravity, velocity products and applied wrenches, so
    that M(q) q̈ + h(q, v) = tau."""
    return _kinetree.bias(model, np.asarray(q, dtype=float), np.asarray(v, dtype=float))


def peaks(run: Run, frame: bool = False):
    """The peak load of every joint over a run, as ``kinetree-cli peaks`` lists them: a list of
    dicts (joint, force, force_time, moment, moment_time, reaction_force, reaction_moment,
    utilisation, utilisation_of), or a pandas DataFrame with ``frame=True``. ``run.peaks_text``
    is the table as the CLI prints it, ``run.peaks_csv`` as ``peaks --csv`` writes it."""
    rows = [dict(p) for p in run._peaks]
    if frame:
        import pandas

        return pandas.DataFrame(rows)
    return rows


def _signals(run: Run, signals: Union[str, Sequence[str]]) -> List[str]:
    patterns = signals.split(",") if isinstance(signals, str) else list(signals)
    names = [n for n in run.columns[1:] if any(fnmatch.fnmatchcase(n, p.strip()) for p in patterns)]
    if not names:
        raise KeyError(f"no signal of this run matches {signals!r} (docs/signals.md)")
    return names


def _interval(run: Run) -> float:
    if len(run) < 2:
        raise ValueError("the run has fewer than two samples")
    return float(run.time[1] - run.time[0])


def rainflow(x) -> List[Dict[str, float]]:
    """The rainflow cycles of a series by ASTM E1049-85 (half cycles kept), as ``kinetree-cli
    fatigue --cycles`` counts them: dicts of range, mean, count (1 or 0.5) and the sample indices
    first and last of the cycle's two reversals (docs/reports.md)."""
    values = np.asarray(x, dtype=float)
    if not np.all(np.isfinite(values)):
        bad = int(np.flatnonzero(~np.isfinite(values))[0])
        raise ValueError(f"rainflow needs finite values; sample {bad} is {values.flat[bad]}")
    return [
        {"range": r, "mean": m, "count": n, "first": a, "last": b}
        for r, m, n, a, b in _kinetree.rainflow(values.tolist())
    ]


def _warn_if_thinned(run: Run, what: str) -> None:
    """A run kept with every > 1 gives the fatigue or spectrum of a coarser series than the CLI's."""
    if getattr(run, "every", 1) > 1:
        warnings.warn(
            f"{what} of a run that kept one output step in {run.every}: the series is coarser than "
            "kinetree-cli's (run with every=1 for the same numbers)",
            stacklevel=3,
        )


def fatigue(run: Run, signals: Union[str, Sequence[str]] = "load:*", wohler: float = 4.0,
            n_eq: Optional[float] = None, frame: bool = False):
    """Rainflow cycles and the damage-equivalent load DEL = (sum n_i S_i^m / N_eq)^(1/m) of each
    signal of a run the glob patterns ``signals`` name, as ``kinetree-cli fatigue --csv`` lists
    them: dicts of signal, cycles, largest_range, largest_range_mean, largest_range_t, del,
    wohler_m, n_eq (a pandas DataFrame with ``frame=True``). ``n_eq`` defaults to one cycle per
    second of the run (the time of its last sample); ``wohler`` is the S-N exponent m
    (docs/reports.md). A run kept with ``every`` > 1 counts the kept samples only (with a warning)."""
    _warn_if_thinned(run, "fatigue")
    if not wohler > 0:
        raise ValueError("wohler: expected a positive exponent")
    n = float(run.time[-1]) if n_eq is None else float(n_eq)
    if not n > 0:
        raise ValueError("n_eq: expected a positive number of cycles")
    h = _interval(run)
    rows = []
    for name in _signals(run, signals):
        cycles = rainflow(run[name])
        largest = max(cycles, key=lambda c: c["range"], default=None)
        count, del_ = _kinetree.damage_equivalent_load(run[name].tolist(), float(wohler), n)
        rows.append({
            "signal": name,
            "cycles": count,
            "largest_range": largest["range"] if largest else 0.0,
            "largest_range_mean": largest["mean"] if largest else 0.0,
            "largest_range_t": largest["first"] * h if largest else 0.0,
            "del": del_,
            "wohler_m": float(wohler),
            "n_eq": n,
        })
    if frame:
        import pandas

        return pandas.DataFrame(rows)
    return rows


def spectrum(run: Run, signal: str, segment: Optional[int] = None, detrend: str = "mean") -> Dict[str, Any]:
    """The one-sided amplitude spectrum and PSD of one signal of a run by Welch's method (Hann
    window, segments of ``segment`` samples overlapping by half, each detrended: "none", "mean" or
    "linear"), as ``kinetree-cli spectrum`` writes them: a dict of numpy arrays frequency (Hz),
    amplitude (the peak amplitude of a sinusoid) and psd (units^2/Hz), with segment, segments and
    resolution (Hz). docs/reports.md gives the scaling. A run kept with ``every`` > 1 gives the
    spectrum of the kept samples (with a warning)."""
    _warn_if_thinned(run, "spectrum")
    return _kinetree.spectrum(run[signal].tolist(), 1.0 / _interval(run), int(segment or 0), detrend)


from .sweep import SweepResult, sweep  # noqa: E402  (uses the functions above)
