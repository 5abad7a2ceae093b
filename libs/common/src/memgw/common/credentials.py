"""Write-only credentials (source tokens, Composio connections): sealed before they reach Postgres,
opened only by the reader that uses them for their owner's sync, never returned by the API.

Sealing is Fernet (AES-128-CBC with HMAC-SHA256, from ``cryptography``). The key comes from
``MEMGW_CREDENTIALS_KEY`` or, when unset, from ``credentials.key`` in the data dir, made on first
use with mode 0600. Every process that syncs sources must see the same key (one data dir, or the
setting in a distributed install).
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

from cryptography.fernet import Fernet, InvalidToken

KEY_FILE = "credentials.key"


class CredentialsUnreadable(Exception):
    """Sealed with another key (the data dir's key file was replaced, or the setting changed)."""


def _key_from_file(data_dir: Path) -> bytes:
    path = data_dir / KEY_FILE
    data_dir.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):  # another process may create it first: then read that one
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(Fernet.generate_key())
    return path.read_bytes().strip()


class CredentialBox:
    def __init__(self, key: bytes | str):
        self._fernet = Fernet(key)

    @classmethod
    def for_settings(cls, configured: str | None, data_dir: Path) -> CredentialBox:
        return cls(configured or _key_from_file(data_dir))

    def seal(self, values: dict[str, str]) -> bytes | None:
        return self._fernet.encrypt(json.dumps(values).encode()) if values else None

    def open(self, sealed: bytes | None) -> dict[str, str]:
        if not sealed:
            return {}
        try:
            return dict(json.loads(self._fernet.decrypt(bytes(sealed))))
        except InvalidToken as exc:
            raise CredentialsUnreadable(
                "this source's credentials were sealed with another key; set them again"
            ) from exc
