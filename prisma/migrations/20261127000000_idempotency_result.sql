-- migrate:up
-- Issue 11: an idempotent operation's result is stored with its key by the mutation's own statement, so the
-- key's completion commits with the change: a process that dies after the commit can no longer let a retry run
-- the operation twice. `completed_by` says which path completed a key ('mutation': in the mutation's statement;
-- 'request': after the commit, for an operation whose mutation does not store its result). `result` is json, not
-- jsonb: its text is kept as written, keys in their order, so a replay renders the very bytes of the first response
-- (and so the same representation ETag).
ALTER TABLE idempotency_records
  ADD COLUMN result json,
  ADD COLUMN completed_by text,
  ADD CONSTRAINT idempotency_records_completed_by_check CHECK (completed_by IN ('mutation', 'request'));

-- migrate:down
ALTER TABLE idempotency_records DROP CONSTRAINT idempotency_records_completed_by_check, DROP COLUMN completed_by, DROP COLUMN result;
