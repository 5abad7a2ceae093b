"""Storage of memory records: Postgres rows (the truth, with their embeddings) and their index points.

Every write happens in a caller's transaction together with its version row and its outbox event;
the index is updated after commit (``sync_index``); a change the index did not get (a crash between
the two) keeps its mark in ``index_pending`` until ``reconcile_index`` mends it, and ``reindex``
rebuilds the whole index from Postgres alone.
Who may write what is decided by the callers (gateway, sync-worker, consolidator), not here.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from operator import attrgetter
from typing import Any

import asyncpg
import numpy as np

from memgw.common.acl import KEYLESS_STANDING, SqlParams, keyword_stats_sql, read_key, read_sql
from memgw.common.bus import BusLayout
from memgw.common.db.outbox import enqueue, enqueue_many
from memgw.common.db.pool import Conn, Executor
from memgw.common.db.write_behind import WriteBehind
from memgw.common.domain import MemoryRecord, Principal, content_hash
from memgw.common.embedding.base import Embedder
from memgw.common.events import CHANGE_KINDS, MemoryChanged
from memgw.common.index import sparse
from memgw.common.index.base import READ_KEY_FIELD, IndexPoint, VectorIndex
from memgw.common.lanes import Lanes
from memgw.common.secrets import SecretsOnWrite, contains_secret, screen

_UPDATABLE = frozenset(
    {
        "content",
        "summary",
        "tags",
        "flags",
        "importance",
        "confidence",
        "memory_type",
        "status",
        "metadata",
        "evidence_count",
        "expires_at",
        "embedding",
        "embedding_model",
        "source",
        "source_ref",
    }
)

RECORD_COLUMNS = (
    "id, user_id, agent_id, workspace_id, session_id, namespace, memory_type, content, summary, tags, flags,"
    " importance, confidence, visibility, source, source_ref, source_id, source_scope, status, evidence_count,"
    " version, metadata, created_at, updated_at, expires_at"
)


@dataclass
class NewMemory:
    id: str
    user_id: str
    namespace: str
    memory_type: str
    content: str
    visibility: str
    embedding: Sequence[float]
    embedding_model: str
    agent_id: str | None = None
    workspace_id: str | None = None
    session_id: str | None = None
    summary: str = ""
    tags: Sequence[str] = ()
    importance: float = 0.5
    confidence: float = 0.8
    source: str = "manual"
    source_ref: str | None = None
    source_id: str | None = None
    source_scope: str | None = None  # the upstream's own id of where it came from ("slack:#eng")
    status: str = "active"
    metadata: dict[str, Any] | None = None
    expires_at: datetime | None = None


# How a stored embedding is laid out (migration 0012): its float32 values, network byte order. Postgres
# hands bytes over as they are, where a real[] is written out value by value.
_STORED = np.dtype(">f4")


def vector_bytes(vector: Sequence[float] | np.ndarray) -> bytes:
    """An embedding as the ``memories.embedding`` column keeps it."""
    return np.asarray(vector, dtype=_STORED).tobytes()


def vector_of(stored: bytes) -> np.ndarray:
    """The embedding a ``memories.embedding`` value holds: float32, native order, a copy of its own."""
    return np.frombuffer(stored, dtype=_STORED).astype(np.float32)


def vectors_of(stored: Sequence[bytes]) -> list[np.ndarray]:
    """``vector_of`` of each, converted in one step when they are all of one length (a search's ~100
    candidates: one conversion, not a hundred)."""
    if len({len(v) for v in stored}) != 1:
        return [vector_of(v) for v in stored]
    return list(np.frombuffer(b"".join(stored), dtype=_STORED).astype(np.float32).reshape(len(stored), -1))


def to_record(row: asyncpg.Record) -> MemoryRecord:
    return MemoryRecord.model_validate(dict(row))


def _ts(value: datetime | None) -> float | None:
    return value.timestamp() if value is not None else None


def index_point(row: asyncpg.Record | dict[str, Any]) -> IndexPoint:
    """What the index knows of a memory: its vectors and exactly the fields filters need. A column
    read here must be in the column list of the ``memories_mark_updated`` trigger (migration 0006),
    or a crash could leave its change out of the index."""
    payload: dict[str, Any] = {
        "user_id": row["user_id"],
        "namespace": row["namespace"],
        "visibility": row["visibility"],
        "status": row["status"],
        "memory_type": row["memory_type"],
        "tags": list(row["tags"]),
        "flags": list(row["flags"]),
        "importance": float(row["importance"]),
        "confidence": float(row["confidence"]),
        "created_ts": _ts(row["created_at"]),
    }
    for optional in ("agent_id", "workspace_id", "session_id", "source_id", "source_scope"):
        if row[optional]:
            payload[optional] = row[optional]
    if row["expires_at"] is not None:
        payload["expires_ts"] = _ts(row["expires_at"])
    key = read_key(row)
    if key is not None:
        payload[READ_KEY_FIELD] = key
    dense = vector_of(row["embedding"]).tolist()
    return IndexPoint(memory_id=row["id"], dense=dense, text=row["content"], payload=payload)


async def _snapshot(conn: Conn, memory_id: str, change: str, actor: str | None) -> None:
    """The memory as it is now, kept as its version, with what changed it."""
    await conn.execute(
        "INSERT INTO memory_versions (memory_id, version, snapshot, changed_by, change)"
        f" SELECT m.id, m.version, to_jsonb(m), $3, $2 FROM (SELECT {RECORD_COLUMNS} FROM memories WHERE id = $1) m"
        " ON CONFLICT DO NOTHING",
        memory_id,
        change,
        actor,
    )


# The columns a new memory is written with, the SQL type each travels as (one array per column), and
# how it is read off a ``NewMemory``: one table, so the INSERT, its unnest and its arguments cannot
# drift apart.
_TEXT_AS_GIVEN = (
    "id",
    "user_id",
    "agent_id",
    "workspace_id",
    "session_id",
    "namespace",
    "memory_type",
    "content",
    "summary",
    "visibility",
    "source",
    "source_ref",
    "source_id",
    "source_scope",
    "status",
    "embedding_model",
)
_WRITTEN: tuple[tuple[str, str, Callable[[NewMemory], Any]], ...] = (
    *((column, "text", attrgetter(column)) for column in _TEXT_AS_GIVEN),
    ("importance", "float8", attrgetter("importance")),
    ("confidence", "float8", attrgetter("confidence")),
    ("expires_at", "timestamptz", attrgetter("expires_at")),
    ("tags", "text", lambda n: json.dumps(list(n.tags), ensure_ascii=False)),
    ("content_hash", "text", lambda n: content_hash(n.content)),
    ("metadata", "jsonb", lambda n: n.metadata or {}),
    ("embedding", "bytea", lambda n: vector_bytes(n.embedding)),
    ("keyword_terms", "text", lambda n: json.dumps(sparse.document_terms(n.content))),
)
_COLUMNS = ", ".join(column for column, _, _ in _WRITTEN)
# Per-row arrays travel as JSON text (asyncpg would take a list of lists for a 2-D array).
_JSON_ARRAYS = {
    "tags": "ARRAY(SELECT jsonb_array_elements_text(r.tags::jsonb))",
    "keyword_terms": "ARRAY(SELECT jsonb_array_elements_text(r.keyword_terms::jsonb)::bigint)",
}
_SELECTED = ", ".join(_JSON_ARRAYS.get(column, f"r.{column}") for column, _, _ in _WRITTEN)
_ARRAYS = ", ".join(f"${n}::{kind}[]" for n, (_, kind, _) in enumerate(_WRITTEN, start=1))
# The rows written and each one's version, in one statement: the version is the row as returned
# (what ``_snapshot`` would read back), the actor the one argument after the columns' arrays.
_INSERT_MANY = (
    f"WITH written AS (INSERT INTO memories ({_COLUMNS}) SELECT {_SELECTED} FROM unnest({_ARRAYS})"
    f" WITH ORDINALITY AS r({_COLUMNS}, ord) ORDER BY r.ord"  # created_at (clock_timestamp) in the order given
    " ON CONFLICT (id) DO UPDATE SET content = EXCLUDED.content, summary = EXCLUDED.summary,"
    " tags = EXCLUDED.tags, content_hash = EXCLUDED.content_hash, metadata = EXCLUDED.metadata,"
    " embedding = EXCLUDED.embedding, embedding_model = EXCLUDED.embedding_model,"
    " keyword_terms = EXCLUDED.keyword_terms,"
    " version = memories.version + 1, updated_at = now()"
    f" RETURNING {RECORD_COLUMNS}, (xmax = 0) AS inserted),"
    " versions AS (INSERT INTO memory_versions (memory_id, version, snapshot, changed_by, change)"
    f" SELECT w.id, w.version, to_jsonb(w) - 'inserted', ${len(_WRITTEN) + 1},"
    " CASE WHEN w.inserted THEN 'created' ELSE 'updated' END FROM written w ON CONFLICT DO NOTHING)"
    " SELECT * FROM written"
)


# The term under which ``keyword_stats`` counts the memories themselves (BM25's term ids are u32).
_ALL_DOCUMENTS = -1


def _changed(row: asyncpg.Record, change: str) -> MemoryChanged:
    return MemoryChanged(
        memory_id=row["id"],
        user_id=row["user_id"],
        namespace=row["namespace"],
        change=change if change in CHANGE_KINDS else "updated",
        version=row["version"],
        status=row["status"],
    )


class MemoryStore:
    def __init__(
        self, pool: asyncpg.Pool, index: VectorIndex, layout: BusLayout, secrets_on_write: SecretsOnWrite = "redact"
    ):
        self.secrets_on_write = secrets_on_write  # the one rule for a secret in what is written (secrets.py)
        self.pool = pool
        self.index = index
        self.layout = layout
        self._tenant_lane = Lanes()
        # Marks whose changes are in the index, cleared off the writer's path: the DELETE is a commit
        # of its own (its own WAL flush) that no answer needs, so it waits a moment and takes the marks
        # of the writes after it too. A mark left behind (a crash first) only has the reconciler index
        # its memory again.
        self._indexed_marks = WriteBehind[int](self._clear_marks, name="index-marks", delay_s=0.2)

    def screen(self, text: str) -> str:
        """``text`` as this install stores it: as it is, with its secrets redacted, or SecretRefused."""
        return screen(text, self.secrets_on_write)

    def refuses(self, text: str) -> bool:
        """Whether a write of ``text`` would be refused (what a bulk writer leaves out beforehand)."""
        return self.secrets_on_write == "refuse" and contains_secret(text)

    async def insert(self, conn: Conn, new: NewMemory, *, actor: str | None, announce: bool = True) -> MemoryRecord:
        [record] = await self.insert_many(conn, [new], actor=actor, announce=announce)
        return record

    async def insert_many(
        self, conn: Conn, news: Sequence[NewMemory], *, actor: str | None, announce: bool = True
    ) -> list[MemoryRecord]:
        """Insert, or overwrite records with the same ids (deterministic chunk ids make re-ingest
        idempotent); the records in the order given. Runs in the caller's transaction: one
        statement (and the outbox's one) however many there are; one by one, 100 paid ~500 round trips."""
        if not news:
            return []
        news = [replace(n, content=self.screen(n.content), summary=self.screen(n.summary)) for n in news]
        ids = [new.id for new in news]
        if len(set(ids)) != len(ids):
            raise ValueError("one statement cannot write the same memory twice: ids must differ")
        rows = await conn.fetch(_INSERT_MANY, *([read(n) for n in news] for _, _, read in _WRITTEN), actor)
        by_id = {row["id"]: row for row in rows}
        ordered = [by_id[memory_id] for memory_id in ids]
        changes = ["created" if row["inserted"] else "updated" for row in ordered]
        if announce:
            await enqueue_many(conn, self.layout, [_changed(r, c) for r, c in zip(ordered, changes, strict=True)])
        return [to_record(row) for row in ordered]

    async def update(
        self,
        conn: Conn,
        memory_id: str,
        changes: dict[str, Any],
        *,
        actor: str | None,
        change: str = "updated",
    ) -> MemoryRecord:
        """Apply column changes as a new version (with its snapshot and its MemoryChanged event).
        ``content`` changes must come with their new ``embedding`` and ``embedding_model``."""
        unknown = set(changes) - _UPDATABLE
        if unknown:
            raise ValueError(f"not updatable: {sorted(unknown)}")
        changes = {k: self.screen(v) if k in ("content", "summary") else v for k, v in changes.items()}
        if "content" in changes:
            if "embedding" not in changes:
                raise ValueError("a content change needs its new embedding")
            terms = sparse.document_terms(changes["content"])
            changes = {**changes, "content_hash": content_hash(changes["content"]), "keyword_terms": terms}
        if "embedding" in changes:
            changes = {**changes, "embedding": vector_bytes(changes["embedding"])}
        sets = ", ".join(f"{name} = ${i}" for i, name in enumerate(changes, start=2))
        row = await conn.fetchrow(
            f"UPDATE memories SET {sets}, version = version + 1, updated_at = now() WHERE id = $1"
            f" RETURNING {RECORD_COLUMNS}",
            memory_id,
            *[list(v) if isinstance(v, tuple) else v for v in changes.values()],
        )
        if row is None:
            raise LookupError(memory_id)
        await _snapshot(conn, memory_id, change, actor)
        await self._announce(conn, row, change)
        return to_record(row)

    async def delete(self, conn: Conn, memory_id: str, *, actor: str | None) -> MemoryRecord | None:
        """Delete a memory; its history keeps a final 'deleted' snapshot."""
        row = await conn.fetchrow(
            f"UPDATE memories SET version = version + 1 WHERE id = $1 RETURNING {RECORD_COLUMNS}", memory_id
        )
        if row is None:
            return None
        await _snapshot(conn, memory_id, "deleted", actor)
        await conn.execute("DELETE FROM memories WHERE id = $1", memory_id)
        await self._announce(conn, row, "deleted")
        return to_record(row)

    async def keep_feedback(
        self,
        conn: Conn,
        memory_id: str,
        p: Principal,
        feedback: str,
        *,
        comment: str | None,
        target_memory_id: str | None,
        personal: bool,
    ) -> None:
        """A reader's judgement of a memory: ``personal`` when the reader may not change the record,
        so it weighs in that reader's own results only."""
        await conn.execute(
            "INSERT INTO memory_feedback"
            " (memory_id, user_id, agent_id, feedback, comment, target_memory_id, personal)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7)",
            memory_id,
            p.user_id,
            p.agent_id,
            feedback,
            comment,
            target_memory_id,
            personal,
        )

    async def _announce(self, conn: Conn, row: asyncpg.Record, change: str) -> None:
        """MemoryChanged for this row, in the caller's transaction."""
        await enqueue(conn, self.layout, _changed(row, change))

    async def delete_source_chunks(self, conn: Conn, source_id: str) -> list[str]:
        """Delete every chunk a source brought in (the source is going); return their ids. Source
        chunks are neither versioned nor announced: their life belongs to their source."""
        return [r["id"] for r in await conn.fetch("DELETE FROM memories WHERE source_id = $1 RETURNING id", source_id)]

    async def same_content(self, db: Executor, p: Principal, user_id: str, content: str) -> str | None:
        """An active memory of ``user_id`` holding exactly this text that ``p`` may read, if any (a
        repeated add is not a second memory). Only what the writer may read: an answer naming a memory
        it may not read (a sibling agent's) would tell it that memory's id and text."""
        params = SqlParams()
        hashed, owner = params.add(content_hash(self.screen(content))), params.add(user_id)
        found = await db.fetchval(
            f"SELECT m.id FROM memories m WHERE m.content_hash = {hashed} AND m.user_id = {owner}"
            f" AND m.source_id IS NULL AND {read_sql(p, params)} ORDER BY m.created_at LIMIT 1",
            *params.values,
        )
        return str(found) if found else None

    async def mark_retrieved(self, memory_ids: Sequence[str]) -> None:
        """Retrieval keeps a memory fresh (decay counts from the last time it was found)."""
        if memory_ids:
            await self.pool.execute(
                "UPDATE memories SET last_retrieved_at = now() WHERE id = ANY($1)", list(memory_ids)
            )

    async def keyword_counts(self, p: Principal, terms: Sequence[int]) -> tuple[dict[int, int], int]:
        """How many of the standing memories ``p`` may read hold each of ``terms``, and how many there are:
        summed from ``keyword_stats`` alone, through the policy module's rendering of ``p``'s ways."""
        params = SqlParams()
        wanted = params.add([*terms, _ALL_DOCUMENTS])
        rows = await self.pool.fetch(
            f"SELECT s.term, sum(s.docs) AS docs FROM keyword_stats s WHERE s.term = ANY({wanted}::bigint[])"
            f" AND {keyword_stats_sql(p, params)} GROUP BY s.term",
            *params.values,
        )
        docs = {int(r["term"]): int(r["docs"]) for r in rows}
        total = docs.pop(_ALL_DOCUMENTS, 0)
        return {term: docs.get(term, 0) for term in terms}, total

    async def keyword_weights(self, p: Principal, query: str) -> dict[int, float]:
        """The BM25 weight (IDF) of each term of ``query`` for reader ``p``: how rare it is among the memories
        ``p`` may read, so no other tenant's memories move it."""
        terms = sparse.query_terms(query)
        if not terms:
            return {}
        docs, total = await self.keyword_counts(p, terms)
        return {term: sparse.idf(n, total) for term, n in docs.items()}

    async def forget_empty_keyword_counts(self, *, dry_run: bool = False) -> int:
        """Drop the counts that fell to nothing (every memory holding the word, of that way and source, went):
        the trigger only adds and subtracts, so without this ``keyword_stats`` would keep every word ever
        written. Safe beside writers: one that counts the word again meanwhile keeps its row (the delete
        re-checks ``docs``), or inserts it anew after. Returns how many there were."""
        if dry_run:
            return int(await self.pool.fetchval("SELECT count(*) FROM keyword_stats WHERE docs = 0"))
        status = await self.pool.execute("DELETE FROM keyword_stats WHERE docs = 0")
        return int(status.split()[-1])

    async def count_keyword_terms(self, batch: int = 500) -> int:
        """Give each memory the BM25 terms of its content where it has none (written before migration 0013)
        or, when this version encodes words otherwise (``sparse.ENCODING``), every memory; the counts
        follow by trigger. Idempotent, safe beside writers (a row whose content changed meanwhile is left
        to its writer) and beside another process doing the same; returns how many rows it changed."""
        made = await self.pool.fetchval("SELECT encoding FROM keyword_encoding")
        every = made != sparse.ENCODING
        changed, last = 0, ""
        while True:
            rows = await self.pool.fetch(
                "SELECT id, content, content_hash FROM memories WHERE id > $1 AND ($2 OR keyword_terms IS NULL)"
                " ORDER BY id LIMIT $3",
                last,
                every,
                batch,
            )
            if not rows:
                break
            terms = [
                {"id": r["id"], "hash": r["content_hash"], "terms": sparse.document_terms(r["content"])} for r in rows
            ]
            status = await self.pool.execute(
                "UPDATE memories m SET keyword_terms = ARRAY(SELECT jsonb_array_elements_text(t.terms)::bigint)"
                " FROM jsonb_to_recordset($1::jsonb) AS t(id text, hash text, terms jsonb)"
                " WHERE m.id = t.id AND m.content_hash = t.hash"
                " AND m.keyword_terms IS DISTINCT FROM ARRAY(SELECT jsonb_array_elements_text(t.terms)::bigint)",
                terms,  # the pool encodes jsonb itself
            )
            changed += int(status.split()[-1])
            last = rows[-1]["id"]
        if every:
            await self.pool.execute(
                "INSERT INTO keyword_encoding (encoding) VALUES ($1)"
                " ON CONFLICT (only_row) DO UPDATE SET encoding = EXCLUDED.encoding",
                sparse.ENCODING,
            )
        return changed

    async def delete_where_source_item(
        self, conn: Conn, source_id: str, source_ref: str, keep_ids: Sequence[str] = ()
    ) -> list[str]:
        """Delete the chunks of one source item except ``keep_ids``; return the deleted ids."""
        rows = await conn.fetch(
            "DELETE FROM memories WHERE source_id = $1 AND source_ref = $2 AND NOT (id = ANY($3)) RETURNING id",
            source_id,
            source_ref,
            list(keep_ids),
        )
        return [r["id"] for r in rows]

    async def embed_passages(self, texts: Sequence[str], embedder: Embedder, *, tenant: str) -> list[list[float]]:
        """Embeddings for ``texts`` on behalf of user ``tenant``, reusing any stored for the same
        content (by hash) among that user's own memories: the same text is not embedded twice, and
        how fast a write is never tells whether another tenant stored that text. One call per
        tenant at a time goes to the embedder, so one tenant's bulk write cannot occupy it: others
        get their batches in between."""
        texts = [self.screen(t) for t in texts]  # the vector is of the text that is stored
        hashes = [content_hash(t) for t in texts]
        # A memory written in a session may be embedded with the turn before it (the gateway's
        # session context): its vector is not its text's alone, so it is never reused for that text.
        rows = await self.pool.fetch(
            "SELECT DISTINCT ON (content_hash) content_hash, embedding FROM memories"
            " WHERE content_hash = ANY($1) AND embedding_model = $2 AND user_id = $3 AND session_id IS NULL",
            list(set(hashes)),
            embedder.name,
            tenant,
        )
        known = {r["content_hash"]: vector_of(r["embedding"]).tolist() for r in rows}
        missing = [i for i, h in enumerate(hashes) if h not in known]
        fresh: list[list[float]] = []
        if missing:
            async with self._tenant_lane(tenant):
                fresh = await embedder.embed_passages([texts[i] for i in missing])
        for i, vector in zip(missing, fresh, strict=True):
            known[hashes[i]] = vector
        return [known[h] for h in hashes]

    async def sync_index(self, upserted: Sequence[str] = (), deleted: Sequence[str] = ()) -> None:
        """Bring the index in line with Postgres for these ids (call after the commit), then clear
        the marks their changes left in ``index_pending``.

        Which ids were upserted or deleted is only a hint: each id is indexed as Postgres has it
        now (present: upserted; gone: deleted), so a concurrent writer can never be undone. The
        rows and the marks are read in one statement (one snapshot), so only marks of changes this
        call has seen are cleared; a change committed meanwhile keeps its mark for its own writer or
        the reconciler."""
        ids = sorted(set(upserted) | set(deleted))
        if not ids:
            return
        rows = await self.pool.fetch(
            "WITH marks AS (SELECT array_agg(seq) AS seqs FROM index_pending WHERE memory_id = ANY($1)),"
            f" present AS (SELECT {RECORD_COLUMNS}, embedding FROM memories WHERE id = ANY($1))"
            " SELECT present.*, marks.seqs FROM marks LEFT JOIN present ON true",
            ids,
        )
        present = [r for r in rows if r["id"] is not None]
        gone = sorted(set(ids) - {r["id"] for r in present})
        if gone:
            await self.index.delete(gone)
        if present:
            await self.index.upsert([index_point(r) for r in present])
        seqs = rows[0]["seqs"] if rows else None
        if seqs:
            self._indexed_marks.note(seqs)

    async def _clear_marks(self, seqs: list[int]) -> None:
        await self.pool.execute("DELETE FROM index_pending WHERE seq = ANY($1)", seqs)

    async def marks_cleared(self) -> None:
        """Wait until the marks of every change indexed so far are cleared (tests; before the pool closes)."""
        await self._indexed_marks.flush()

    async def reconcile_index(self, *, older_than_s: float, batch: int = 500) -> int:
        """Index every change whose writer did not get to it (a crash between commit and index
        write) and that is older than ``older_than_s`` (younger ones are still in their writer's
        hands); return how many memories were brought in line."""
        mended = 0
        while True:
            ids = [
                r["memory_id"]
                for r in await self.pool.fetch(
                    "SELECT DISTINCT memory_id FROM index_pending"
                    " WHERE marked_at < now() - make_interval(secs => $1) LIMIT $2",
                    older_than_s,
                    batch,
                )
            ]
            if not ids:
                return mended
            await self.sync_index(upserted=ids)
            mended += len(ids)

    async def index_gap(self) -> int:
        """How many more memories Postgres holds than the index (an index lost or restored from an
        older copy); negative when the index holds points Postgres no longer has."""
        return int(await self.pool.fetchval("SELECT count(*) FROM memories")) - await self.index.count()

    async def index_keyless(self) -> int:
        """Standing memories the index holds without their read key (``acl.read_key``): points written
        by a version before it, which searches would not find."""
        return await self.index.count(KEYLESS_STANDING)

    async def iter_rows(self, batch: int = 500) -> AsyncIterator[list[asyncpg.Record]]:
        last = ""
        while True:
            rows = await self.pool.fetch(
                f"SELECT {RECORD_COLUMNS}, embedding FROM memories WHERE id > $1 ORDER BY id LIMIT $2", last, batch
            )
            if not rows:
                return
            yield rows
            last = rows[-1]["id"]

    async def reindex(self, progress: Callable[[int, int], None] | None = None, *, fresh: bool = True) -> int:
        """Index every row from Postgres without re-embedding; return the number of points. Fresh (the
        operator's rebuild): clear the index first and build its graph after. Not fresh (the
        reconciler filling in a lost index): upsert over what is there while searches go on."""
        total = await self.pool.fetchval("SELECT count(*) FROM memories")
        if fresh:
            await self.index.clear()
        done = 0
        async for rows in self.iter_rows():
            await self.index.upsert([index_point(r) for r in rows])
            done += len(rows)
            if progress:
                progress(done, total)
        if fresh:
            await self.index.optimize()
        return done
