"""Opaque keyset cursors: stable under inserts, cheap at any depth."""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable
from datetime import datetime
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from memgw.common.acl import SqlParams
from memgw.gateway.errors import BadRequest
from memgw.gateway.schemas import EARLIEST, LATEST, check_value

T = TypeVar("T")


class Page(BaseModel, Generic[T]):
    items: list[T]
    next_cursor: str | None = None


def encode_cursor(created_at: datetime, key: Any) -> str:
    raw = json.dumps([created_at.isoformat(), key]).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str, key_type: type = str) -> tuple[datetime, Any]:
    """The position a cursor encodes; a forged or foreign one (another listing's key type, a time out
    of range, NUL) is a 400, never a query."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        created, key = json.loads(raw)
        when = datetime.fromisoformat(created)
        if when.tzinfo is None or not isinstance(key, key_type) or isinstance(key, bool):
            raise ValueError("not a cursor of this listing")
        check_value(key, "cursor")
        if not EARLIEST <= when < LATEST:
            raise ValueError("out of range")
        return when, key
    except (ValueError, TypeError, OverflowError, binascii.Error) as exc:
        raise BadRequest("invalid cursor: pass back the next_cursor of the previous page unchanged") from exc


def keyset_page(items: list[T], limit: int, key: Callable[[T], tuple[datetime, Any]]) -> Page[T]:
    """A page from ``limit + 1`` rows fetched: the extra row only says there is a next page."""
    page = items[:limit]
    more = len(items) > limit
    return Page(items=page, next_cursor=encode_cursor(*key(page[-1])) if more else None)


def window_clauses(
    params: SqlParams,
    since: datetime | None,
    until: datetime | None,
    cursor: str | None,
    *,
    alias: str = "",
    key_type: type = str,
) -> list[str]:
    """The time window and the keyset position of a newest-first listing, as SQL clauses."""
    a = f"{alias}." if alias else ""
    clauses = []
    if since:
        clauses.append(f"{a}created_at >= {params.add(since)}")
    if until:
        clauses.append(f"{a}created_at < {params.add(until)}")
    if cursor:
        created, key = decode_cursor(cursor, key_type)
        clauses.append(f"({a}created_at, {a}id) < ({params.add(created)}, {params.add(key)})")
    return clauses
