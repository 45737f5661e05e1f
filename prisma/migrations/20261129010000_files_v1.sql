-- migrate:up
-- v1 files (issue 13): metadata, lifecycle and private transfers through short-lived intents (docs/files.md).
-- A file row exists from its upload intent on (`pending`); completion checks the stored bytes against the declared
-- size, content type and SHA-256 and makes it `available`; a reservation that expires first leaves it `expired`
-- (the scaffold's `failed`, renamed to what the API says), and the worker removes its bytes (`storage_cleared_at`).
-- Capability tokens are never stored: only their SHA-256 (`token_hash`), looked up by the transfer routes, whose URL
-- names the workspace too (the lookup stays within one tenant's rows, as every index here is led by workspace_id).
ALTER TYPE file_status RENAME VALUE 'failed' TO 'expired';
ALTER TABLE files
  ADD COLUMN checksum_sha256 text NOT NULL DEFAULT '',
  ADD COLUMN uploaded_by uuid,
  ADD COLUMN storage_cleared_at timestamptz(3),
  ADD CONSTRAINT files_checksum_sha256_check CHECK (checksum_sha256 ~ '^([0-9a-f]{64})?$');
ALTER TABLE files ALTER COLUMN checksum_sha256 DROP DEFAULT;
-- The sweep's work list: expired files whose bytes are not yet removed.
CREATE INDEX files_expired_uncleared_idx ON files (updated_at) WHERE status = 'expired' AND storage_cleared_at IS NULL;

ALTER TABLE file_upload_reservations
  ADD COLUMN token_hash bytea NOT NULL,
  -- Set while one upload holds (or has stored) the bytes: the capability URL takes one upload at a time.
  ADD COLUMN upload_claimed_at timestamptz(3);
CREATE UNIQUE INDEX file_upload_reservations_workspace_id_token_hash_key ON file_upload_reservations (workspace_id, token_hash);

-- A short-lived download capability of one file (the local driver's download URL; the S3 driver presigns instead).
CREATE TABLE file_download_intents (
  workspace_id             uuid NOT NULL,
  id                       uuid NOT NULL DEFAULT uuidv7(),
  file_id                  uuid NOT NULL,
  token_hash               bytea NOT NULL,
  expires_at               timestamptz(3) NOT NULL,
  created_at               timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT file_download_intents_pkey PRIMARY KEY (workspace_id, id),
  CONSTRAINT file_download_intents_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT,
  CONSTRAINT file_download_intents_workspace_id_file_id_fkey FOREIGN KEY (workspace_id, file_id) REFERENCES files (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT
);
CREATE UNIQUE INDEX file_download_intents_workspace_id_token_hash_key ON file_download_intents (workspace_id, token_hash);
CREATE INDEX file_download_intents_workspace_id_file_id_idx ON file_download_intents (workspace_id, file_id);
CREATE INDEX file_download_intents_expires_at_idx ON file_download_intents (expires_at);

-- migrate:down
DROP TABLE file_download_intents;
DROP INDEX file_upload_reservations_workspace_id_token_hash_key;
ALTER TABLE file_upload_reservations DROP COLUMN upload_claimed_at, DROP COLUMN token_hash;
DROP INDEX files_expired_uncleared_idx;
ALTER TABLE files
  DROP CONSTRAINT files_checksum_sha256_check,
  DROP COLUMN storage_cleared_at,
  DROP COLUMN uploaded_by,
  DROP COLUMN checksum_sha256;
ALTER TYPE file_status RENAME VALUE 'expired' TO 'failed';
