-- migrate:up

-- The integrations family (GET /v1/integrations) reports the workspace's connected apps from what exists (service
-- accounts and their webhook deliveries, calendar feeds: libs/db/src/integrations.ts); this table, from the initial
-- schema, was never read or written (issue 28: dead schema removed).
DROP TABLE integrations;
DROP TYPE integration_status;

-- migrate:down

CREATE TYPE integration_status AS ENUM ('pending', 'active', 'error', 'disabled');
CREATE TABLE integrations (
  workspace_id      uuid NOT NULL,
  id                uuid NOT NULL DEFAULT uuidv7(),
  provider          text NOT NULL,
  status            integration_status NOT NULL DEFAULT 'pending',
  config            jsonb NOT NULL DEFAULT '{}'::jsonb,
  secret_ciphertext bytea,
  secret_key_id     text,
  installed_at      timestamptz(3),
  revision          integer NOT NULL DEFAULT 1,
  created_at        timestamptz(3) NOT NULL DEFAULT now(),
  updated_at        timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT integrations_pkey PRIMARY KEY (workspace_id, id)
);
CREATE INDEX integrations_workspace_id_created_at_id_idx ON integrations (workspace_id, created_at, id);
CREATE UNIQUE INDEX integrations_workspace_id_provider_key ON integrations (workspace_id, provider);
ALTER TABLE integrations ADD CONSTRAINT integrations_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
