"""The README's Python section runs as written: each `$ ` line from the
repository root, its output the lines the README shows under it. `make
python`, its first line, is what make test-python runs before the tests."""

import os
import re
import subprocess
import sys

from conftest import ROOT


def readme_python_commands():
    with open(os.path.join(ROOT, "README.md")) as f:
        text = f.read()
    section = text.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    commands = []
    for block in re.findall(r"```\n(.*?)```", section, re.S):
        for line in block.splitlines():
            if line.startswith("$ "):
                commands.append([line[2:], []])
            elif commands:
                commands[-1][1].append(line)
    return commands


def test_readme_python_lines_run_as_written():
    commands = readme_python_commands()
    assert commands and commands[0][0] == "make python"
    # The README names the venv's python; the tests run in that venv.
    venv_python = os.path.join(ROOT, "build", "venv", "bin", "python")
    assert os.path.realpath(sys.prefix) == os.path.realpath(os.path.dirname(
        os.path.dirname(venv_python))), "run the tests with make test-python"
    for command, expected in commands[1:]:
        result = subprocess.run(["bash", "-c", command], cwd=ROOT, capture_output=True,
                                text=True, check=True)
        assert result.stdout.splitlines() == expected, command
