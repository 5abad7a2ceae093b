-- Embeddings are reused by content hash: the same text is never embedded twice.
CREATE INDEX memories_content_hash_idx ON memories (content_hash, embedding_model);
