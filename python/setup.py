"""Builds libevolve (the repository's CMake project, one folder up) into the package.

Environment: EVOLVE_CUDA=AUTO|ON|OFF (default AUTO: the CUDA backend when nvcc
exists), CUDA_ARCHS ("89;90"), EVOLVE_CMAKE_ARGS (more CMake arguments),
EVOLVE_LIBRARY_PREBUILT (a built libevolve to ship instead of building one).
The build needs CMake, a C compiler and the Debian packages of scripts/setup.sh
(libhdf5-dev, libyaml-dev, libcjson-dev, libxxhash-dev, pkg-config).
"""
import glob
import os
import shlex
import shutil
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


class BuildWithCMake(build_py):
    def run(self):
        super().run()
        dest = os.path.join(self.build_lib, "evolve")
        os.makedirs(dest, exist_ok=True)
        pre = os.environ.get("EVOLVE_LIBRARY_PREBUILT")
        if pre:
            shutil.copy2(pre, os.path.join(dest, "libevolve.so"))
            return
        if not os.path.exists(os.path.join(ROOT, "include", "evolve.h")):
            sys.exit(f"setup.py: {ROOT} is not the evolve repository (no include/evolve.h); "
                     "build from a checkout: pip install ./python")
        build = os.path.abspath(os.path.join(HERE, "build", "cmake"))
        cuda = os.environ.get("EVOLVE_CUDA", "AUTO")
        if cuda != "OFF" and not shutil.which("nvcc") and os.path.exists("/usr/local/cuda/bin/nvcc"):
            os.environ["PATH"] = "/usr/local/cuda/bin:" + os.environ["PATH"]
        args = ["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Release", f"-DEVOLVE_CUDA={cuda}",
                "-DEVOLVE_BENCH=OFF", f"-DCMAKE_CUDA_ARCHITECTURES={os.environ.get('CUDA_ARCHS', '89;90')}",
                # MPI runs are the command line's (mpirun evolve); the package needs no libmpi
                "-DEVOLVE_MPI=OFF"]
        if shutil.which("ninja"):
            args += ["-G", "Ninja"]
        args += shlex.split(os.environ.get("EVOLVE_CMAKE_ARGS", ""))
        subprocess.check_call(args)
        subprocess.check_call(["cmake", "--build", build, "--target", "evolve_lib", "-j", str(os.cpu_count() or 2)])
        libs = [p for p in glob.glob(os.path.join(build, "libevolve.so*")) + glob.glob(os.path.join(build, "*.dll"))
                + glob.glob(os.path.join(build, "libevolve*.dylib")) if not os.path.islink(p)]
        if not libs:
            sys.exit(f"setup.py: no libevolve in {build}")
        name = "evolve.dll" if libs[0].endswith(".dll") else \
            "libevolve.dylib" if libs[0].endswith(".dylib") else "libevolve.so"
        shutil.copy2(libs[0], os.path.join(dest, name))


class BinaryDistribution(Distribution):
    """The wheel holds a native library: tag it for this platform."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildWithCMake}, distclass=BinaryDistribution)
