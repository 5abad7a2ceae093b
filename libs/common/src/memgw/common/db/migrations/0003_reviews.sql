-- Human review of what the consolidator is unsure of (contradictions), and its bookkeeping.

CREATE TABLE reviews (
    id            text PRIMARY KEY,
    user_id       text NOT NULL,
    memory_ids    text[] NOT NULL,          -- [existing, candidate]
    reason        text NOT NULL,
    status        text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'decided')),
    decision      text,
    decided_by    text,
    created_at    timestamptz NOT NULL DEFAULT now(),
    decided_at    timestamptz
);
CREATE INDEX reviews_user_idx ON reviews (user_id, status, created_at DESC);

-- Which bus messages a consumer has already applied: redelivery changes nothing the second time.
CREATE TABLE processed_messages (
    consumer    text NOT NULL,
    message_id  text NOT NULL,
    processed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (consumer, message_id)
);
