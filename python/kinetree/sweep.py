# SPDX-License-Identifier: BSD-3-Clause
"""Parameter sweeps: many runs of one model with some of its numeric fields changed, each case
summarized (peak loads per joint, final state, energy drift, or why it failed), on every local
core or on a Dask cluster. docs/sweeps.md describes them."""

from __future__ import annotations

import collections
import csv
import hashlib
import itertools
import math
import os
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, Deque, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _kinetree

Case = Dict[str, float]


def _is_range(values: Any) -> bool:
    return isinstance(values, tuple) or (isinstance(values, Mapping) and {"low", "high"} <= set(values))


def _number(value: Any) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))


def _shown(value: Any) -> str:
    return repr(value) if isinstance(value, str) else str(value)


def parameter_values(values: Any, sampled: bool) -> Union[List[float], Tuple[float, float]]:
    """One parameter's values, checked: a list of finite numbers (a grid axis, or the choices of
    a random sample), or a range (low, high) of finite numbers, low <= high, which only a random
    sample (``samples``) takes. Raises ValueError saying what was expected."""
    if _is_range(values):
        if not sampled:
            raise ValueError("a range needs samples (a random sample of that many cases); a grid takes a list of values")
        if isinstance(values, Mapping):
            extra = set(values) - {"low", "high"}
            if extra:
                raise ValueError(f"a range has low and high only, not '{sorted(map(str, extra))[0]}'")
            low, high = values["low"], values["high"]
        else:
            if len(values) != 2:
                raise ValueError(f"a range is (low, high), got {len(values)} numbers")
            low, high = values
        for name, bound in (("low", low), ("high", high)):
            if not _number(bound) or not math.isfinite(bound):
                raise ValueError(f"a range needs a finite number as {name}, got {_shown(bound)}")
        if low > high:
            raise ValueError(f"a range needs low <= high, got low = {low:g}, high = {high:g}")
        return float(low), float(high)
    expected = "a list of values ([1, 2, 3])" + (" or a range {low: L, high: H}" if sampled else "")
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Iterable):
        raise ValueError(f"expected {expected}, got {_shown(values)}")
    axis = list(values)
    if not axis:
        raise ValueError("no values")
    for value in axis:
        if not _number(value) or not math.isfinite(value):
            raise ValueError(f"expected finite numbers in the list, got {_shown(value)}")
    return [float(v) for v in axis]


def path_problem(model, path: str, values: Any, sampled: bool) -> Optional[str]:
    """Why no case of parameter ``path`` can run (a path that names nothing in the model, such as a
    mistyped body), or None: the model takes one of its values there (a list's values, a range's
    ends; a value the model refuses fails its own case, as a negative mass does)."""
    given = parameter_values(values, sampled)
    trial = model.copy()
    first = None
    for value in list(given)[:64]:
        try:
            trial.set(path, value)
            return None
        except ValueError as error:
            message = str(error)
            if first is None:
                first = message[len(path) + 2 :] if message.startswith(path + ": ") else message
    return first


def _axes(parameters: Mapping[str, Any], samples: Optional[int]):
    names = list(parameters)
    if not names:
        raise ValueError("parameters: give at least one model field and its values")
    if samples is not None and (not _number(samples) or samples != int(samples) or samples < 1):
        raise ValueError(f"samples: expected a positive whole number of cases, got {_shown(samples)}")
    axes = []
    for name in names:
        try:
            axes.append(parameter_values(parameters[name], samples is not None))
        except ValueError as error:
            raise ValueError(f"{name}: {error}") from None
    return names, axes


def count_cases(parameters: Mapping[str, Any], samples: Optional[int] = None) -> int:
    """How many cases ``make_cases`` gives, without making them: ``samples``, or the product of
    the lists' lengths."""
    _, axes = _axes(parameters, samples)
    return int(samples) if samples is not None else math.prod(len(axis) for axis in axes)


# Random cases are drawn this many at a time: a sample of any size costs the memory of one chunk.
_SAMPLE_CHUNK = 4096


def iter_cases(parameters: Mapping[str, Any], samples: Optional[int] = None, seed: int = 0) -> Iterator[Case]:
    """The cases of ``make_cases`` one at a time, made as they are taken: a sweep of 10⁹ cases
    starts at once and holds only the cases in progress."""
    names, axes = _axes(parameters, samples)
    if samples is None:
        for combo in itertools.product(*axes):
            yield dict(zip(names, combo))
        return
    rng = np.random.default_rng(seed)
    remaining = int(samples)
    while remaining > 0:
        # whole chunks even at the end: the k-th case is the same whatever the number of samples
        columns = []
        for axis in axes:
            if isinstance(axis, tuple):
                columns.append(rng.uniform(axis[0], axis[1], _SAMPLE_CHUNK))
            else:
                columns.append(rng.choice(np.asarray(axis), _SAMPLE_CHUNK))
        n = min(remaining, _SAMPLE_CHUNK)
        for k in range(n):
            yield {name: float(column[k]) for name, column in zip(names, columns)}
        remaining -= n


def make_cases(parameters: Mapping[str, Any], samples: Optional[int] = None, seed: int = 0) -> List[Case]:
    """The cases of a sweep. Each parameter (a model field's YAML path, e.g.
    ``bodies[L16].inertial.mass``) maps to a list of values, or to a range ``(low, high)`` (or
    ``{"low": .., "high": ..}``). Without ``samples`` every combination of the lists is a case (a
    grid; ranges are not allowed). With ``samples`` = N, N cases are drawn with numpy's generator
    seeded by ``seed``: uniformly in each range, uniformly among each list's values; the same seed
    gives the same cases. Values that are not finite numbers raise ValueError naming the
    parameter. ``iter_cases`` gives them one at a time, ``count_cases`` counts them."""
    return list(iter_cases(parameters, samples, seed))


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
            _setting(run.get("step")),
            _setting(run.get("duration")),
            _setting(run.get("tolerance")),
            "time",
            1,
            False,
            "",
            0.0,
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


def _setting(value: Any) -> Optional[float]:
    return None if value is None else float(value)


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
    and moment of each joint; ``ratings_reached()`` the rated joints whose rating a case reached;
    ``frame()`` a pandas DataFrame; ``write(path)`` a CSV file (Parquet
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

    def ratings_reached(self) -> List[Dict[str, Any]]:
        """The rated joints whose utilisation reached 100 % in some case that ran to the end: the
        joint, in how many cases of how many that ran, the largest utilisation (1 = 100 %) and its
        case, as ``kinetree-cli peaks`` warns of one run."""
        ok = [r for r in self.rows if r["status"] == "ok"]
        out = []
        for column in self.columns:
            if not column.startswith("utilisation:"):
                continue
            over = [r for r in ok if r.get(column, math.nan) >= 1.0]
            if over:
                top = max(over, key=lambda r: r[column])
                out.append({"joint": column[len("utilisation:") :], "cases": len(over), "ran": len(ok),
                            "utilisation": top[column], "case": top["case"]})
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
            lines.append("worst case per joint (peak |F| in N, peak |M| in N m; '-': rounding noise):")
            width = max(len(w["joint"]) for w in worst)
            # the peak table's dead band (kinetree-cli peaks): under LOAD_DEAD_BAND of the largest of
            # its kind over every case, or of a kind that is all noise beside the other, is no load
            largest = {k: max((w[k] for w in worst if not math.isnan(w[k])), default=0.0) for k in ("force", "moment")}
            reference = dict(largest)
            if largest["moment"] < _kinetree.NOISE_ARM * largest["force"]:
                reference["moment"] = math.inf
            if largest["force"] < _kinetree.NOISE_ARM * largest["moment"]:
                reference["force"] = math.inf

            def shown(w: Dict[str, Any], kind: str) -> str:
                value = w[kind]
                if math.isnan(value) or value < _kinetree.LOAD_DEAD_BAND * reference[kind]:
                    return f"{'-':>12}"
                return f"{value:12.6g} (case {w[kind + '_case']})"

            for w in worst:
                lines.append(f"  {w['joint']:<{width}}  |F| {shown(w, 'force')}   |M| {shown(w, 'moment')}")
        reached = self.ratings_reached()
        if reached:
            lines.append("load ratings reached (utilisation >= 100 %):")
            for r in reached:
                lines.append(
                    f"  {r['joint']}: in {r['cases']} of {r['ran']} cases; at most {100.0 * r['utilisation']:.4g} % "
                    f"(case {r['case']})"
                )
        return "\n".join(lines) + "\n"

    def frame(self):
        """The table as a pandas DataFrame."""
        import pandas

        return pandas.DataFrame(self.rows, columns=self.columns)

    def write(self, path: str) -> None:
        """Writes the table: Parquet for a .parquet name (needs pyarrow), otherwise CSV (numbers
        as repr, which reads back exactly). The file is written to a temporary name beside it,
        flushed and renamed over it, as every file Kinetree writes (docs/architecture.md,
        "Writing files"): NAME.kinetree-partial-PID-XXXXXX, removed by the next write into that
        folder once process PID has ended (after a kill -9)."""
        folder = os.path.dirname(os.path.abspath(path))
        _remove_stale_partials(folder)
        temporary = f"{path}.kinetree-partial-{os.getpid()}-{os.urandom(3).hex()}"
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
                    f.flush()
                    os.fsync(f.fileno())
            os.replace(temporary, path)
        finally:
            if os.path.exists(temporary):
                os.remove(temporary)


def _remove_stale_partials(folder: str) -> None:
    """Removes the temporaries of writers killed before they renamed them (their process ended)."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        tag = name.rfind("kinetree-partial-")
        if tag < 0:
            continue
        pid_text = name[tag + len("kinetree-partial-") :].split("-", 1)[0]
        if not pid_text.isdigit() or int(pid_text) == os.getpid():
            continue
        try:
            os.kill(int(pid_text), 0)
            continue  # still running: its write may be under way
        except ProcessLookupError:
            pass
        except OSError:
            continue
        try:
            os.remove(os.path.join(folder, name))
        except OSError:
            pass


def _cell(value: Any) -> str:
    return repr(value) if isinstance(value, float) else str(value)


# ---- running it ----


def _batches(cases: Iterable[Case], size: int) -> Iterator[List[Tuple[int, Case]]]:
    indexed = enumerate(cases)
    while True:
        batch = list(itertools.islice(indexed, size))
        if not batch:
            return
        yield batch


_pool_model: Tuple[str, str] = ("", "")


def _pool_init(text: str, directory: str) -> None:
    global _pool_model
    _pool_model = (text, directory)
    _model(text, directory)  # the one load of this process


def _pool_batch(batch, run):
    return _run_batch(_pool_model[0], _pool_model[1], batch, run)


# How often a case whose worker process died alone is run again before it is recorded as failed.
_DEATHS = 2


def _died(index: int, case: Case, deaths: int) -> Dict[str, Any]:
    return _failed(
        index,
        case,
        f"the worker process died running case {index} ({deaths} times: killed by a signal or out of memory); "
        "the other cases are not affected",
    )


def _run_local(text, directory, batches: Iterator, run, count: int, take) -> None:
    """Runs the batches on `count` processes, a few batches ahead of the results (the cases are
    made as they are needed). A worker process that dies breaks the whole pool and every batch in
    flight with it: the pool is made again and those batches run again, one at a time, so that a
    batch that kills its worker again is the culprit; its cases are then run singly, and a case
    that kills its worker _DEATHS times alone is recorded as failed."""
    ahead = 2 * count
    suspects: Deque[Tuple[List[Tuple[int, Case]], int]] = collections.deque()
    exhausted = False
    pool = None
    try:
        while True:
            if pool is None:
                pool = ProcessPoolExecutor(max_workers=count, initializer=_pool_init, initargs=(text, directory))
                in_flight: Dict[Any, Tuple[List[Tuple[int, Case]], int, bool]] = {}
            if suspects:
                if not in_flight:
                    batch, deaths = suspects.popleft()
                    in_flight[pool.submit(_pool_batch, batch, run)] = (batch, deaths, True)
            else:
                while not exhausted and len(in_flight) < ahead:
                    batch = next(batches, None)
                    if batch is None:
                        exhausted = True
                    else:
                        in_flight[pool.submit(_pool_batch, batch, run)] = (batch, 0, False)
            if not in_flight:
                return
            done, _ = wait(list(in_flight), return_when=FIRST_COMPLETED)
            lost = []
            for future in done:
                batch, deaths, alone = in_flight.pop(future)
                try:
                    take(future.result())
                except BrokenProcessPool:
                    lost.append((batch, deaths, alone))
                except Exception as error:  # e.g. a model the worker cannot load
                    take(_failed(i, c, f"{type(error).__name__}: {error}") for i, c in batch)
            if not lost:
                continue
            # the pool is broken: what was still in flight is lost with it
            for future, (batch, deaths, alone) in in_flight.items():
                if future.done() and future.exception() is None:
                    take(future.result())
                else:
                    lost.append((batch, deaths, alone))
            pool.shutdown(wait=True, cancel_futures=True)
            pool = None
            for batch, deaths, alone in lost:
                if not alone:
                    suspects.append((batch, deaths))
                elif len(batch) > 1:  # this batch killed its worker: find the case that does
                    suspects.extend(([item], 0) for item in batch)
                elif deaths + 1 >= _DEATHS:
                    index, case = batch[0]
                    take([_died(index, case, deaths + 1)])
                else:
                    suspects.append((batch, deaths + 1))
    finally:
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


def _run_dask(client, text, directory, batches: Iterator, run, take) -> None:
    from distributed import as_completed

    workers = max(1, len(client.scheduler_info().get("workers", {})))
    futures: Dict[Any, List[Tuple[int, Case]]] = {}
    completed = as_completed()

    def submit_next() -> None:
        batch = next(batches, None)
        if batch is not None:
            future = client.submit(_run_batch, text, directory, batch, run, pure=False)
            futures[future] = batch
            completed.add(future)

    for _ in range(8 * workers):  # enough to keep every worker busy; the rest follow as these end
        submit_next()
    for future in completed:
        batch = futures.pop(future)
        try:
            take(future.result())
        except Exception as error:  # e.g. KilledWorker: the batch failed on several workers
            take(_failed(i, c, f"{type(error).__name__}: {error}") for i, c in batch)
        submit_next()


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
    ``make_cases``). ``solver`` … ``tolerance``: the run settings (the model's by default); one
    that ``simulate`` would refuse (a NaN, negative or zero step, duration or tolerance) raises
    ValueError before any case runs, as do parameter values that are not finite numbers.

    Where the cases run:

    - ``client``: a ``dask.distributed.Client``; the cases go to its workers in batches, each
      worker loads the model once, results stream back as batches finish. A batch whose worker
      is lost is run again elsewhere (Dask's scheduler retries it); one that fails for another
      reason records its cases as failed with the error.
    - otherwise ``processes`` local processes (default: every core; 1 runs in this process). A
      worker process that dies (killed, out of memory) loses no finished case: its batches run
      again, and a case that kills its worker twice is recorded as failed.

    The cases are made as they are needed (``iter_cases``): a sweep of millions of cases starts
    at once; its rows, though, are all kept (``count_cases`` says how many there will be).
    ``on_result`` is called with each case's row as it arrives (progress, early looks). A case
    that fails (a value the model rejects, a run that stops) is a row with status "failed" and
    its message, never an exception.
    """
    from . import load

    if isinstance(model, (str, os.PathLike)):
        model = load(str(model))
    total = count_cases(parameters, samples)
    problems = _kinetree.run_settings_problems(model, _setting(step), _setting(duration), _setting(tolerance))
    if problems:
        raise ValueError(problems[0])
    # a path that names no field of the model (a mistyped body) fails every case: said once, now
    for path, values in parameters.items():
        problem = path_problem(model, path, values, samples is not None)
        if problem:
            raise ValueError(f"parameter {path}: {problem}")
    cases = iter_cases(parameters, samples, seed)
    run = {"solver": solver, "integrator": integrator, "step": step, "duration": duration, "tolerance": tolerance}
    text, directory = model.to_yaml(), model.source_directory
    # the model as every worker will read it: what cannot be read fails here once, as a ModelError,
    # not as a pool of workers that cannot start
    _model(text, directory)
    rows: List[Dict[str, Any]] = []

    def take(batch_rows: Iterable[Dict[str, Any]]) -> None:
        for row in batch_rows:
            rows.append(row)
            if on_result:
                on_result(row)

    if client is not None:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        size = batch_size or max(1, min(50, total // (4 * workers)))
        _run_dask(client, text, directory, _batches(cases, size), run, take)
    else:
        count = processes or os.cpu_count() or 1
        size = batch_size or max(1, min(50, total // (4 * count)))
        if count == 1:
            for batch in _batches(cases, size):
                take(_run_batch(text, directory, batch, run))
        else:
            _run_local(text, directory, _batches(cases, size), run, count, take)
    return SweepResult(rows, list(parameters))
