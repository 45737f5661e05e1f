-- migrate:up
-- removeMember never deletes a membership (credentials, time entries and audit events reference it): it disables
-- the member, unassigns its roles and groups and sets removed_at; removed members are invisible to the API.
ALTER TABLE workspace_members ADD COLUMN removed_at timestamptz(3);

-- migrate:down
ALTER TABLE workspace_members DROP COLUMN removed_at;
