"""Build the runtime of the in-browser exercise pages into a folder of the site's sources.

    python scripts/browser_bundle.py OUT/docs/practice/runtime

``solitaire-ds docs generate OUT`` writes the site's pages; this adds what the practice pages
load, all of it from the site's own origin (nothing from a CDN at run time):

- ``pyodide/``: the Pyodide runtime from the npm registry (``pyodide.mjs``, ``pyodide.asm.*``,
  the standard library archive and the lock file), the version pinned in
  ``docs/browser/package.json``;
- ``wheels/``: this package (built from the checkout) and the test tools it is checked with,
  pinned to the ``grading`` extra's versions and fetched from PyPI for Pyodide's Python and
  platform (Hypothesis has a compiled core, built for Pyodide on PyPI; the rest are pure);
- ``app.js``: the page script with its CodeMirror editor, bundled by esbuild; ``worker.js``:
  the Web Worker that runs Python;
- ``manifest.json``: the wheels to load and every file's size, which the page shows while it
  loads.

Needs Node.js and npm (``npm ci`` installs the front end from ``docs/browser/package-lock.json``)
and network access to the npm registry and PyPI, at build time only.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FRONT = ROOT / "docs" / "browser"
#: The Pyodide files a page needs (the npm package also holds consoles and type files).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")


def grading_pins() -> list[str]:
    """The ``grading`` extra's requirements (``pytest==…``, ``hypothesis==…``): one source for both."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pins: list[str] = project["project"]["optional-dependencies"]["grading"]
    return pins


def _run(command: list[str], cwd: Path = ROOT) -> None:
    subprocess.run(command, cwd=cwd, check=True)


def bundle(dest: Path) -> dict[str, Any]:
    """Write the practice pages' runtime into ``dest``; return its manifest."""
    if dest.exists():
        shutil.rmtree(dest)
    (dest / "pyodide").mkdir(parents=True)
    _run(["npm", "ci", "--silent", "--no-audit", "--no-fund"], cwd=FRONT)
    modules = FRONT / "node_modules"
    for name in PYODIDE_FILES:
        shutil.copy2(modules / "pyodide" / name, dest / "pyodide" / name)
    _run([str(modules / ".bin" / "esbuild"), str(FRONT / "src" / "app.js"), "--bundle", "--format=esm",
          "--minify", "--log-level=warning", f"--outfile={dest / 'app.js'}"])
    shutil.copy2(FRONT / "src" / "worker.js", dest / "worker.js")
    info = json.loads((dest / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8"))["info"]
    python = ".".join(info["python"].split(".")[:2])
    wheels = dest / "wheels"
    _run([sys.executable, "-m", "pip", "download", "--quiet", "--only-binary=:all:",
          "--platform", f"pyemscripten_{info['abi_version']}_wasm32", "--platform", "any",
          "--python-version", python, "--implementation", "cp", "--abi", f"cp{python.replace('.', '')}",
          "--abi", "none", "--dest", str(wheels), *grading_pins()])
    _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(wheels), str(ROOT)])
    files = sorted(p for p in dest.rglob("*") if p.is_file())
    manifest = {
        "pyodide": json.loads((modules / "pyodide" / "package.json").read_text(encoding="utf-8"))["version"],
        "python": info["python"],
        "wheels": sorted(p.name for p in wheels.glob("*.whl")),
        "bytes": {p.relative_to(dest).as_posix(): p.stat().st_size for p in files},
    }
    (dest / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return manifest


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python scripts/browser_bundle.py DEST (e.g. OUT/docs/practice/runtime)", file=sys.stderr)
        return 2
    try:
        manifest = bundle(Path(argv[0]).resolve())
    except subprocess.CalledProcessError as exc:  # npm or pip said why, just above
        command = " ".join(Path(word).name for word in exc.cmd[:4])
        print(f"practice runtime not built: '{command} ...' stopped (exit status {exc.returncode}); "
              "its message is above", file=sys.stderr)
        return 1
    total = sum(manifest["bytes"].values())
    print(f"practice runtime: Pyodide {manifest['pyodide']} (Python {manifest['python']}), "
          f"{len(manifest['wheels'])} wheels, {total / 1e6:.1f} MB in {argv[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
