# SPDX-License-Identifier: BSD-3-Clause
"""Parameter sweeps: many runs of one model with some of its numeric fields changed, each case
summarized (peak loads per joint, final state, energy drift, or why it failed), on every local
core or on a Dask cluster. docs/sweeps.md describes them."""

from __future__ import annotations

import csv
import hashlib
import itertools
import math
import os
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _kinetree

Case = Dict[str, float]


def _is_range(values: Any) -> bool:
    return isinstance(values, tuple) or (isinstance(values, Mapping) and {"low", "high"} <= set(values))


def _bounds(values: Any) -> Tuple[float, float]:
    low, high = (values["low"], values["high"]) if isinstance(values, Mapping) else values
    return float(low), float(high)


def make_cases(parameters: Mapping[str, Any], samples: Optional[int] = None, seed: int = 0) -> List[Case]:
    """The cases of a sweep. Each parameter (a model field's YAML path, e.g.
    ``bodies[L16].inertial.mass``) maps to a list of values, or to a range ``(low, high)`` (or
    ``{"low": .., "high": ..}``). Without ``samples`` every combination of the lists is a case (a
    grid; ranges are not allowed). With ``samples`` = N, N cases are drawn with numpy's generator
    seeded by ``seed``: uniformly in each range, uniformly among each list's values."""
    names = list(parameters)
    if not names:
        raise ValueError("parameters: give at least one model field and its values")
    if samples is None:
        for name in names:
            if _is_range(parameters[name]):
                raise ValueError(f"{name}: a range needs samples= (a random sample); a grid takes a list of values")
        axes = [[float(v) for v in parameters[name]] for name in names]
        for name, axis in zip(names, axes):
            if not axis:
                raise ValueError(f"{name}: no values")
        return [dict(zip(names, combo)) for combo in itertools.product(*axes)]
    if samples < 1:
        raise ValueError("samples: must be a positive number of cases")
    rng = np.random.default_rng(seed)
    columns = {}
    for name in names:
        values = parameters[name]
        if _is_range(values):
            low, high = _bounds(values)
            columns[name] = rng.uniform(low, high, samples)
        else:
            choices = np.asarray([float(v) for v in values])
            columns[name] = rng.choice(choices, samples)
    return [{name: float(columns[name][k]) for name in names} for k in range(samples)]


# ---- one case ----

_models: Dict[str, Any] = {}  # the model of each sweep, loaded once per process (per Dask worker)


def _model(text: str, directory: str):
    key = hashlib.sha256((directory + "\0" + text).encode()).hexdigest()
    model = _models.get(key)
    if model is None:
        model = _models[key] = _kinetree.loads(text, "<sweep model>", directory)
    return model


def run_case(model, index: int, case: Case, run: Mapping[str, Any]) -> Dict[str, Any]:
    """Runs one case and returns its summary row: case, the parameter values, status ("ok" or
    "failed"), message, final_time, energy_drift (J, end minus start), peak_force:<joint> (N),
    peak_moment:<joint> (N m), utilisation:<joint> for rated joints, final.q:<coordinate>. A
    value the model rejects, or a run that stops, is a failed case with its message."""
    row: Dict[str, Any] = {"case": index}
    row.update(case)
    try:
        edited = model.copy()
        for path, value in case.items():
            edited.set(path, value)
        raw = _kinetree.simulate(
            edited,
            run.get("solver") or "",
            run.get("integrator") or "",
            float(run.get("step") or 0.0),
            float(run.get("duration") or 0.0),
            float(run.get("tolerance") or 0.0),
            "time",
            1,
            False,
        )
    except Exception as error:  # the model's own message (file:line:col where it has one)
        row.update(status="failed", message=str(error).strip())
        return row
    row.update(status="ok" if not raw["error"] else "failed", message=raw["error"])
    row["final_time"] = raw["final_time"]
    row["energy_drift"] = raw["energy_end"] - raw["energy_start"]
    for p in raw["peaks"]:
        row["peak_force:" + p["joint"]] = p["force"]
        row["peak_moment:" + p["joint"]] = p["moment"]
        if not math.isnan(p["utilisation"]):
            row["utilisation:" + p["joint"]] = p["utilisation"]
    for name, value in zip(raw["coordinates"], raw["final_q"]):
        row["final." + name] = float(value)
    return row


def _run_batch(text: str, directory: str, batch: Sequence[Tuple[int, Case]], run: Mapping[str, Any]):
    model = _model(text, directory)
    return [run_case(model, index, case, run) for index, case in batch]


def _failed(index: int, case: Case, message: str) -> Dict[str, Any]:
    row: Dict[str, Any] = {"case": index}
    row.update(case)
    row.update(status="failed", message=message)
    return row


# ---- the table ----


class SweepResult:
    """The summary rows of a sweep, one per case in case order (see ``run_case`` for the
    columns). ``failures`` are the failed rows; ``worst()`` the case with the largest peak force
    and moment of each joint; ``frame()`` a pandas DataFrame; ``write(path)`` a CSV file (Parquet
    for a .parquet name, with pyarrow)."""

    def __init__(self, rows: List[Dict[str, Any]], parameters: Sequence[str]):
        self.rows = sorted(rows, key=lambda r: r["case"])
        self.parameters = list(parameters)
        columns: Dict[str, None] = {}
        for row in self.rows:
            for name in row:
                columns.setdefault(name, None)
        self.columns = list(columns)

    @property
    def failures(self) -> List[Dict[str, Any]]:
        return [r for r in self.rows if r["status"] != "ok"]

    def __len__(self) -> int:
        return len(self.rows)

    def worst(self) -> List[Dict[str, Any]]:
        """For every joint, the largest peak force and moment over the cases that ran to the
        end, and the case (with its parameter values) where each occurred."""
        out = []
        ok = [r for r in self.rows if r["status"] == "ok"]
        for column in self.columns:
            if not column.startswith("peak_force:"):
                continue
            joint = column[len("peak_force:") :]
            entry: Dict[str, Any] = {"joint": joint}
            for kind in ("force", "moment"):
                key = f"peak_{kind}:{joint}"
                best = max(ok, key=lambda r: r.get(key, -math.inf), default=None)
                entry[kind] = best[key] if best else math.nan
                entry[kind + "_case"] = best["case"] if best else None
                entry[kind + "_parameters"] = {p: best[p] for p in self.parameters} if best else {}
            out.append(entry)
        return out

    def report(self) -> str:
        """A text summary: how many cases ran, the failures, and the worst case per joint."""
        lines = [f"{len(self.rows)} cases, {len(self.failures)} failed"]
        for r in self.failures[:10]:
            values = ", ".join(f"{p} = {r[p]:g}" for p in self.parameters)
            lines.append(f"  case {r['case']} ({values}): {r['message']}")
        if len(self.failures) > 10:
            lines.append(f"  ... and {len(self.failures) - 10} more")
        worst = self.worst()
        if worst:
            lines.append("worst case per joint (peak |F| in N, peak |M| in N m):")
            width = max(len(w["joint"]) for w in worst)
            for w in worst:
                lines.append(
                    f"  {w['joint']:<{width}}  |F| {w['force']:12.6g} (case {w['force_case']})"
                    f"   |M| {w['moment']:12.6g} (case {w['moment_case']})"
                )
        return "\n".join(lines) + "\n"

    def frame(self):
        """The table as a pandas DataFrame."""
        import pandas

        return pandas.DataFrame(self.rows, columns=self.columns)

    def write(self, path: str) -> None:
        """Writes the table: Parquet for a .parquet name (needs pyarrow), otherwise CSV (numbers
        as repr, which reads back exactly). The file is written to a temporary name and renamed."""
        temporary = f"{path}.tmp{os.getpid()}"
        try:
            if str(path).endswith(".parquet"):
                try:
                    import pyarrow  # noqa: F401
                except ImportError:
                    raise RuntimeError(f"{path}: Parquet needs pyarrow (python3-pyarrow); write a .csv instead")
                self.frame().to_parquet(temporary)
            else:
                with open(temporary, "w", newline="") as f:
                    writer = csv.writer(f)
                    writer.writerow(self.columns)
                    for row in self.rows:
                        writer.writerow(["" if row.get(c) is None else _cell(row.get(c)) for c in self.columns])
            os.replace(temporary, path)
        finally:
            if os.path.exists(temporary):
                os.remove(temporary)


def _cell(value: Any) -> str:
    return repr(value) if isinstance(value, float) else str(value)


# ---- running it ----


def _batches(cases: List[Case], size: int) -> List[List[Tuple[int, Case]]]:
    indexed = list(enumerate(cases))
    return [indexed[k : k + size] for k in range(0, len(indexed), size)]


_pool_model: Tuple[str, str] = ("", "")


def _pool_init(text: str, directory: str) -> None:
    global _pool_model
    _pool_model = (text, directory)
    _model(text, directory)  # the one load of this process


def _pool_batch(batch, run):
    return _run_batch(_pool_model[0], _pool_model[1], batch, run)


def sweep(
    model,
    parameters: Mapping[str, Any],
    *,
    samples: Optional[int] = None,
    seed: int = 0,
    solver: Optional[str] = None,
    integrator: Optional[str] = None,
    step: Optional[float] = None,
    duration: Optional[float] = None,
    tolerance: Optional[float] = None,
    processes: Optional[int] = None,
    client=None,
    batch_size: Optional[int] = None,
    on_result: Optional[Callable[[Dict[str, Any]], None]] = None,
) -> SweepResult:
    """Runs a parameter sweep and returns its table (SweepResult).

    ``model``: a Model or a model file. ``parameters``: model fields by YAML path and their
    values (a list each for a grid; ranges with ``samples`` for a random sample; see
    ``make_cases``). ``solver`` … ``tolerance``: the run settings (the model's by default).

    Where the cases run:

    - ``client``: a ``dask.distributed.Client``; the cases go to its workers in batches, each
      worker loads the model once, results stream back as batches finish. A batch whose worker
      is lost is run again elsewhere (Dask's scheduler retries it); one that fails for another
      reason records its cases as failed with the error.
    - otherwise ``processes`` local processes (default: every core; 1 runs in this process).

    ``on_result`` is called with each case's row as it arrives (progress, early looks). A case
    that fails (a value the model rejects, a run that stops) is a row with status "failed" and
    its message, never an exception.
    """
    from . import load

    if isinstance(model, (str, os.PathLike)):
        model = load(str(model))
    cases = make_cases(parameters, samples, seed)
    run = {"solver": solver, "integrator": integrator, "step": step, "duration": duration, "tolerance": tolerance}
    text, directory = model.to_yaml(), model.source_directory
    rows: List[Dict[str, Any]] = []

    def take(batch_rows: Iterable[Dict[str, Any]]) -> None:
        for row in batch_rows:
            rows.append(row)
            if on_result:
                on_result(row)

    if client is not None:
        from distributed import as_completed

        workers = max(1, len(client.scheduler_info().get("workers", {})))
        size = batch_size or max(1, min(50, len(cases) // (4 * workers)))
        batches = _batches(cases, size)
        futures = {}
        for batch in batches:
            future = client.submit(_run_batch, text, directory, batch, run, pure=False)
            futures[future] = batch
        for future in as_completed(list(futures)):
            batch = futures[future]
            try:
                take(future.result())
            except Exception as error:  # e.g. KilledWorker: the batch failed on several workers
                take(_failed(i, c, f"{type(error).__name__}: {error}") for i, c in batch)
    else:
        count = processes or os.cpu_count() or 1
        size = batch_size or max(1, min(50, len(cases) // (4 * count)))
        batches = _batches(cases, size)
        if count == 1:
            for batch in batches:
                take(_run_batch(text, directory, batch, run))
        else:
            with ProcessPoolExecutor(max_workers=count, initializer=_pool_init, initargs=(text, directory)) as pool:
                for batch_rows in pool.map(_pool_batch, batches, itertools.repeat(run)):
                    take(batch_rows)
    return SweepResult(rows, list(parameters))
