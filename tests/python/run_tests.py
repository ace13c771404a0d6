# SPDX-License-Identifier: BSD-3-Clause
"""Runs the Python module's tests (label `python`): exit 77 (skipped, with the reason) where
python3's numpy or the built module is missing, else unittest's verdict on tests/python/test_*.py."""
import os
import sys
import unittest

def main() -> int:
    try:
        import numpy  # noqa: F401
    except ImportError:
        print("SKIP: numpy is not installed for this python3 (python3-numpy, installer/debian-packages.txt)")
        return 77
    try:
        import kinetree  # noqa: F401
    except ImportError as error:
        print(f"SKIP: the kinetree module is not built ({error}); PYTHONPATH={os.environ.get('PYTHONPATH', '')}")
        return 77
    here = os.path.dirname(os.path.abspath(__file__))
    pattern = sys.argv[1] if len(sys.argv) > 1 else "test_*.py"
    suite = unittest.defaultTestLoader.discover(here, pattern=pattern)
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    return 0 if result.wasSuccessful() else 1


# the guard matters: Dask's worker processes start by importing this file
if __name__ == "__main__":
    sys.exit(main())
