-- migrate:up
-- v1 invitations (issue 13): an invitation offers one or more roles (invitation_roles replaces the initial single
-- role_id), keeps the optional personal message, when its e-mail was last sent, when it was revoked and who invited
-- (a member or a service account). Each e-mail sent for it is an invitation_messages row named by the outbox event
-- that asked for it (so the worker sends it once), holding only the SHA-256 of the acceptance token it carried.
-- The tokens name their workspace, so the lookup (workspace_id, token_hash) stays within a tenant.
CREATE TABLE invitation_roles (
  workspace_id  uuid NOT NULL,
  invitation_id uuid NOT NULL,
  role_id       uuid NOT NULL,
  CONSTRAINT invitation_roles_pkey PRIMARY KEY (workspace_id, invitation_id, role_id)
);
CREATE INDEX invitation_roles_workspace_id_role_id_idx ON invitation_roles (workspace_id, role_id);
ALTER TABLE invitation_roles ADD CONSTRAINT invitation_roles_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE invitation_roles ADD CONSTRAINT invitation_roles_workspace_id_invitation_id_fkey
  FOREIGN KEY (workspace_id, invitation_id) REFERENCES invitations (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE invitation_roles ADD CONSTRAINT invitation_roles_workspace_id_role_id_fkey
  FOREIGN KEY (workspace_id, role_id) REFERENCES roles (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
INSERT INTO invitation_roles (workspace_id, invitation_id, role_id) SELECT workspace_id, id, role_id FROM invitations;
ALTER TABLE invitations DROP CONSTRAINT invitations_workspace_id_role_id_fkey;
ALTER TABLE invitations DROP COLUMN role_id;

ALTER TABLE invitations
  ADD COLUMN message text,
  ADD COLUMN last_sent_at timestamptz(3) NOT NULL DEFAULT now(),
  ADD COLUMN revoked_at timestamptz(3),
  ADD COLUMN invited_by_service_account_id uuid;
ALTER TABLE invitations ADD CONSTRAINT invitations_workspace_id_invited_by_service_account_id_fkey
  FOREIGN KEY (workspace_id, invited_by_service_account_id) REFERENCES service_accounts (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;

CREATE TABLE invitation_messages (
  workspace_id  uuid NOT NULL,
  id            uuid NOT NULL,
  invitation_id uuid NOT NULL,
  token_hash    bytea NOT NULL,
  sent_at       timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT invitation_messages_pkey PRIMARY KEY (workspace_id, id)
);
CREATE UNIQUE INDEX invitation_messages_workspace_id_token_hash_key ON invitation_messages (workspace_id, token_hash);
CREATE INDEX invitation_messages_workspace_id_invitation_id_idx ON invitation_messages (workspace_id, invitation_id);
ALTER TABLE invitation_messages ADD CONSTRAINT invitation_messages_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE invitation_messages ADD CONSTRAINT invitation_messages_workspace_id_invitation_id_fkey
  FOREIGN KEY (workspace_id, invitation_id) REFERENCES invitations (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;

-- migrate:down
DROP TABLE invitation_messages;
ALTER TABLE invitations DROP CONSTRAINT invitations_workspace_id_invited_by_service_account_id_fkey;
ALTER TABLE invitations
  DROP COLUMN invited_by_service_account_id,
  DROP COLUMN revoked_at,
  DROP COLUMN last_sent_at,
  DROP COLUMN message;
ALTER TABLE invitations ADD COLUMN role_id uuid;
UPDATE invitations i SET role_id = (SELECT min(r.role_id::text)::uuid FROM invitation_roles r WHERE r.workspace_id = i.workspace_id AND r.invitation_id = i.id);
DELETE FROM invitations WHERE role_id IS NULL;
ALTER TABLE invitations ALTER COLUMN role_id SET NOT NULL;
ALTER TABLE invitations ADD CONSTRAINT invitations_workspace_id_role_id_fkey
  FOREIGN KEY (workspace_id, role_id) REFERENCES roles (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
DROP TABLE invitation_roles;
