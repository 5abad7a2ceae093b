-- An UPDATE counts out and in again only the rows whose counted columns changed (those ``keyword_counts`` reads:
-- the way a memory is read, its source, its terms and whether it stands). Every other UPDATE (a search marking
-- what it found, a merge adding evidence) counted every row out and back in, summing to nothing: each row's
-- terms unnested twice and grouped, on every batch of a search's marks.
CREATE OR REPLACE FUNCTION keyword_stats_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM keyword_stats_add(ARRAY(SELECT c FROM new_rows n, keyword_counts(n, 1) c));
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM keyword_stats_add(ARRAY(SELECT c FROM old_rows o, keyword_counts(o, -1) c));
    ELSE
        PERFORM keyword_stats_add(ARRAY(
            WITH changed AS (
                SELECT o.id FROM old_rows o JOIN new_rows n ON n.id = o.id
                WHERE (o.visibility, o.user_id, o.agent_id, o.workspace_id, o.source_id, o.source_scope,
                       o.keyword_terms, o.status, o.flags)
                    IS DISTINCT FROM (n.visibility, n.user_id, n.agent_id, n.workspace_id, n.source_id, n.source_scope,
                       n.keyword_terms, n.status, n.flags)
            )
            SELECT c FROM old_rows o, keyword_counts(o, -1) c WHERE o.id IN (SELECT id FROM changed)
            UNION ALL SELECT c FROM new_rows n, keyword_counts(n, 1) c WHERE n.id IN (SELECT id FROM changed)
        ));
    END IF;
    RETURN NULL;
END $$;
