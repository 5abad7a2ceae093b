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

-- Each statement's rows counted out (as they were) and in (as they are), summed per key before any count
-- is touched: one upsert per key and statement, in key order, so two writers of one way never lock its
-- counts in opposite orders; a statement that changed nothing counted (search's last_retrieved_at) sums
-- to nothing and writes nothing. Statement-level, as for index_pending (migration 0006); the query is put
-- together per operation since an INSERT's trigger has no old rows to name (nor a DELETE's new ones).
CREATE FUNCTION keyword_stats_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    columns text := 'visibility, user_id, agent_id, workspace_id, source_id, source_scope, status, flags, keyword_terms';
    changed text := CASE TG_OP
        WHEN 'INSERT' THEN format('SELECT 1 AS sign, %s FROM new_rows', columns)
        WHEN 'DELETE' THEN format('SELECT -1 AS sign, %s FROM old_rows', columns)
        ELSE format('SELECT -1 AS sign, %1$s FROM old_rows UNION ALL SELECT 1, %1$s FROM new_rows', columns)
    END;
BEGIN
    EXECUTE format(
        'INSERT INTO keyword_stats (way, source_id, source_scope, term, docs)'
        ' SELECT memory_read_way(c.visibility, c.user_id, c.agent_id, c.workspace_id),'
        '  coalesce(c.source_id, %1$L), coalesce(c.source_scope, %1$L), t.term, sum(c.sign)'
        ' FROM (%2$s) c CROSS JOIN LATERAL unnest(c.keyword_terms || ARRAY[-1::bigint]) AS t(term)'
        ' WHERE c.keyword_terms IS NOT NULL AND c.status = %3$L AND NOT (%4$L = ANY(c.flags))'
        ' GROUP BY 1, 2, 3, 4 HAVING sum(c.sign) <> 0 ORDER BY 1, 4, 2, 3'
        ' ON CONFLICT (way, term, source_id, source_scope) DO UPDATE SET docs = keyword_stats.docs + EXCLUDED.docs',
        '', changed, 'active', 'incorrect');
    RETURN NULL;
END $$;

CREATE TRIGGER memories_keyword_stats_inserted AFTER INSERT ON memories
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION keyword_stats_count();
CREATE TRIGGER memories_keyword_stats_deleted AFTER DELETE ON memories
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION keyword_stats_count();
CREATE TRIGGER memories_keyword_stats_updated AFTER UPDATE ON memories
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION keyword_stats_count();
