"""The vault on disk: one folder per user (``<vault>/<user_id>/``) holding the seed's tree, written
atomically, with a manifest of every note the bridge wrote (by hash) and one bridge per vault.

Every path goes through the one path guard (``memgw.common.paths``): a user id or a note path that
would leave the user's folder is refused. The manifest is how the bridge tells its own writes from a
person's: a file whose hash is the one the bridge recorded is the bridge's, and is never imported.

The manifest is a snapshot (``manifest.json``) and a journal of the changes since (``manifest.log``,
one JSON line each, synced before the note it records is written). Rewriting the whole manifest for
every note (with the pages' rebuild, see ``exporter``) made each export cost in proportion to the vault:
55 ms of the event loop a memory at 1,000 notes, 10 ms at 100 (``bench/reports/vault_export.md``), so a
bulk import grew quadratic. A line costs the same at any size; the snapshot is rewritten once the
journal is as long as it.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import json
import os
import re
import tempfile
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, Any

from memgw.common.domain import ID_PATTERN
from memgw.common.paths import PathOutsideRoot, resolve_within
from memgw.obsidian_bridge.templates import TEMPLATES

TREE = (
    "Memories/LongTerm",
    "Memories/Archived",
    "Profiles",
    "Reviews/Queue",
    "Reviews/Accepted",
    "Reviews/Rejected",
    "Exports",
    "Templates",
)
NOTE_MAX_BYTES = 1 << 20  # a note longer than this is no person's note: it is refused, never read whole
_NAME_MAX_BYTES = 255  # one file name, on the filesystems a vault lives on
STATE_DIR = ".memgw"  # the bridge's own files inside a user's vault (Obsidian ignores dot folders)
ERROR_SUFFIX = ".error.md"
_USER_ID = re.compile(ID_PATTERN)
_EDITOR_LITTER = (".swp", ".swx", ".tmp", "~", ".crswap", ".part")


class UnreadableNote(ValueError):
    """A file where a note would be that the bridge will not read: a link, too large, not UTF-8."""


class VaultLocked(RuntimeError):
    """Another bridge holds this vault."""


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def is_note(rel: Path) -> bool:
    """A Markdown note a person may have written: not hidden, not editor litter, not an error note."""
    if any(part.startswith((".", "#")) for part in rel.parts) or rel.name.endswith(_EDITOR_LITTER):
        return False
    return rel.suffix == ".md" and not rel.name.endswith(ERROR_SUFFIX)


@dataclass
class Written:
    """What the bridge last wrote at a path, or last applied from it."""

    sha: str
    memory_id: str | None = None
    review_id: str | None = None
    version: int | None = None  # the memory's version the file's text corresponds to


class UserVault:
    """One user's vault folder. Not thread-safe; the bridge serialises work per user."""

    def __init__(self, root: Path, user_id: str):
        if not _USER_ID.match(user_id):
            raise ValueError(f"{user_id!r} cannot name a vault folder")
        self.user_id = user_id
        self.root = resolve_within(root, user_id)
        self._manifest_path = self.root / STATE_DIR / "manifest.json"
        self._journal_path = self.root / STATE_DIR / "manifest.log"
        self.manifest: dict[str, Written] = {}
        self._by_memory: dict[str, set[str]] = {}  # memory id → the notes of it (what events look up)
        if self._manifest_path.exists():
            raw = json.loads(self._manifest_path.read_text())
            self.manifest = {rel: Written(**entry) for rel, entry in raw.items()}
        # Reading writes nothing: `memgw vault status` reads a vault while the bridge that holds it writes.
        changes, self._journal_cut = _read_journal(self._journal_path)
        self._journal_lines = len(changes)
        for change in changes:
            if change.get("entry") is None:
                self.manifest.pop(change["rel"], None)
            else:
                self.manifest[change["rel"]] = Written(**change["entry"])
        for rel, entry in self.manifest.items():
            if entry.memory_id:
                self._by_memory.setdefault(entry.memory_id, set()).add(rel)

    @property
    def is_new(self) -> bool:
        return not self._manifest_path.exists()

    def ensure_tree(self) -> None:
        for folder in (*TREE, f"Users/{self.user_id}/LongTerm", STATE_DIR):
            (self.root / folder).mkdir(parents=True, exist_ok=True)
        self.root.chmod(0o700)
        for name, text in TEMPLATES.items():
            if not (self.root / "Templates" / name).exists():
                self.write(f"Templates/{name}", text)
        if self.is_new:
            self._save()

    def path(self, rel: str | Path) -> Path:
        return resolve_within(self.root, rel)

    def read(self, rel: str | Path) -> str | None:
        """The note's text, None when there is none; UnreadableNote for what is no plain note of this
        folder (the path guard resolves links, so a link to another folder is refused before)."""
        try:
            path = self.path(rel)
        except PathOutsideRoot as exc:
            raise UnreadableNote("it is a link out of your folder; the bridge reads only plain notes") from exc
        if path != self.root / rel:
            raise UnreadableNote("it is a link (or lies in a linked folder); the bridge reads only plain notes")
        try:
            with path.open("rb") as handle:
                data = handle.read(NOTE_MAX_BYTES + 1)
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            return None
        except OSError as exc:
            raise UnreadableNote(f"it cannot be read ({exc.strerror})") from exc
        if len(data) > NOTE_MAX_BYTES:
            raise UnreadableNote(f"it is larger than {NOTE_MAX_BYTES >> 10} KiB, the most a note may hold")
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise UnreadableNote(f"it is not UTF-8 text (byte {exc.start})") from exc

    def write(self, rel: str | Path, text: str, **ids: str | int | None) -> bool:
        """Write atomically (a temp file renamed over the note) and record it; False when the note
        already holds exactly this text (nothing is touched then)."""
        key = str(Path(rel))
        target = self.path(rel)
        with contextlib.suppress(UnreadableNote):  # what stands there now is replaced whatever it is
            if self.read(rel) == text:
                self._record(key, text, ids)
                return False
        target.parent.mkdir(parents=True, exist_ok=True)
        self._record(key, text, ids)  # recorded before the file appears: the watcher sees it as ours
        with _temp_beside(target) as tmp:
            tmp.write(text)
        return True

    def remove(self, rel: str | Path) -> None:
        self._drop(str(Path(rel)))
        with contextlib.suppress(FileNotFoundError):
            self.path(rel).unlink()

    def forget(self, rel: str | Path) -> None:
        self._drop(str(Path(rel)))

    def _drop(self, key: str) -> None:
        entry = self.manifest.pop(key, None)
        if entry is None:
            return
        if entry.memory_id:
            self._by_memory.get(entry.memory_id, set()).discard(key)
        self._log(key, None)

    def applied(self, rel: str | Path, text: str, **ids: str | int | None) -> None:
        """A person's text at ``rel`` was applied: it is in sync now, not to be applied again."""
        self._record(str(Path(rel)), text, ids)

    def is_own(self, rel: str | Path, text: str) -> bool:
        entry = self.manifest.get(str(Path(rel)))
        return entry is not None and entry.sha == digest(text)

    def where(self, *, memory_id: str | None = None, review_id: str | None = None) -> list[str]:
        if memory_id:
            return sorted(self._by_memory.get(memory_id, ()))
        return [rel for rel, entry in self.manifest.items() if review_id and entry.review_id == review_id]

    def memory_ids(self) -> set[str]:
        return {memory_id for memory_id, notes in self._by_memory.items() if notes}

    def notes(self) -> Iterator[Path]:
        """Every note a person may have touched, relative to the user's folder."""
        for path in sorted(self.root.rglob("*.md")):
            rel = path.relative_to(self.root)
            if is_note(rel):
                yield rel

    @staticmethod
    def _error_rel(rel: Path) -> Path:
        """Where a note's error note goes: beside it, under a short name when its own is too long."""
        name = rel.stem + ERROR_SUFFIX
        if len(name.encode()) > _NAME_MAX_BYTES:
            name = digest(str(rel))[:16] + ERROR_SUFFIX
        return rel.with_name(name)

    def error_note(self, rel: str | Path, message: str) -> None:
        """Say beside a note why nothing was applied; the note itself is left exactly as it is."""
        rel = Path(rel)
        if len(message) > _MESSAGE_MAX:
            message = message[:_MESSAGE_MAX] + " …"
        with _temp_beside(self.path(self._error_rel(rel))) as tmp:
            tmp.write(
                f"# ⚠ {rel.name}: nothing was applied\n\n{message}\n\n"
                "Fix the note and save it again; this note goes away once it is applied.\n"
                "修改后重新保存，成功应用后此提示会自动删除。\n"
            )

    def clear_error(self, rel: str | Path) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.path(self._error_rel(Path(rel))).unlink()

    def _record(self, key: str, text: str, ids: dict[str, str | int | None]) -> None:
        previous = self.manifest.get(key)
        entry = Written(sha=digest(text))
        if previous is not None:
            entry.memory_id, entry.review_id, entry.version = previous.memory_id, previous.review_id, previous.version
        for name, value in ids.items():
            setattr(entry, name, value)
        if previous is not None and previous.memory_id and previous.memory_id != entry.memory_id:
            self._by_memory.get(previous.memory_id, set()).discard(key)
        if entry.memory_id:
            self._by_memory.setdefault(entry.memory_id, set()).add(key)
        if entry != previous:  # a page rewritten with the text it holds changes nothing
            self.manifest[key] = entry
            self._log(key, entry)

    def _log(self, key: str, entry: Written | None) -> None:
        """One change, durable before the caller touches the note it records."""
        if self._journal_lines >= max(_JOURNAL_MIN, len(self.manifest)):
            self._save()
        line = json.dumps({"rel": key, "entry": asdict(entry) if entry else None}) + "\n"
        if self._journal_cut:  # a crash cut the last line short: this one starts on a line of its own
            line, self._journal_cut = "\n" + line, False
        self._journal_path.parent.mkdir(parents=True, exist_ok=True)
        # Opened for each line: a bridge serving thousands of users must not hold a file open for each.
        with self._journal_path.open("a", encoding="utf-8") as journal:
            journal.write(line)
            journal.flush()
            os.fsync(journal.fileno())
        self._journal_lines += 1

    def _save(self) -> None:
        """The whole manifest as a new snapshot, then an empty journal. A crash between the two
        replays the journal onto a snapshot that holds it already: the same manifest again."""
        self._manifest_path.parent.mkdir(parents=True, exist_ok=True)
        with _temp_beside(self._manifest_path) as tmp:
            json.dump({rel: asdict(e) for rel, e in sorted(self.manifest.items())}, tmp, indent=1)
        with contextlib.suppress(FileNotFoundError):
            self._journal_path.unlink()
        self._journal_lines, self._journal_cut = 0, False


_MESSAGE_MAX = 2000  # what an error note says of one failure; the rest is in the bridge's log

# The journal is folded into the snapshot once it is as long as the manifest, and never sooner than
# this: a small vault's snapshot is cheap, but rewriting it every few writes buys nothing.
_JOURNAL_MIN = 200


def _read_journal(path: Path) -> tuple[list[dict[str, Any]], bool]:
    """The journal's changes in order, and whether its last line was cut short. Such a line was never
    acted on (a note is written only after its line is synced), so it is skipped."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return [], False
    changes = []
    for line in text.splitlines():
        with contextlib.suppress(ValueError):
            changes.append(json.loads(line))
    return changes, bool(text) and not text.endswith("\n")


@contextlib.contextmanager
def _temp_beside(target: Path) -> Iterator[IO[str]]:
    """A temp file in the target's folder, renamed over the target when the block ends without error:
    a reader (Obsidian, the watcher) sees the old file or the new one, never half of one."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(dir=target.parent, prefix=".memgw-", suffix=".part")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(name, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name)
        raise


class Vault:
    """The vault root: its users' folders and the lock that keeps a second bridge out."""

    def __init__(self, root: Path):
        root.mkdir(parents=True, exist_ok=True)
        root.chmod(0o700)  # people's notes: no other local user lists or reads them, wherever the vault is
        self.root = root
        self._users: dict[str, UserVault] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._lock: IO[str] | None = None

    def lock(self, user_id: str) -> asyncio.Lock:
        """One piece of work at a time in a user's vault (an export, an import)."""
        return self._locks.setdefault(user_id, asyncio.Lock())

    def is_new(self, user_id: str) -> bool:
        return not (resolve_within(self.root, user_id) / STATE_DIR / "manifest.json").exists()

    def acquire(self) -> None:
        """Take the vault for this process; VaultLocked when another bridge has it."""
        handle = (self.root / ".memgw.lock").open("a+")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            handle.close()
            raise VaultLocked(f"another Obsidian bridge holds {self.root}") from exc
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        self._lock = handle

    def release(self) -> None:
        if self._lock is not None:
            fcntl.flock(self._lock, fcntl.LOCK_UN)
            self._lock.close()
            self._lock = None

    def user(self, user_id: str) -> UserVault:
        if user_id not in self._users:
            vault = UserVault(self.root, user_id)
            vault.ensure_tree()
            self._users[user_id] = vault
        return self._users[user_id]

    def holders(self, memory_id: str) -> list[str]:
        """The users whose vault (as loaded in this process) holds a note of the memory."""
        return sorted(user_id for user_id, uv in self._users.items() if uv.where(memory_id=memory_id))

    def existing_users(self) -> list[str]:
        """Users whose folder the bridge made (it holds a manifest)."""
        if not self.root.exists():
            return []
        return sorted(p.parent.parent.name for p in self.root.glob(f"*/{STATE_DIR}/manifest.json"))

    def locate(self, path: Path) -> tuple[str, Path] | None:
        """(user, path inside the user's folder) of a file somewhere in the vault, or None."""
        try:
            rel = path.resolve().relative_to(self.root.resolve())
        except ValueError:
            return None
        if len(rel.parts) < 2 or not _USER_ID.match(rel.parts[0]):
            return None
        return rel.parts[0], Path(*rel.parts[1:])
