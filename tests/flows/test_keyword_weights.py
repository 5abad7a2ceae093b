"""A word's rarity (BM25's IDF) is counted among the memories the reader may read, and nothing else
(``keyword_stats``, migration 0013): it follows each memory's life, an agent kept to some sources counts
only theirs, and memories written before it are counted at start."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import UTC, datetime

from memgw.common.domain import Principal
from memgw.common.index import sparse
from memgw.common.memories import MemoryStore, NewMemory
from memgw.common.runtime import Infra
from memgw.consolidator.main import maintenance_for
from tests.conftest import System


async def _add(system: System, key: str, content: str) -> str:
    r = await system.client.post("/v1/memory", json={"content": content}, headers=system.auth(key))
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def _private(user: str, memory_id: str, content: str, dim: int) -> NewMemory:
    """A private memory as the store writes it (its vector does not matter: only its words are counted)."""
    return NewMemory(
        id=memory_id,
        user_id=user,
        namespace=f"user/{user}/long_term",
        memory_type="fact",
        content=content,
        visibility="private",
        embedding=[0.0] * dim,
        embedding_model="test",
    )


async def test_a_word_every_memory_holds_weighs_less_than_the_rare_one_the_question_turns_on(system: System) -> None:
    """Without the reader's IDF a name said thrice outscores the one memory that holds the rare word."""
    s = uuid.uuid4().hex[:6]
    key = await system.user(f"idf_{s}")
    name = f"Melanie{s}"
    for n in range(6):
        await _add(system, key, f"{name} went hiking on trail {n}")
    said_thrice = await _add(system, key, f"{name} {name} {name}")
    puppy = await _add(system, key, "the puppy sleeps")
    body = {"query": f"{name} puppy", "mode": "sparse", "limit": 3}
    r = await system.client.post("/v1/memory/search", json=body, headers=system.auth(key))
    assert r.status_code == 200, r.text
    ranked = [h["memory"]["id"] for h in r.json()["results"]]
    assert ranked[:2] == [puppy, said_thrice]


async def _own_counts(store: MemoryStore, p: Principal, term: int) -> tuple[int, int]:
    """How many of what ``p`` may read hold ``term``, and how many ``p`` may read beyond what every reader
    reads: the global memories other tests wrote into the shared system are counted for every reader, as
    they should be, so they are measured (a reader of the same sources with nothing of its own) and left out."""
    bystander = replace(p, user_id=f"{p.user_id}_bystander", agent_id=None, workspace_ids=frozenset())
    docs, total = await store.keyword_counts(p, [term])
    _, everyones = await store.keyword_counts(bystander, [term])
    return docs[term], total - everyones


async def test_the_counts_follow_a_memorys_life_and_no_other_readers_memories(system: System) -> None:
    s = uuid.uuid4().hex[:6]
    reader, other = f"idf_reader_{s}", f"idf_other_{s}"
    reader_key, other_key = await system.user(reader), await system.user(other)
    word = f"quokka{s}"
    [term] = sparse.query_terms(word)
    me = Principal(user_id=reader)
    store = system.infra.store

    async def counted() -> tuple[int, int]:
        return await _own_counts(store, me, term)

    first = await _add(system, reader_key, f"a {word} at the zoo")
    await _add(system, reader_key, "lunch on friday")
    assert await counted() == (1, 2)
    docs, total = await store.keyword_counts(me, [term])
    assert (await store.keyword_weights(me, word))[term] == sparse.idf(docs[term], total)  # the weight is of these
    await _add(system, other_key, f"{word} {word} everywhere")  # another reader's: not counted
    assert await counted() == (1, 2)
    await _add(system, reader_key, f"the {word} again")
    assert await counted() == (2, 3)

    async def change(changes: dict[str, object]) -> None:
        async with system.infra.pool.acquire() as conn, conn.transaction():
            await store.update(conn, first, changes, actor=reader)

    await change({"flags": ["incorrect"]})
    assert await counted() == (1, 2)  # out of default retrieval: out of the counts
    await change({"flags": []})
    assert await counted() == (2, 3)
    await change({"status": "archived"})
    assert await counted() == (1, 2)
    await change({"status": "active"})
    assert await counted() == (2, 3)
    await store.mark_retrieved([first])  # a column the counts do not read: nothing moves
    assert await counted() == (2, 3)
    dim = system.infra.embedder.dim
    await change({"content": "a walk at the zoo", "embedding": [0.0] * dim, "embedding_model": "test"})
    assert await counted() == (1, 3)  # its words changed: the word is out, the memory still counted
    deleted = await system.client.delete(f"/v1/memory/{first}", headers=system.auth(reader_key))
    assert deleted.status_code < 300, deleted.text
    assert await counted() == (1, 2)


async def test_an_agent_kept_to_some_sources_counts_only_what_it_may_read(system: System) -> None:
    s = uuid.uuid4().hex[:6]
    user = f"idf_src_{s}"
    await system.user(user)
    word = f"wombat{s}"
    [term] = sparse.query_terms(word)
    store = system.infra.store

    sources = ["notes", "notes", "mail", None]  # the word in two of notes', one of mail's; one of the user's own
    news = [
        _private(user, f"idf-{s}-{n}", f"{word} note {n}" if n < 3 else "other note", system.infra.embedder.dim)
        for n in range(len(sources))
    ]
    for new, source_id in zip(news, sources, strict=True):
        new.source_id = source_id
    async with system.infra.pool.acquire() as conn, conn.transaction():
        await store.insert_many(conn, news, actor=user)

    assert await _own_counts(store, Principal(user_id=user), term) == (3, 4)
    assert await _own_counts(store, Principal(user_id=user, memory_sources=("notes",)), term) == (2, 3)  # + own
    assert await _own_counts(store, Principal(user_id=user, memory_sources=()), term) == (0, 1)


async def test_counts_that_fell_to_nothing_are_forgotten_by_maintenance_and_come_back_with_the_word(
    system: System,
) -> None:
    s = uuid.uuid4().hex[:6]
    user = f"idf_gone_{s}"
    key = await system.user(user)
    word = f"bilby{s}"
    [term] = sparse.query_terms(word)
    me, store, pool = Principal(user_id=user), system.infra.store, system.infra.pool
    rows = "SELECT count(*) FROM keyword_stats WHERE term = $1"

    gone = await _add(system, key, f"a {word} in the desert")
    await _add(system, key, "the desert at night")
    deleted = await system.client.delete(f"/v1/memory/{gone}", headers=system.auth(key))
    assert deleted.status_code < 300, deleted.text
    assert await pool.fetchval(rows, term) == 1  # its count is 0, and kept until maintenance
    assert await _own_counts(store, me, term) == (0, 1)

    assert (await maintenance_for(system.infra).run(datetime.now(UTC), dry_run=True)).empty_keyword_counts >= 1
    assert await pool.fetchval(rows, term) == 1  # a dry run only counts
    assert (await maintenance_for(system.infra).run(datetime.now(UTC))).empty_keyword_counts >= 1
    assert await pool.fetchval(rows, term) == 0
    assert await _own_counts(store, me, term) == (0, 1)  # the reader's counts are the same without the rows

    await _add(system, key, f"the {word} is back")
    assert await _own_counts(store, me, term) == (1, 2)


async def test_memories_written_before_the_counts_are_counted_at_start_and_again_for_another_encoding(
    private_infra: Infra,
) -> None:
    """A database of its own: counting at start reads every memory."""
    user = "idf_old"
    me = Principal(user_id=user)
    word = "numbat"
    [term] = sparse.query_terms(word)
    store = private_infra.store
    news = [_private(user, f"old-{n}", f"{word} number {n}", private_infra.embedder.dim) for n in range(3)]
    async with private_infra.pool.acquire() as conn, conn.transaction():
        await store.insert_many(conn, news, actor=user)
    ids = [n.id for n in news]
    assert (await store.keyword_weights(me, word))[term] == sparse.idf(3, 3)

    # As a version before migration 0013 left them: no terms, nothing counted.
    await private_infra.pool.execute("UPDATE memories SET keyword_terms = NULL WHERE id = ANY($1)", ids[:2])
    assert (await store.keyword_weights(me, word))[term] == sparse.idf(1, 1)
    assert await store.count_keyword_terms() == 2
    assert (await store.keyword_weights(me, word))[term] == sparse.idf(3, 3)
    assert await store.count_keyword_terms() == 0  # nothing left to count

    # Terms of another encoding are made again, every memory's; the counts come out the same.
    await private_infra.pool.execute("UPDATE keyword_encoding SET encoding = 'an older one'")
    await private_infra.pool.execute("UPDATE memories SET keyword_terms = '{1}' WHERE id = $1", ids[0])
    assert await store.count_keyword_terms() == 1
    assert await private_infra.pool.fetchval("SELECT encoding FROM keyword_encoding") == sparse.ENCODING
    assert (await store.keyword_weights(me, word))[term] == sparse.idf(3, 3)
