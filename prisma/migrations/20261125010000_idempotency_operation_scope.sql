-- migrate:up
-- Idempotency keys are scoped by credential AND operation (as v1.openapi.json documents): the same key on
-- POST /v1/tags and on POST /v1/lists names two different requests. Records are kept 24 hours; those written
-- before this migration get an empty operation id and simply expire.
ALTER TABLE idempotency_records ADD COLUMN operation_id text NOT NULL DEFAULT '';
ALTER TABLE idempotency_records ALTER COLUMN operation_id DROP DEFAULT;
DROP INDEX idempotency_records_workspace_id_credential_id_key_key;
CREATE UNIQUE INDEX idempotency_records_scope_key ON idempotency_records (workspace_id, credential_id, operation_id, key);

-- migrate:down
DROP INDEX idempotency_records_scope_key;
DELETE FROM idempotency_records a USING idempotency_records b
  WHERE a.workspace_id = b.workspace_id AND a.credential_id = b.credential_id AND a.key = b.key AND a.id < b.id;
CREATE UNIQUE INDEX idempotency_records_workspace_id_credential_id_key_key ON idempotency_records (workspace_id, credential_id, key);
ALTER TABLE idempotency_records DROP COLUMN operation_id;
