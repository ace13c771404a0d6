# SPDX-License-Identifier: BSD-3-Clause
"""Paths and helpers shared by the Python tests (set by tests/CMakeLists.txt)."""
import csv
import io
import os
import subprocess

SOURCE_DIR = os.environ["KINETREE_SOURCE_DIR"]
CLI = os.environ["KINETREE_CLI"]
EXAMPLES = os.path.join(SOURCE_DIR, "examples")


def example(name: str) -> str:
    return os.path.join(EXAMPLES, name)


def cli(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    run = subprocess.run([CLI, *args], capture_output=True, text=True, timeout=600)
    if check and run.returncode != 0:
        raise AssertionError(f"kinetree-cli {' '.join(args)}: exit {run.returncode}\n{run.stderr}")
    return run


def read_csv(text: str):
    rows = list(csv.reader(io.StringIO(text)))
    return rows[0], [[float(x) for x in row] for row in rows[1:]]
