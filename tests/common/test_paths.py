from __future__ import annotations

from pathlib import Path

import pytest

from memgw.common.paths import PathOutsideRoot, allowed_root, resolve_within, source_folder

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


def test_tilde_is_the_owners_home_inside_their_roots(tmp_path: Path) -> None:
    alice = tmp_path / "alice"
    (alice / "notes").mkdir(parents=True)
    (tmp_path / "bob").mkdir()
    assert source_folder("~/notes", [alice]) == (alice / "notes").resolve()
    assert source_folder("~", [alice]) == alice.resolve()
    with pytest.raises(PathOutsideRoot, match="no folder root"):
        source_folder("~/notes", [])
    with pytest.raises(PathOutsideRoot):
        source_folder("~/../bob", [alice])  # home is no way out of the roots
