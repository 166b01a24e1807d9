"""Build or remove the optional compiled path (``make accel``, ``make accel-clean``).

``python -m rulelang.accel_build [build [MODULE ...] | clean | status]``: compiles
``accel.MODULES`` (or the modules named) with Cython in place, removes the compiled files, or
says which modules run compiled. ``accel.py`` says how the compiled modules are found and
guarded. Cython and setuptools are imported only when a build runs (the ``accel`` extra).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from .accel import MANIFEST, MODULES, PACKAGE, accelerated, compiled_files, digest

# Cython directives: annotations are not used as C types (``x: int`` would reject a bool or
# a subclass that Python accepts), so compiled code keeps Python's semantics exactly
DIRECTIVES = {"language_level": 3, "annotation_typing": False, "binding": True}


def clean() -> list[Path]:
    """Remove every compiled module, the generated C files and the manifest."""
    gone = []
    for name, files in compiled_files().items():
        for f in [*files, PACKAGE / f"{name}.c"]:
            if f.exists():
                f.unlink()
                gone.append(f)
    if MANIFEST.exists():
        MANIFEST.unlink()
        gone.append(MANIFEST)
    return gone


def build(modules: tuple[str, ...] = MODULES, jobs: int = 2) -> None:
    """Compile ``modules`` in place (the ``accel`` extra: Cython, setuptools; a C compiler)."""
    from Cython.Build import cythonize  # only here: the package itself never needs Cython
    from setuptools import Extension, setup

    clean()
    root = PACKAGE.parent
    exts = [Extension(f"{__package__}.{n}", [str(Path(__package__) / f"{n}.py")])
            for n in modules]
    cwd = os.getcwd()
    os.chdir(root)  # setuptools places in-place builds relative to the working directory
    try:
        setup(name="rulelang-accel", packages=[], py_modules=[], ext_modules=cythonize(
                  exts, compiler_directives=DIRECTIVES, quiet=True, nthreads=jobs),
              script_args=["-q", "build_ext", "--inplace", "--build-temp", "build/accel",
                           f"--parallel={jobs}"])
    finally:
        os.chdir(cwd)
    for n in modules:  # the C files are only an intermediate
        (PACKAGE / f"{n}.c").unlink(missing_ok=True)
    MANIFEST.write_text(json.dumps({n: digest(n) for n in modules}, indent=1) + "\n",
                        encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    cmd = args[0] if args else "build"
    if cmd == "build":
        build(tuple(args[1:]) or MODULES)
    elif cmd == "clean":
        for f in clean():
            print(f"removed {f.relative_to(PACKAGE.parent)}")
    elif cmd != "status":
        print("usage: python -m rulelang.accel_build [build [MODULE ...] | clean | status]",
              file=sys.stderr)
        return 2
    print("compiled: " + (", ".join(accelerated()) or "none (pure Python)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
