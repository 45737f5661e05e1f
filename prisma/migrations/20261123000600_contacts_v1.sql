-- migrate:up
-- v1 contacts (issue 6): a person may belong to an organization contact, carries an optional postal address and
-- belongs to any number of contact groups (link rows, replaced as a set); a call note's author is a member or a
-- service account. The single contacts.contact_group_id of the initial schema is superseded by the link table.
ALTER TABLE contacts ADD COLUMN organization_id uuid;
ALTER TABLE contacts ADD COLUMN address jsonb;
CREATE INDEX contacts_workspace_id_organization_id_idx ON contacts (workspace_id, organization_id);
ALTER TABLE contacts ADD CONSTRAINT contacts_workspace_id_organization_id_fkey
  FOREIGN KEY (workspace_id, organization_id) REFERENCES contacts (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;

CREATE TABLE contact_group_memberships (
  workspace_id uuid NOT NULL,
  contact_id uuid NOT NULL,
  contact_group_id uuid NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT contact_group_memberships_pkey PRIMARY KEY (workspace_id, contact_id, contact_group_id)
);
CREATE INDEX contact_group_memberships_workspace_id_contact_group_id_idx ON contact_group_memberships (workspace_id, contact_group_id);
ALTER TABLE contact_group_memberships ADD CONSTRAINT contact_group_memberships_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE contact_group_memberships ADD CONSTRAINT contact_group_memberships_workspace_id_contact_id_fkey
  FOREIGN KEY (workspace_id, contact_id) REFERENCES contacts (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE contact_group_memberships ADD CONSTRAINT contact_group_memberships_workspace_id_contact_group_id_fkey
  FOREIGN KEY (workspace_id, contact_group_id) REFERENCES contact_groups (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;

ALTER TABLE call_notes ADD COLUMN author_service_account_id uuid;
ALTER TABLE call_notes ADD CONSTRAINT call_notes_single_author_check CHECK (author_member_id IS NULL OR author_service_account_id IS NULL);
ALTER TABLE call_notes ADD CONSTRAINT call_notes_workspace_id_author_service_account_id_fkey
  FOREIGN KEY (workspace_id, author_service_account_id) REFERENCES service_accounts (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;

-- migrate:down
ALTER TABLE call_notes DROP CONSTRAINT call_notes_workspace_id_author_service_account_id_fkey;
ALTER TABLE call_notes DROP CONSTRAINT call_notes_single_author_check;
ALTER TABLE call_notes DROP COLUMN author_service_account_id;
DROP TABLE contact_group_memberships;
ALTER TABLE contacts DROP CONSTRAINT contacts_workspace_id_organization_id_fkey;
DROP INDEX contacts_workspace_id_organization_id_idx;
ALTER TABLE contacts DROP COLUMN address;
ALTER TABLE contacts DROP COLUMN organization_id;
