"""The README is part of the product: its commands and settings must match the code."""

from __future__ import annotations

from pathlib import Path

from tests.deploy.test_compose import _setting_names

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def test_every_setting_is_documented_and_none_that_does_not_exist() -> None:
    documented = {line.split("`")[1] for line in README.splitlines() if line.startswith("| `MEMGW_")}
    assert documented == _setting_names()


def test_ci_runs_exactly_the_readme_test_command() -> None:
    assert "./dev test" in README
    assert "./dev run" in README
    assert "exec ./dev test" in (ROOT / ".ci" / "run").read_text()
