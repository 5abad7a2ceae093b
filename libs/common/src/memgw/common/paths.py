"""The one guard for file paths: a path is used only when it resolves inside its root.

Resolution follows symlinks, so a link that points out of the root is refused like ``../``.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path


class PathOutsideRoot(ValueError):
    pass


def resolve_within(root: Path, candidate: Path | str) -> Path:
    """Return the real path of ``candidate`` (relative to ``root`` unless absolute) if it stays
    inside ``root``'s real path; raise PathOutsideRoot otherwise."""
    real_root = root.resolve(strict=True)
    path = Path(candidate)
    target = (path if path.is_absolute() else real_root / path).resolve(strict=False)
    if target != real_root and real_root not in target.parents:
        raise PathOutsideRoot(f"{candidate} is outside {root}")
    return target


def allowed_root(path: Path, allowed: Iterable[Path]) -> Path:
    """A folder a source may read: its real path must lie inside one of the allowed roots."""
    real = path.resolve(strict=True)
    for root in allowed:
        try:
            return resolve_within(root, real)
        except (PathOutsideRoot, FileNotFoundError):
            continue
    raise PathOutsideRoot(f"{path} is not under an allowed folder root (MEMGW_FOLDER_ROOTS)")


def source_folder(raw: str, roots: list[Path]) -> Path:
    """The real folder a Folder source names, inside its owner's ``roots``. ``~`` is the owner's
    home: the first of their roots (a person's ``~/notes`` from an OpenHuman config lands in their own
    space, never in the server's home directory)."""
    if raw == "~" or raw.startswith("~/"):
        if not roots:
            raise PathOutsideRoot(f"{raw}: its owner has no folder root to be home (MEMGW_FOLDER_ROOTS)")
        raw = str(roots[0] / raw[2:])
    try:
        folder = allowed_root(Path(raw), roots)
    except FileNotFoundError as exc:  # said plainly, not as "[Errno 2] …"
        raise FileNotFoundError(f"folder {raw} does not exist") from exc
    if not folder.is_dir():
        raise NotADirectoryError(f"{raw} is a file, not a folder")
    return folder
