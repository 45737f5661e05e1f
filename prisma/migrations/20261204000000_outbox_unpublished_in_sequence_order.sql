-- migrate:up

-- The relay reads the unpublished events in per-workspace sequence order (lockUnpublishedEvents: ORDER BY
-- workspace_id, sequence LIMIT n). On a partial index of occurred_at that order needs a sort, so whenever the
-- statistics still count many unpublished events (after a burst of writes, until the next ANALYZE) PostgreSQL walked
-- the (workspace_id, sequence) unique index instead and filtered out every published event of the workspace on each
-- run: a relay run cost grew with the outbox (issue 28, thirteenth session: 600 ms a run after 100,000 events). This
-- index serves the order and holds only the unpublished events, so the walk stops after the batch.
DROP INDEX outbox_events_unpublished_idx;
CREATE INDEX outbox_events_unpublished_idx ON outbox_events (workspace_id, sequence) WHERE published_at IS NULL;

-- migrate:down

DROP INDEX outbox_events_unpublished_idx;
CREATE INDEX outbox_events_unpublished_idx ON outbox_events (occurred_at) WHERE published_at IS NULL;
