"""The practice pages' budgets, measured in headless Chromium: bytes loaded, seconds to a verdict.

Run from the repository root on a site built with its practice runtime::

    solitaire-ds docs generate /tmp/gen
    python scripts/browser_bundle.py /tmp/gen/docs/practice/runtime
    mkdocs build -f /tmp/gen/mkdocs.yml -d /tmp/site
    python -m benchmarks.browser_budget /tmp/site

It serves the site on localhost, opens exercise 1's page in a fresh browser profile (nothing
cached), types the solution, and presses "Run checks" once (Python loads first) and then
``--repeats`` more times. Printed against the budgets:

* bytes transferred by the page and its worker (runtime plus wheels): at most 40 MB;
* the first "Run checks", loading included: at most 15 s;
* a later "Run checks" (the median): at most 5 s.

These are figures for this machine, printed, never asserted in a test: machines are shared.
Needs the docs extra (Playwright) and Debian's chromium.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from solitaire_ds.course import REPO_ROOT

BUDGET_BYTES = 40_000_000
BUDGET_FIRST = 15.0
BUDGET_LATER = 5.0
PAGE = "practice/exercise-01-array-stack/"


def _serve(site: Path) -> tuple[subprocess.Popen[bytes], str]:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                               "--directory", str(site)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1)
    return server, f"http://127.0.0.1:{port}/"


def measure(site: Path, repeats: int = 3, chromium: str = "/usr/bin/chromium") -> dict[str, float]:
    """Return ``bytes``, ``first`` and ``later`` (median seconds) for exercise 1's page."""
    from playwright.sync_api import sync_playwright

    solution = (REPO_ROOT / "solutions" / "structures" / "array_stack.py").read_text(encoding="utf-8")
    server, base = _serve(site)
    sizes: dict[str, int] = {}
    try:
        with tempfile.TemporaryDirectory() as profile, sync_playwright() as pw:
            context = pw.chromium.launch_persistent_context(profile, executable_path=chromium, headless=True,
                                                            args=["--no-sandbox", "--disable-gpu"])
            page = context.new_page()

            def count(response: object) -> None:
                with contextlib.suppress(Exception):  # a redirect or an aborted request has no body
                    sizes[response.url] = len(response.body())  # type: ignore[attr-defined]

            context.on("response", count)
            page.goto(base + PAGE, wait_until="networkidle")
            page.locator("button[data-action=check]:enabled").wait_for(timeout=30_000)
            page.locator(".ds-practice .cm-content").click()
            page.keyboard.press("Control+A")
            page.keyboard.insert_text(solution)
            times = []
            for _ in range(1 + repeats):
                started = time.perf_counter()
                page.locator("button[data-action=check]").click()
                page.wait_for_function("!document.querySelector('[data-action=check]').disabled", timeout=300_000)
                times.append(time.perf_counter() - started)
                assert "passes every test" in page.locator(".ds-practice__output").inner_text()
            context.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
    return {"bytes": float(sum(sizes.values())), "first": times[0], "later": statistics.median(times[1:])}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path, help="a built site with its practice runtime")
    parser.add_argument("--repeats", type=int, default=3, help="later runs to time (default 3)")
    args = parser.parse_args(argv)
    if not (args.site / "practice" / "runtime" / "manifest.json").is_file():
        print(f"{args.site} has no practice runtime: run scripts/browser_bundle.py first", file=sys.stderr)
        return 2
    figures = measure(args.site, args.repeats)
    rows = [("bytes transferred", f"{figures['bytes'] / 1e6:.1f} MB", f"{BUDGET_BYTES / 1e6:.0f} MB",
             figures["bytes"] <= BUDGET_BYTES),
            ("first Run checks (loading included)", f"{figures['first']:.1f} s", f"{BUDGET_FIRST:g} s",
             figures["first"] <= BUDGET_FIRST),
            (f"later Run checks (median of {args.repeats})", f"{figures['later']:.2f} s", f"{BUDGET_LATER:g} s",
             figures["later"] <= BUDGET_LATER)]
    print(f"{'measure':<40} {'measured':>10} {'budget':>8}  verdict")
    for name, value, budget, ok in rows:
        print(f"{name:<40} {value:>10} {budget:>8}  {'within' if ok else 'OVER'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
