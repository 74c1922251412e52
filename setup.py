# Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
"""`pip install .` from the checkout: the schedsim Python module.

The extension module is built by the project's own Bazel build
(`bazel build //python:_schedsim.so`, offline: every dependency is a Debian
package, dev/setup installs them) and packaged with python/schedsim/. pip's
build isolation would fetch setuptools from the network; on a machine
without it, use Debian's setuptools:

    python3 -m venv --system-site-packages .venv
    .venv/bin/pip install --no-build-isolation .

SCHEDSIM_BAZEL (default "bazel"), SCHEDSIM_BAZEL_ARGS (startup options,
e.g. "--output_base=/tmp/b") and SCHEDSIM_BAZEL_BUILD_ARGS (default
"-c opt") choose the Bazel command.
"""

import os
import shlex
import shutil
import subprocess

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))


class BazelBuildExt(build_ext):
    """Builds _schedsim.so with Bazel and copies it where setuptools wants
    the extension."""

    def build_extension(self, ext):
        bazel = os.environ.get("SCHEDSIM_BAZEL", "bazel")
        startup = shlex.split(os.environ.get("SCHEDSIM_BAZEL_ARGS", ""))
        build = shlex.split(os.environ.get("SCHEDSIM_BAZEL_BUILD_ARGS",
                                           "-c opt"))
        subprocess.check_call(
            [bazel, *startup, "build", *build, "//python:_schedsim.so"],
            cwd=HERE)
        bin_dir = subprocess.check_output(
            [bazel, *startup, "info", *build, "bazel-bin"], cwd=HERE,
            text=True).strip()
        built = os.path.join(bin_dir, "python", "_schedsim.so")
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(built, target)


setup(
    name="schedsim",
    version="0.1.0",
    description="Linux scheduler, cpufreq and cpuidle simulation",
    license="Apache-2.0",
    packages=["schedsim"],
    package_dir={"schedsim": "python/schedsim"},
    ext_modules=[Extension("schedsim._schedsim", sources=[])],
    cmdclass={"build_ext": BazelBuildExt},
    python_requires=">=3.9",
)
