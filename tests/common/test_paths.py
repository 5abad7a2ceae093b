from __future__ import annotations

from pathlib import Path

import pytest

from memgw.common.paths import PathOutsideRoot, allowed_root, resolve_within

pytestmark = pytest.mark.unit


def test_a_relative_path_inside_the_root_resolves(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    assert resolve_within(tmp_path, "a/b.md") == (tmp_path / "a" / "b.md").resolve()


@pytest.mark.parametrize("candidate", ["../x", "a/../../x", "/etc/passwd"])
def test_traversal_out_of_the_root_is_refused(tmp_path: Path, candidate: str) -> None:
    root = tmp_path / "root"
    root.mkdir()
    with pytest.raises(PathOutsideRoot):
        resolve_within(root, candidate)


def test_a_symlink_pointing_out_of_the_root_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (tmp_path / "secret.md").write_text("secret")
    (root / "link.md").symlink_to(tmp_path / "secret.md")
    with pytest.raises(PathOutsideRoot):
        resolve_within(root, "link.md")


def test_a_folder_must_lie_under_an_allowed_root(tmp_path: Path) -> None:
    allowed = tmp_path / "allowed"
    (allowed / "notes").mkdir(parents=True)
    (tmp_path / "other").mkdir()
    assert allowed_root(allowed / "notes", [allowed]) == (allowed / "notes").resolve()
    with pytest.raises(PathOutsideRoot):
        allowed_root(tmp_path / "other", [allowed])
