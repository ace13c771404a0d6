# SPDX-License-Identifier: BSD-3-Clause
"""python3 -m kinetree sweep SPEC.yaml: what `kinetree-cli sweep` runs (docs/sweeps.md)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Dict

USAGE_EXAMPLE = "example: kinetree-cli sweep examples/sweeps/pendulum_release.yaml --processes 2 -o pendulum.csv"


def _spec(path: str) -> Dict[str, Any]:
    import yaml

    try:
        with open(path) as f:
            spec = yaml.safe_load(f)
    except OSError as error:
        raise SystemExit(f"{path}: {error.strerror}")
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else path
        raise SystemExit(f"{where}: error: {getattr(error, 'problem', error)}")
    if not isinstance(spec, dict):
        raise SystemExit(f"{path}: error: expected a mapping with model, parameters and run")
    known = {"model", "parameters", "samples", "seed", "run", "output"}
    for key in spec:
        if key not in known:
            raise SystemExit(f"{path}: error: unknown key '{key}' (expected {', '.join(sorted(known))})")
    for key in ("model", "parameters"):
        if key not in spec:
            raise SystemExit(f"{path}: error: '{key}' is required")
    return spec


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
    args = parser.parse_args(argv)

    import kinetree

    spec = _spec(args.spec)
    base = os.path.dirname(os.path.abspath(args.spec))
    model_path = os.path.join(base, str(spec["model"]))
    run = spec.get("run") or {}
    unknown = set(run) - {"solver", "integrator", "step", "duration", "tolerance"}
    if unknown:
        raise SystemExit(f"{args.spec}: error: run: unknown key '{sorted(unknown)[0]}'")
    if not isinstance(spec["parameters"], dict):
        raise SystemExit(f"{args.spec}: error: parameters: expected a mapping of model fields to values")
    parameters = dict(spec["parameters"])
    output = args.output or spec.get("output")
    if output and not args.output:
        output = os.path.join(base, output)
    try:
        model = kinetree.load(model_path)
    except kinetree.ModelError as error:
        sys.stderr.write(str(error))
        return 1
    client = None
    if args.dask:
        from distributed import Client

        client = Client(args.dask)
    done = [0]

    def progress(row):
        done[0] += 1
        if sys.stderr.isatty():
            sys.stderr.write(f"\rsweep: {done[0]} cases")

    try:
        result = kinetree.sweep(
            model,
            parameters,
            samples=spec.get("samples"),
            seed=int(spec.get("seed", 0)),
            processes=args.processes,
            client=client,
            batch_size=args.batch_size,
            on_result=progress,
            **run,
        )
    except ValueError as error:
        raise SystemExit(f"{args.spec}: error: {error}")
    finally:
        if client is not None:
            client.close()
    if sys.stderr.isatty():
        sys.stderr.write("\n")
    if output:
        result.write(output)
    sys.stdout.write(result.report())
    return 0 if not result.failures else 1


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] != "sweep":
        sys.stderr.write("usage: python3 -m kinetree sweep SPEC.yaml [options]\n")
        return 2
    return sweep_main(argv[1:])


if __name__ == "__main__":
    sys.exit(main())
