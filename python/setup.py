"""Builds the cdlinear Python package: the extension module cdlinear._core is
pybind11 over the C++ interface (src/cdlinear.h), compiled together with the
library's own sources into one shared object, so that the installed package
needs neither the build tree nor a system libcdlinear.

    /usr/bin/python3 -m pip install --no-build-isolation ./python

CC (e.g. "ccache g++") is the compiler, as distutils uses it; CDLINEAR_JOBS
sets how many sources compile at once (default: one per core).
CDLINEAR_LIBRARY, the path of a libcdlinear.a whose objects are
position-independent (-fPIC), is linked instead of compiling the library's
sources again (make python sets it when the Makefile builds them so).
"""
import glob
import os
import sys

from pybind11.setup_helpers import ParallelCompile, Pybind11Extension
from setuptools import setup

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SRC = os.path.join(ROOT, "src")
if not os.path.isfile(os.path.join(SRC, "cdlinear.h")):
    sys.exit("setup.py: the package builds from the repository: " + SRC + " not found")

# Relative paths: setuptools wants sources inside the project's tree or
# given relative to it.
library_sources = sorted(
    os.path.relpath(path, HERE) for path in glob.glob(os.path.join(SRC, "*", "*.cpp"))
)
binding_sources = sorted(
    os.path.relpath(path, HERE) for path in glob.glob(os.path.join(HERE, "src", "*.cpp"))
)

ParallelCompile("CDLINEAR_JOBS", default=0).install()

library = os.environ.get("CDLINEAR_LIBRARY")
# setuptools rebuilds the extension when one of these is newer than it.
headers = sorted(
    os.path.relpath(path, HERE)
    for path in glob.glob(os.path.join(SRC, "*.h")) + glob.glob(os.path.join(SRC, "*", "*.h"))
)
core = Pybind11Extension(
    "cdlinear._core",
    binding_sources + ([] if library else library_sources),
    extra_objects=[library] if library else [],
    depends=headers + ([library] if library else []),
    include_dirs=[os.path.relpath(SRC, HERE)],
    cxx_std=17,
    # -UNDEBUG: the library keeps its assert()s, as the Makefile builds it.
    extra_compile_args=["-O3", "-UNDEBUG", "-Wall", "-Wextra"],
    extra_link_args=["-pthread"],
)

setup(ext_modules=[core])
