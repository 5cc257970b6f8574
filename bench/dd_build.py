"""Compile the double-dummy search with mypyc (optional).

    python bench/dd_build.py [--clean]

Copies ``engine/dd_core.py`` to a temporary directory as ``dd_core_native.py`` with the plain
module's ``digest()`` appended as ``DIGEST``, compiles it with mypyc (and the C compiler) and
puts the extension module beside the engine as ``engine/dd_core_native.<platform>.so``, which
``engine.dd_search`` then uses in place of the plain module. Rebuild after any change to
``dd_core.py``: a copy built from other code has another digest and is ignored. ``--clean``
removes it. The plain module stays the reference: the tests run it whether or not a compiled
copy exists.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from engine import dd_core

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "engine"


def built() -> list[Path]:
    return sorted(ENGINE.glob("dd_core_native*.so"))


def build() -> Path:
    source = (ENGINE / "dd_core.py").read_text()
    source += f'\n\nDIGEST: Final = "{dd_core.digest()}"\n'
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "dd_core_native.py").write_text(source)
        subprocess.run(
            [sys.executable, "-m", "mypyc", "dd_core_native.py"],
            cwd=work,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        (made,) = work.glob("dd_core_native*.so")
        for old in built():
            old.unlink()
        target = ENGINE / made.name
        shutil.copy2(made, target)
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled copy")
    args = parser.parse_args()
    if args.clean:
        for old in built():
            old.unlink()
            print(f"removed {old.relative_to(ROOT)}")
        return
    target = build()
    print(f"built {target.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
