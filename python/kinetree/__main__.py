# SPDX-License-Identifier: BSD-3-Clause
"""python3 -m kinetree sweep SPEC.yaml: what `kinetree-cli sweep` runs (docs/sweeps.md)."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from typing import Any, Dict, Optional

USAGE_EXAMPLE = "example: kinetree-cli sweep examples/sweeps/pendulum_release.yaml --processes 2 -o pendulum.csv"


# Without --max-cases, a sweep of more cases than this is refused: every case's row stays in
# memory until the table is written (a few kB each), and at a millisecond a case it runs for hours.
DEFAULT_MAX_CASES = 1_000_000


class SpecError(Exception):
    """A problem of the sweep file, with where it is."""


class _Mapping(dict):
    """A mapping of the sweep file that remembers where each of its values is (PyYAML's marks)."""

    marks: Dict[Any, Any]


def _load_yaml(path: str):
    import yaml

    class Loader(yaml.SafeLoader):
        pass

    def mapping(loader, node):
        loader.flatten_mapping(node)
        out = _Mapping()
        out.marks = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            if key in out:
                raise SpecError(f"{_at(path, key_node.start_mark)}: error: duplicate key '{key}'")
            out[key] = loader.construct_object(value_node, deep=True)
            out.marks[key] = value_node.start_mark
        return out

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, mapping)
    try:
        with open(path) as f:
            return yaml.load(f, Loader=Loader)
    except OSError as error:
        raise SpecError(f"{path}: error: {error.strerror}")
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        raise SpecError(f"{_at(path, mark)}: error: {getattr(error, 'problem', None) or error}")


def _at(path: str, mark) -> str:
    return f"{path}:{mark.line + 1}:{mark.column + 1}" if mark is not None else path


def _shown(value: Any) -> str:
    return repr(value) if isinstance(value, str) else str(value)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _spec(path: str) -> Dict[str, Any]:
    """The sweep file, checked: every problem names the file, the line and column of the value,
    and what was expected."""
    from .sweep import parameter_values

    spec = _load_yaml(path)
    if not isinstance(spec, _Mapping):
        raise SpecError(f"{path}: error: expected a mapping with model, parameters and run")

    def fail(mapping: _Mapping, key: Any, message: str):
        raise SpecError(f"{_at(path, mapping.marks.get(key))}: error: {message}")

    known = {"model", "parameters", "samples", "seed", "run", "output"}
    for key in spec:
        if key not in known:
            fail(spec, key, f"unknown key '{key}' (expected {', '.join(sorted(known))})")
    for key in ("model", "parameters"):
        if key not in spec:
            raise SpecError(f"{path}: error: '{key}' is required")
    for key in ("model", "output"):
        if key in spec and not isinstance(spec[key], str):
            fail(spec, key, f"{key}: expected a file name, got {_shown(spec[key])}")
    samples = spec.get("samples")
    if samples is not None and (not isinstance(samples, int) or isinstance(samples, bool) or samples < 1):
        fail(spec, "samples", f"samples: expected a positive whole number of cases, got {_shown(samples)}")
    seed = spec.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        fail(spec, "seed", f"seed: expected a whole number >= 0, got {_shown(seed)}")
    parameters = spec["parameters"]
    if not isinstance(parameters, _Mapping) or not parameters:
        fail(spec, "parameters", "parameters: expected a mapping of model fields to values")
    for name, values in parameters.items():
        try:
            parameter_values(values, samples is not None)
        except ValueError as error:
            fail(parameters, name, f"parameters: {name}: {error}")
    run = spec.get("run")
    if run is None:
        spec["run"] = run = _Mapping()
        run.marks = {}
    if not isinstance(run, _Mapping):
        fail(spec, "run", f"run: expected a mapping of solver, integrator, step, duration, tolerance, got {_shown(run)}")
    for key, value in run.items():
        if key in ("solver", "integrator"):
            if not isinstance(value, str):
                fail(run, key, f"run: {key}: expected a name, got {_shown(value)}")
        elif key in ("step", "duration", "tolerance"):
            if not _is_number(value):
                fail(run, key, f"run: {key}: expected a number, got {_shown(value)}")
        else:
            fail(run, key, f"run: unknown key '{key}' (expected duration, integrator, solver, step, tolerance)")
    return spec


def _check_run(spec: Dict[str, Any], path: str, model) -> None:
    """The run settings against the model's, by the rule simulate and kinetree-cli follow, and the
    parameters' paths against its fields."""
    from . import _kinetree
    from .sweep import path_problem

    run = spec["run"]
    problems = _kinetree.run_settings_problems(model, run.get("step"), run.get("duration"), run.get("tolerance"))
    if problems:
        field = problems[0].split(":", 1)[0]
        where = _at(path, run.marks.get(field)) if field in run else path
        raise SpecError(f"{where}: error: run: {problems[0]}")
    # each parameter names a field of the model (a mistyped body fails here, at its line, not in
    # every case)
    parameters = spec["parameters"]
    for name, values in parameters.items():
        problem = path_problem(model, name, values, spec.get("samples") is not None)
        if problem:
            raise SpecError(f"{_at(path, parameters.marks.get(name))}: error: parameters: {name}: {problem}")


def _check_output(output: str) -> Optional[str]:
    """Why the table cannot be written to `output`, found before the sweep runs (None: it can)."""
    if os.path.isdir(output):
        return f"{output}: is a folder; expected the table's file name (e.g. {os.path.join(output, 'sweep.csv')})"
    folder = os.path.dirname(os.path.abspath(output))
    if not os.path.isdir(folder):
        what = "is not a folder" if os.path.exists(folder) else "does not exist"
        return f"{output}: cannot write the table: {folder} {what}"
    try:
        handle, probe = tempfile.mkstemp(dir=folder, prefix=".kinetree-sweep-", suffix=".probe")
        os.close(handle)
        os.remove(probe)
    except OSError as error:
        return f"{output}: cannot write the table in {folder}: {error.strerror}"
    if output.endswith(".parquet"):
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            return f"{output}: Parquet needs pyarrow (python3-pyarrow); write a .csv instead"
    return None


def _keep(result, output: str) -> str:
    """Writes the table of a sweep whose output could not be written to a file of its own in the
    temporary folder, and returns its name."""
    stem = os.path.splitext(os.path.basename(output))[0] or "sweep"
    handle, kept = tempfile.mkstemp(prefix=f"kinetree-sweep-{stem}-", suffix=".csv")
    os.close(handle)
    try:
        result.write(kept)
    except BaseException:
        os.remove(kept)
        raise
    return kept


def _duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.0f} s"
    if seconds < 3600:
        return f"{seconds / 60:.0f} min"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def _size(octets: float) -> str:
    for unit in ("bytes", "kB", "MB", "GB"):
        if octets < 1000 or unit == "GB":
            return f"{octets:.0f} {unit}" if unit == "bytes" else f"{octets:.1f} {unit}"
        octets /= 1000
    return ""


def sweep_main(argv) -> int:
    parser = argparse.ArgumentParser(
        prog="kinetree-cli sweep",
        description="Run a parameter sweep described by a YAML file (docs/sweeps.md): every case's peak joint "
        "loads, final state and energy drift in one table, and the worst case per joint.",
        epilog=USAGE_EXAMPLE,
    )
    parser.add_argument("spec", help="the sweep: model, parameters, samples, seed, run, output")
    parser.add_argument("-o", "--output", help="the table (CSV; .parquet with pyarrow); default: the spec's output")
    parser.add_argument("--processes", type=int, help="local processes (default: every core)")
    parser.add_argument("--dask", metavar="ADDRESS", help="run on a Dask cluster, e.g. tcp://scheduler:8786")
    parser.add_argument("--batch-size", type=int, help="cases per task (default: about 4 tasks per worker)")
    parser.add_argument(
        "--max-cases",
        type=int,
        default=DEFAULT_MAX_CASES,
        help=f"refuse a sweep of more cases than this (default: {DEFAULT_MAX_CASES:,})",
    )
    args = parser.parse_args(argv)

    import kinetree
    from .sweep import count_cases

    try:
        spec = _spec(args.spec)
    except SpecError as error:
        sys.stderr.write(f"{error}\n")
        return 1
    base = os.path.dirname(os.path.abspath(args.spec))
    model_path = os.path.join(base, spec["model"])
    parameters = dict(spec["parameters"])
    samples = spec.get("samples")
    cases = count_cases(parameters, samples)
    if cases > args.max_cases:
        sys.stderr.write(
            f"{args.spec}: error: the sweep has {cases:,} cases, more than --max-cases {args.max_cases:,} (every "
            f"case's row is kept in memory until the table is written); give --max-cases {cases} to run it, "
            "or fewer values or samples\n"
        )
        return 1
    output = args.output or spec.get("output")
    if output and not args.output:
        output = os.path.join(base, output)
    if output:
        problem = _check_output(output)
        if problem:
            sys.stderr.write(f"kinetree-cli sweep: {problem}\n")
            return 1
    try:
        model = kinetree.load(model_path)
    except kinetree.ModelError as error:
        sys.stderr.write(str(error))
        return 1
    try:
        _check_run(spec, args.spec, model)
    except SpecError as error:
        sys.stderr.write(f"{error}\n")
        return 1
    client = None
    if args.dask:
        from distributed import Client

        client = Client(args.dask)
    workers = max(1, len(client.scheduler_info().get("workers", {})) if client else args.processes or os.cpu_count() or 1)
    where = f"on the Dask cluster at {args.dask}" if client else f"on {workers} process{'es' if workers > 1 else ''}"
    sys.stderr.write(f"sweep: {cases:,} case{'s' if cases != 1 else ''} {where}\n")
    started = time.monotonic()
    done = [0]
    first = [0.0]  # when the first row came: the rate is measured from then, after the start-up
    estimated = [cases <= 2 * workers]  # a sweep of one round needs no estimate

    def progress(row):
        done[0] += 1
        now = time.monotonic()
        if done[0] == 1:
            first[0] = now
        # the estimate: after two seconds of rows (or ten of waiting), what the rest will take
        if not estimated[0] and ((now - first[0] >= 2 and done[0] > 2 * workers) or now - started > 10):
            estimated[0] = True
            rate = (done[0] - 1) / (now - first[0]) if now - first[0] >= 2 else done[0] / (now - started)
            line = len(",".join(str(v) for v in row.values())) + 1
            sys.stderr.write(
                f"sweep: about {_duration((cases - done[0]) / rate)} more at {rate:,.0f} cases a second "
                f"(measured over the first {done[0]:,}); the table about {_size(line * cases)}\n"
            )
        if sys.stderr.isatty():
            sys.stderr.write(f"\rsweep: {done[0]:,} of {cases:,} cases")

    try:
        result = kinetree.sweep(
            model,
            parameters,
            samples=samples,
            seed=spec.get("seed", 0),
            processes=args.processes,
            client=client,
            batch_size=args.batch_size,
            on_result=progress,
            **spec["run"],
        )
    except ValueError as error:
        sys.stderr.write(f"{args.spec}: error: {error}\n")
        return 1
    finally:
        if client is not None:
            client.close()
    if sys.stderr.isatty():
        sys.stderr.write("\n")
    # as kinetree-cli peaks: 1 when a case failed, else 3 when a load rating was reached
    status = 1 if result.failures else 3 if result.ratings_reached() else 0
    if output:
        try:
            result.write(output)
        except (OSError, RuntimeError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            try:
                kept = _keep(result, output)
                sys.stderr.write(f"kinetree-cli sweep: cannot write {output}: {reason}; the table is kept in {kept}\n")
            except OSError as second:
                sys.stderr.write(
                    f"kinetree-cli sweep: cannot write {output}: {reason}, nor a copy in {tempfile.gettempdir()}: "
                    f"{second.strerror}; the report below is all that is left of the sweep\n"
                )
            status = 1
    sys.stdout.write(result.report())
    return status


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] != "sweep":
        sys.stderr.write("usage: python3 -m kinetree sweep SPEC.yaml [options]\n")
        return 2
    try:
        return sweep_main(argv[1:])
    except KeyboardInterrupt:
        sys.stderr.write("\nkinetree-cli sweep: interrupted\n")
        return 130


if __name__ == "__main__":
    sys.exit(main())
