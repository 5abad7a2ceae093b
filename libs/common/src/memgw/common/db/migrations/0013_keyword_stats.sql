-- BM25's word rarity (IDF) counted per way of reading (issue "Retrieval v2"). Qdrant's own IDF counts a word
-- over every tenant's memories, so another tenant's writes moved a reader's scores; here a reader's search
-- weighs each word of its query by how many of the memories it may read hold it, and nothing else.
--
-- keyword_terms: the BM25 terms of a memory's content (``memgw.common.index.sparse.document_terms``),
-- written with the content by the store; NULL until counted (rows of a version before this one are
-- filled in at start by the reconciler).
ALTER TABLE memories ADD COLUMN keyword_terms bigint[];

-- The one way a standing memory is read, as keyword_stats keys it: the same ways as ``acl.read_key``
-- (whose keys tell the expiring apart, which counting need not). One definition for the trigger below
-- and for the reader's side (``acl.keyword_stats_sql``), so the two cannot spell a way differently.
CREATE FUNCTION memory_read_way(visibility text, user_id text, agent_id text, workspace_id text)
RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT (CASE visibility
        WHEN 'private' THEN json_build_array(visibility, user_id)
        WHEN 'agent-only' THEN json_build_array(visibility, user_id, agent_id)
        WHEN 'workspace-shared' THEN json_build_array(visibility, workspace_id)
        ELSE json_build_array(visibility)
    END)::text
$$;

-- How many standing memories (active, not marked incorrect) of each way and source hold each term; the
-- term -1 (outside BM25's u32 term ids) counts the memories themselves. The source columns are there
-- because an agent may be scoped to some sources: it counts only what it may read ('' = not a source's).
CREATE TABLE keyword_stats (
    way          text NOT NULL,
    source_id    text NOT NULL,
    source_scope text NOT NULL,
    term         bigint NOT NULL,
    docs         integer NOT NULL,
    PRIMARY KEY (way, term, source_id, source_scope)
);

-- The encoding the stored terms were made with (``sparse.ENCODING``): another one counts them again.
CREATE TABLE keyword_encoding (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    encoding text NOT NULL
);

-- A memory's counts: one per term and one for itself, under its way and source; none unless it stands.
CREATE TYPE keyword_count AS (way text, source_id text, source_scope text, term bigint, sign integer);
CREATE FUNCTION keyword_counts(m memories, sign integer) RETURNS SETOF keyword_count LANGUAGE sql IMMUTABLE AS $$
    SELECT memory_read_way(m.visibility, m.user_id, m.agent_id, m.workspace_id), coalesce(m.source_id, ''),
        coalesce(m.source_scope, ''), t.term, sign
    FROM unnest(m.keyword_terms || ARRAY[-1::bigint]) AS t(term)
    WHERE m.keyword_terms IS NOT NULL AND m.status = 'active' AND NOT ('incorrect' = ANY(m.flags))
$$;

-- A statement's counts, summed per key before any is touched: one upsert per key and statement, in key
-- order, so two writers of one way never lock its counts in opposite orders; a statement that changed
-- nothing counted (search's last_retrieved_at) sums to nothing and writes nothing. PL/pgSQL, so its plan
-- is kept between calls: a query put together per call cost a one-memory INSERT + 1.4 ms on a probe, this
-- + 0.5-0.8 (a whole write through the store: bench/reports/keyword_stats.md).
CREATE FUNCTION keyword_stats_add(counts keyword_count[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO keyword_stats (way, source_id, source_scope, term, docs)
    SELECT c.way, c.source_id, c.source_scope, c.term, sum(c.sign)
    FROM unnest(counts) AS c GROUP BY 1, 2, 3, 4 HAVING sum(c.sign) <> 0 ORDER BY 1, 4, 2, 3
    ON CONFLICT (way, term, source_id, source_scope) DO UPDATE SET docs = keyword_stats.docs + EXCLUDED.docs;
END $$;

-- Each statement's rows counted out as they were and in as they are; statement-level, as for index_pending
-- (migration 0006). An INSERT's trigger has no old rows to name, nor a DELETE's new ones.
CREATE FUNCTION keyword_stats_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM keyword_stats_add(ARRAY(SELECT c FROM new_rows n, keyword_counts(n, 1) c));
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM keyword_stats_add(ARRAY(SELECT c FROM old_rows o, keyword_counts(o, -1) c));
    ELSE
        PERFORM keyword_stats_add(ARRAY(
            SELECT c FROM old_rows o, keyword_counts(o, -1) c UNION ALL SELECT c FROM new_rows n, keyword_counts(n, 1) c
        ));
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER memories_keyword_stats_inserted AFTER INSERT ON memories
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION keyword_stats_count();
CREATE TRIGGER memories_keyword_stats_deleted AFTER DELETE ON memories
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION keyword_stats_count();
CREATE TRIGGER memories_keyword_stats_updated AFTER UPDATE ON memories
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION keyword_stats_count();
