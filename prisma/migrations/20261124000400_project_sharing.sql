-- migrate:up
-- v1 project sharing (issue 6): an access-control entry names a member, a group or a service account
-- (the registry's principal types), exactly one of them; the entry set has its own compare-and-set version
-- (projects.sharing_revision) so replacing it never moves the project's If-Match revision.
ALTER TABLE project_access_entries ADD COLUMN service_account_id uuid;
ALTER TABLE project_access_entries DROP CONSTRAINT project_access_entries_principal_xor_check;
ALTER TABLE project_access_entries ADD CONSTRAINT project_access_entries_principal_one_check CHECK (num_nonnulls(member_id, group_id, service_account_id) = 1);
CREATE INDEX project_access_entries_workspace_id_service_account_id_idx ON project_access_entries (workspace_id, service_account_id);
CREATE UNIQUE INDEX project_access_entries_project_service_account_key ON project_access_entries (workspace_id, project_id, service_account_id);
ALTER TABLE project_access_entries ADD CONSTRAINT project_access_entries_workspace_id_service_account_id_fkey
  FOREIGN KEY (workspace_id, service_account_id) REFERENCES service_accounts (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE projects ADD COLUMN sharing_revision integer NOT NULL DEFAULT 1;

-- migrate:down
ALTER TABLE projects DROP COLUMN sharing_revision;
ALTER TABLE project_access_entries DROP CONSTRAINT project_access_entries_workspace_id_service_account_id_fkey;
DROP INDEX project_access_entries_project_service_account_key;
DROP INDEX project_access_entries_workspace_id_service_account_id_idx;
ALTER TABLE project_access_entries DROP CONSTRAINT project_access_entries_principal_one_check;
ALTER TABLE project_access_entries DROP COLUMN service_account_id;
ALTER TABLE project_access_entries ADD CONSTRAINT project_access_entries_principal_xor_check CHECK ((member_id IS NULL) <> (group_id IS NULL));
