"""``solitaire-ds docs generate OUT``: the site's sources, expanded once, for any builder.

The builds themselves (mkdocs and Zensical, strict, from one generated folder) and the
browser test of both sites run in CI (``.ci/run``); these tests hold the folder it builds from.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from solitaire_ds.cli.args import UsageError
from solitaire_ds.cli.docs import GENERATED_MARK, generate, generated_config
from solitaire_ds.course import REPO_ROOT

DOCS = REPO_ROOT / "docs"


def _pages(root: Path) -> set[str]:
    return {path.relative_to(root).as_posix() for path in root.rglob("*.md")}


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("gen") / "site-sources"
    generate(out)
    return out


def test_every_page_is_generated_with_no_directive_left(generated: Path) -> None:
    excluded = ("hooks/", "data/", "browser/")
    sources = {page for page in _pages(DOCS) if not page.startswith(excluded)}
    assert _pages(generated / "docs") == sources
    directive = re.compile(r"^[ \t]*<!--\s*gen:.*-->[ \t]*$", re.MULTILINE)  # as docgen finds them
    left = {page: directive.findall((generated / "docs" / page).read_text(encoding="utf-8")) for page in sources}
    assert {page: found for page, found in left.items() if found} == {}


def test_a_page_with_directives_comes_out_with_their_content(generated: Path) -> None:
    source = (DOCS / "explanation/games/perpetual-motion.md").read_text(encoding="utf-8")
    out = (generated / "docs/explanation/games/perpetual-motion.md").read_text(encoding="utf-8")
    assert "<!-- gen:" in source
    assert len(out) > len(source) + 1000  # the rule table, the record, the boards
    assert "| Rule |" in out or "<table" in out or "|---" in out or "| ---" in out


def test_the_other_files_are_copied_unchanged(generated: Path) -> None:
    for rel in ["stylesheets/extra.css", "javascripts/scroll-regions.js"]:
        assert (generated / "docs" / rel).read_bytes() == (DOCS / rel).read_bytes()
    assert not (generated / "docs" / "hooks").exists()
    assert not (generated / "docs" / "data").exists()


def test_the_generated_config_has_no_hook_and_names_the_checkout(generated: Path) -> None:
    config = (generated / "mkdocs.yml").read_text(encoding="utf-8")
    assert not re.search(r"^hooks:", config, re.MULTILINE)
    assert f'paths: ["{REPO_ROOT}"]' in config
    assert f'"{REPO_ROOT}/docs/hooks/griffe_docs.py:DoctestFences"' in config
    assert re.search(r"^docs_dir: docs$", config, re.MULTILINE)  # Zensical wants it relative
    # everything else is the checkout's config, line for line
    original = (REPO_ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    kept = [line for line in original.splitlines() if "hooks" not in line and "paths: [.]" not in line]
    assert all(line in config.splitlines() for line in kept)


def test_a_reshaped_config_fails_in_one_line_naming_what_is_missing() -> None:
    config = (REPO_ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    with pytest.raises(UsageError, match=r"expected mkdocstrings' paths: \[\.\] once, found it 0 times"):
        generated_config(config.replace("paths: [.]", "paths: [src]"), REPO_ROOT)
    with pytest.raises(UsageError, match="expected the hooks list once"):
        generated_config(re.sub(r"^hooks:\n(  - .*\n)+", "", config, flags=re.MULTILINE), REPO_ROOT)


def test_an_earlier_generation_is_replaced_whole(tmp_path: Path) -> None:
    out = tmp_path / "gen"
    generate(out)
    stale = out / "docs" / "a-page-that-was-deleted.md"
    stale.write_text("# old\n", encoding="utf-8")
    generate(out)
    assert not stale.exists()
    assert (out / GENERATED_MARK).is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gen"]  # no work folder left beside it


def test_a_folder_it_did_not_make_is_refused_and_left_alone(tmp_path: Path) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("my notes\n", encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "solitaire_ds", "docs", "generate", str(out)],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0 and "not made by docs generate" in result.stderr
    assert "Traceback" not in result.stderr
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine"]


def test_a_bad_directive_leaves_the_earlier_generation_as_it_was(tmp_path: Path) -> None:
    root = tmp_path / "checkout"
    shutil.copytree(DOCS, root / "docs", ignore=shutil.ignore_patterns("browser", "node_modules"))
    shutil.copy(REPO_ROOT / "mkdocs.yml", root / "mkdocs.yml")
    out = tmp_path / "gen"
    generate(out, root=root)
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    page = root / "docs" / "index.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n<!-- gen: no-such-generator -->\n", encoding="utf-8")
    with pytest.raises(ValueError, match="unknown generator 'no-such-generator'"):
        generate(out, root=root)
    after = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["checkout", "gen"]
