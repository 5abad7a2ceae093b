"""The README and the documentation are part of the product: their commands, settings, secrets and
prompts must match the code, and the README stays a front page."""

from __future__ import annotations

from pathlib import Path

from tests.deploy.test_compose import _setting_names

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
DOCS = ROOT / "docs"


def test_every_setting_is_documented_and_none_that_does_not_exist() -> None:
    settings = (DOCS / "settings.md").read_text()
    documented = {line.split("`")[1] for line in settings.splitlines() if line.startswith("| `MEMGW_")}
    assert documented == _setting_names()


def test_ci_runs_exactly_the_readme_test_command() -> None:
    assert "./dev test" in README
    assert "./dev run" in README
    assert "exec ./dev test" in (ROOT / ".ci" / "run").read_text()


def test_the_readme_is_a_front_page_that_leads_to_every_docs_page() -> None:
    assert len(README.splitlines()) <= 300
    pages = {p.name for p in DOCS.glob("*.md")} - {"index.md"}
    linked = {name for name in pages if f"(docs/{name})" in README}
    assert linked == pages


def test_every_repository_path_the_architecture_page_names_exists() -> None:
    page = (DOCS / "architecture.md").read_text()
    named = {part for part in page.split("`")[1::2] if part.startswith(("libs/", "services/", "tests/", "deploy/"))}
    assert named
    # A placeholder (readers/<kind>.py) names the folder the new file goes into.
    missing = {path for path in named if not (ROOT / path.split("<")[0].split(" ")[0]).exists()}
    assert not missing
