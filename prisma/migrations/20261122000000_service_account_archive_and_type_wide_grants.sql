-- migrate:up
-- deleteServiceAccount archives (never deletes: the account's credentials and audit events reference it):
-- it disables the account, revokes its credentials and sets archived_at; archived accounts are invisible to the API.
ALTER TABLE service_accounts ADD COLUMN archived_at timestamptz(3);
CREATE INDEX service_accounts_workspace_id_archived_at_idx ON service_accounts (workspace_id, archived_at);

-- A resource grant with resource_id NULL grants every resource of its type (the v1 registry's ResourceGrant).
-- NULLS NOT DISTINCT keeps one grant per (service account, type, resource) including the type-wide one.
ALTER TABLE resource_grants ALTER COLUMN resource_id DROP NOT NULL;
DROP INDEX resource_grants_service_account_resource_key;
CREATE UNIQUE INDEX resource_grants_service_account_resource_key ON resource_grants (workspace_id, service_account_id, resource_type, resource_id) NULLS NOT DISTINCT;

-- migrate:down
DELETE FROM resource_grants WHERE resource_id IS NULL;
DROP INDEX resource_grants_service_account_resource_key;
CREATE UNIQUE INDEX resource_grants_service_account_resource_key ON resource_grants (workspace_id, service_account_id, resource_type, resource_id);
ALTER TABLE resource_grants ALTER COLUMN resource_id SET NOT NULL;

DROP INDEX service_accounts_workspace_id_archived_at_idx;
ALTER TABLE service_accounts DROP COLUMN archived_at;
