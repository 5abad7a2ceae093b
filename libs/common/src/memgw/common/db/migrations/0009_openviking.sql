-- What the optional OpenViking adapter wrote, per memory (owner: the consolidator's OpenViking sync):
-- where the resource is, so a memory deleted or moved takes its resource with it, and at which
-- version, so a catch-up after downtime rewrites only what changed. No foreign key: a deleted
-- memory's row stays until its resource is removed.
CREATE TABLE openviking_resources (
    memory_id   text PRIMARY KEY,
    uri         text NOT NULL,
    version     integer NOT NULL,
    synced_at   timestamptz NOT NULL DEFAULT now()
);
