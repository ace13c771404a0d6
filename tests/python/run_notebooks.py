# SPDX-License-Identifier: BSD-3-Clause
"""Executes the notebooks of examples/notebooks (label `python`) so that they never rot: each runs
top to bottom in a fresh Python 3 kernel against the build's module, and fails on the first cell
that raises. Exit 77 (skipped, with the reason) where Jupyter's nbclient, nbformat or ipykernel
(python3-nbconvert, python3-ipykernel), numpy or the built module is missing."""
import glob
import os
import sys
import time


def main() -> int:
    try:
        import nbformat
        from nbclient import NotebookClient
        from nbclient.exceptions import CellExecutionError
        import ipykernel  # noqa: F401
    except ImportError as error:
        print(f"SKIP: Jupyter is not installed for this python3 ({error}; python3-nbconvert, python3-ipykernel)")
        return 77
    try:
        import numpy  # noqa: F401
        import kinetree  # noqa: F401
    except ImportError as error:
        print(f"SKIP: numpy or the kinetree module is missing ({error}); PYTHONPATH={os.environ.get('PYTHONPATH', '')}")
        return 77
    source = os.environ.get("KINETREE_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
    folder = os.path.join(source, "examples", "notebooks")
    books = sorted(glob.glob(os.path.join(folder, "*.ipynb")))
    if not books:
        print(f"no notebooks in {folder}")
        return 1
    os.environ.setdefault("MPLBACKEND", "Agg")  # figures are drawn, not shown
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")  # the kernel's debugger note on frozen modules
    failed = []
    for path in books:
        started = time.monotonic()
        book = nbformat.read(path, as_version=4)
        client = NotebookClient(book, timeout=600, kernel_name="python3", resources={"metadata": {"path": folder}})
        try:
            client.execute()
            print(f"ok      {os.path.basename(path)} ({time.monotonic() - started:.1f} s)")
        except CellExecutionError as error:
            failed.append(path)
            print(f"FAILED  {os.path.basename(path)}:\n{error}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
