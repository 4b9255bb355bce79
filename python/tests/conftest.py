"""Paths the tests share: the repository's data/ files and its ./cdtrain
and ./cdpredict (make test-python builds them first)."""

import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.environ.get("CDL_DATA_DIR", os.path.join(ROOT, "data"))
BIN = os.environ.get("CDL_BIN_DIR", ROOT)


def data_file(name):
    return os.path.join(DATA, name)


@pytest.fixture
def cdtrain(tmp_path):
    """Runs ./cdtrain with the given arguments on a data file; returns the
    model file's text, or with -v its standard output."""
    program = os.path.join(BIN, "cdtrain")
    if not os.access(program, os.X_OK):
        pytest.fail("%s not found: build it first (make cdtrain) or set CDL_BIN_DIR" % program)

    def run(args, data):
        model = str(tmp_path / "cdtrain.model")
        result = subprocess.run([program, "-q"] + args + [data_file(data), model], check=True,
                                capture_output=True, text=True)
        if "-v" in args:
            return result.stdout
        with open(model) as f:
            return f.read()

    return run
