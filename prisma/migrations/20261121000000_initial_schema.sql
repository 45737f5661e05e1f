-- migrate:up
-- Initial Workcell schema. Must match prisma/schema.prisma exactly (checked by
-- libs/db/src/schema-drift.ts); conventions in prisma/README.md.
--
-- Tenancy: every tenant-owned table carries workspace_id, its primary key is
-- (workspace_id, id) and every unique index and foreign key includes workspace_id,
-- so all tenant tables can be distributed (and co-located) by workspace_id on Citus.
-- Global (Citus reference) tables: workspaces, users, credential_lookups.

-- UUIDv7 (RFC 9562): 48-bit Unix-epoch milliseconds + version 7 + random bits.
-- PostgreSQL 15 has no built-in generator; on PostgreSQL 18+ the built-in
-- pg_catalog.uuidv7() takes precedence and behaves the same.
CREATE FUNCTION uuidv7() RETURNS uuid
LANGUAGE plpgsql VOLATILE PARALLEL SAFE AS $$
BEGIN
  -- Start from a random v4 UUID (correct variant bits), overlay the timestamp on
  -- bytes 0-5, then turn version 4 (0100) into version 7 (0111) via bits 52, 53.
  RETURN encode(
    set_bit(
      set_bit(
        overlay(uuid_send(gen_random_uuid())
                PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
                FROM 1 FOR 6),
        52, 1),
      53, 1),
    'hex')::uuid;
END
$$;

-- Enum types
CREATE TYPE member_status AS ENUM ('active', 'disabled');
CREATE TYPE service_account_status AS ENUM ('active', 'disabled');
CREATE TYPE credential_kind AS ENUM ('personal_access_token', 'service_account', 'legacy_v1');
CREATE TYPE credential_status AS ENUM ('active', 'expired', 'revoked');
CREATE TYPE lookup_token_type AS ENUM ('team_token', 'credential', 'calendar_feed_token');
CREATE TYPE principal_type AS ENUM ('member', 'service_account', 'system');
CREATE TYPE resource_type AS ENUM ('project', 'task', 'time_entry', 'contact', 'contact_group', 'call_note', 'list', 'service', 'tag', 'product', 'product_group', 'project_statement', 'project_template', 'planned_work', 'appointment', 'absence', 'comment', 'document', 'file');
CREATE TYPE resource_access AS ENUM ('read', 'write');
CREATE TYPE project_status AS ENUM ('active', 'completed');
CREATE TYPE list_kind AS ENUM ('project', 'task');
CREATE TYPE task_status AS ENUM ('open', 'in_progress', 'completed', 'cancelled');
CREATE TYPE contact_kind AS ENUM ('person', 'organization');
CREATE TYPE project_statement_kind AS ENUM ('expense', 'revenue', 'budget');
CREATE TYPE webhook_subscription_status AS ENUM ('active', 'paused', 'disabled');
CREATE TYPE webhook_delivery_status AS ENUM ('pending', 'succeeded', 'failed');
CREATE TYPE idempotency_state AS ENUM ('in_progress', 'completed');
CREATE TYPE lifecycle_operation_kind AS ENUM ('complete', 'reopen', 'archive', 'restore');
CREATE TYPE operation_status AS ENUM ('queued', 'running', 'succeeded', 'failed');
CREATE TYPE project_access_level AS ENUM ('viewer', 'editor', 'manager');
CREATE TYPE recurrence_state AS ENUM ('active', 'paused', 'ended');
CREATE TYPE custom_field_target_type AS ENUM ('project', 'task', 'contact', 'time_entry');
CREATE TYPE custom_field_type AS ENUM ('text', 'number', 'date', 'boolean', 'single_select', 'multi_select', 'member', 'url');
CREATE TYPE absence_kind AS ENUM ('vacation', 'sick_leave', 'parental_leave', 'other');
CREATE TYPE comment_target_type AS ENUM ('contact', 'project', 'task');
CREATE TYPE file_status AS ENUM ('pending', 'available', 'failed');
CREATE TYPE upload_reservation_status AS ENUM ('pending', 'completed', 'expired');
CREATE TYPE invitation_status AS ENUM ('pending', 'accepted', 'revoked', 'expired');
CREATE TYPE export_status AS ENUM ('queued', 'running', 'succeeded', 'failed', 'expired');
CREATE TYPE automation_run_status AS ENUM ('queued', 'running', 'succeeded', 'failed', 'aborted');
CREATE TYPE integration_status AS ENUM ('pending', 'active', 'error', 'disabled');

-- The tenant: a "team" in v0, a "workspace" in v1. Citus reference table.
CREATE TABLE workspaces (
  id         uuid NOT NULL DEFAULT uuidv7(),
  name       text NOT NULL,
  region     text NOT NULL DEFAULT 'eu1',
  cell       text NOT NULL DEFAULT 'c1',
  locked_at  timestamptz(3),
  revision   integer NOT NULL DEFAULT 1,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT workspaces_pkey PRIMARY KEY (id)
);

-- Global person identity; a user may be a member of several workspaces. Citus reference table.
CREATE TABLE users (
  id         uuid NOT NULL DEFAULT uuidv7(),
  email      text NOT NULL,
  name       text NOT NULL,
  revision   integer NOT NULL DEFAULT 1,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT users_pkey PRIMARY KEY (id),
  CONSTRAINT users_email_lowercase_check CHECK (email = lower(email))
);
CREATE UNIQUE INDEX users_email_key ON users (email);

-- Global token lookup (Citus reference table): authentication hashes the presented
-- secret and finds the owning workspace and row before it knows the workspace.
-- Covers v1 credentials, v0 team tokens and calendar feed tokens.
CREATE TABLE credential_lookups (
  verifier     bytea NOT NULL,
  token_type   lookup_token_type NOT NULL,
  workspace_id uuid NOT NULL,
  token_id     uuid NOT NULL,
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT credential_lookups_pkey PRIMARY KEY (verifier)
);
CREATE UNIQUE INDEX credential_lookups_workspace_id_token_type_token_id_key ON credential_lookups (workspace_id, token_type, token_id);

CREATE TABLE workspace_members (
  workspace_id uuid NOT NULL,
  id           uuid NOT NULL DEFAULT uuidv7(),
  user_id      uuid NOT NULL,
  status       member_status NOT NULL DEFAULT 'active',
  joined_at    timestamptz(3) NOT NULL DEFAULT now(),
  disabled_at  timestamptz(3),
  revision     integer NOT NULL DEFAULT 1,
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  updated_at   timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT workspace_members_pkey PRIMARY KEY (workspace_id, id)
);
CREATE INDEX workspace_members_workspace_id_created_at_id_idx ON workspace_members (workspace_id, created_at, id);
CREATE INDEX workspace_members_user_id_idx ON workspace_members (user_id);
CREATE UNIQUE INDEX workspace_members_workspace_id_user_id_key ON workspace_members (workspace_id, user_id);

-- A role is a named set of permission keys (e.g. `settings.api.personalCredentials`,
-- `settings.api.serviceAccounts.manage`, and the permissions behind every scope).
CREATE TABLE roles (
  workspace_id uuid NOT NULL,
  id           uuid NOT NULL DEFAULT uuidv7(),
  name         text NOT NULL,
  description  text,
  permissions  text[] NOT NULL DEFAULT '{}',
  is_system    boolean NOT NULL DEFAULT false,
  revision     integer NOT NULL DEFAULT 1,
  archived_at  timestamptz(3),
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  updated_at   timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT roles_pkey PRIMARY KEY (workspace_id, id)
);
CREATE INDEX roles_workspace_id_created_at_id_idx ON roles (workspace_id, created_at, id);
CREATE UNIQUE INDEX roles_workspace_id_name_key ON roles (workspace_id, name);

CREATE TABLE member_roles (
  workspace_id uuid NOT NULL,
  member_id    uuid NOT NULL,
  role_id      uuid NOT NULL,
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT member_roles_pkey PRIMARY KEY (workspace_id, member_id, role_id)
);
CREATE INDEX member_roles_workspace_id_role_id_idx ON member_roles (workspace_id, role_id);

CREATE TABLE groups (
  workspace_id uuid NOT NULL,
  id           uuid NOT NULL DEFAULT uuidv7(),
  name         text NOT NULL,
  description  text,
  revision     integer NOT NULL DEFAULT 1,
  archived_at  timestamptz(3),
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  updated_at   timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT groups_pkey PRIMARY KEY (workspace_id, id)
);
CREATE INDEX groups_workspace_id_created_at_id_idx ON groups (workspace_id, created_at, id);

CREATE TABLE group_members (
  workspace_id uuid NOT NULL,
  group_id     uuid NOT NULL,
  member_id    uuid NOT NULL,
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT group_members_pkey PRIMARY KEY (workspace_id, group_id, member_id)
);
CREATE INDEX group_members_workspace_id_member_id_idx ON group_members (workspace_id, member_id);

-- v0 team token. Stores only the verifier (keyed hash), never the secret.
CREATE TABLE team_tokens (
  workspace_id         uuid NOT NULL,
  id                   uuid NOT NULL DEFAULT uuidv7(),
  name                 text NOT NULL,
  verifier             bytea NOT NULL,
  created_by_member_id uuid,
  last_used_at         timestamptz(3),
  revoked_at           timestamptz(3),
  created_at           timestamptz(3) NOT NULL DEFAULT now(),
  updated_at           timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT team_tokens_pkey PRIMARY KEY (workspace_id, id)
);
CREATE INDEX team_tokens_workspace_id_created_at_id_idx ON team_tokens (workspace_id, created_at, id);
CREATE UNIQUE INDEX team_tokens_workspace_id_verifier_key ON team_tokens (workspace_id, verifier);

CREATE TABLE service_accounts (
  workspace_id    uuid NOT NULL,
  id              uuid NOT NULL DEFAULT uuidv7(),
  name            text NOT NULL,
  description     text,
  status          service_account_status NOT NULL DEFAULT 'active',
  owner_member_id uuid NOT NULL,
  disabled_at     timestamptz(3),
  revision        integer NOT NULL DEFAULT 1,
  created_at      timestamptz(3) NOT NULL DEFAULT now(),
  updated_at      timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT service_accounts_pkey PRIMARY KEY (workspace_id, id)
);
CREATE INDEX service_accounts_workspace_id_created_at_id_idx ON service_accounts (workspace_id, created_at, id);
CREATE INDEX service_accounts_workspace_id_owner_member_id_idx ON service_accounts (workspace_id, owner_member_id);

-- v1 credential (personal access token, service-account credential, legacy v1 key).
-- Owner principal is exactly one of member_id / service_account_id (CHECK in SQL).
CREATE TABLE credentials (
  workspace_id       uuid NOT NULL,
  id                 uuid NOT NULL DEFAULT uuidv7(),
  public_id          text NOT NULL,
  kind               credential_kind NOT NULL,
  name               text NOT NULL,
  verifier           bytea NOT NULL,
  scopes             text[] NOT NULL DEFAULT '{}',
  status             credential_status NOT NULL DEFAULT 'active',
  expires_at         timestamptz(3),
  region             text NOT NULL,
  cell               text NOT NULL,
  audience           text NOT NULL,
  member_id          uuid,
  service_account_id uuid,
  rotated_from_id    uuid,
  last_used_at       timestamptz(3),
  revoked_at         timestamptz(3),
  revision           integer NOT NULL DEFAULT 1,
  created_at         timestamptz(3) NOT NULL DEFAULT now(),
  updated_at         timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT credentials_pkey PRIMARY KEY (workspace_id, id),
  CONSTRAINT credentials_owner_xor_check CHECK ((member_id IS NULL) <> (service_account_id IS NULL)),
  CONSTRAINT credentials_kind_owner_check CHECK ((kind <> 'personal_access_token' OR member_id IS NOT NULL) AND (kind <> 'service_account' OR service_account_id IS NOT NULL))
);
CREATE INDEX credentials_workspace_id_created_at_id_idx ON credentials (workspace_id, created_at, id);
CREATE INDEX credentials_workspace_id_member_id_idx ON credentials (workspace_id, member_id);
CREATE INDEX credentials_workspace_id_service_account_id_idx ON credentials (workspace_id, service_account_id);
CREATE UNIQUE INDEX credentials_workspace_id_public_id_key ON credentials (workspace_id, public_id);
CREATE UNIQUE INDEX credentials_workspace_id_verifier_key ON credentials (workspace_id, verifier);

-- A service account's bounded access to one resource (replaced atomically as a set).
CREATE TABLE resource_grants (
  workspace_id       uuid NOT NULL,
  id                 uuid NOT NULL DEFAULT uuidv7(),
  service_account_id uuid NOT NULL,
  resource_type      resource_type NOT NULL,
  resource_id        uuid NOT NULL,
  access             resource_access NOT NULL,
  created_at         timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT resource_grants_pkey PRIMARY KEY (workspace_id, id)
);
CREATE INDEX resource_grants_workspace_id_resource_type_resource_id_idx ON resource_grants (workspace_id, resource_type, resource_id);
CREATE UNIQUE INDEX resource_grants_service_account_resource_key ON resource_grants (workspace_id, service_account_id, resource_type, resource_id);

-- Token for the public v0 calendar feed (GET /calendar/{token}.ics). Verifier only.
CREATE TABLE calendar_feed_tokens (
  workspace_id uuid NOT NULL,
  id           uuid NOT NULL DEFAULT uuidv7(),
  member_id    uuid NOT NULL,
  name         text,
  verifier     bytea NOT NULL,
  last_used_at timestamptz(3),
  revoked_at   timestamptz(3),
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  updated_at   timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT calendar_feed_tokens_pkey PRIMARY KEY (workspace_id, id)
);
CREATE INDEX calendar_feed_tokens_workspace_id_member_id_idx ON calendar_feed_tokens (workspace_id, member_id);
CREATE UNIQUE INDEX calendar_feed_tokens_workspace_id_verifier_key ON calendar_feed_tokens (workspace_id, verifier);

CREATE TABLE lists (
  workspace_id uuid NOT NULL,
  id           uuid NOT NULL DEFAULT uuidv7(),
  name         text NOT NULL,
  kind         list_kind NOT NULL DEFAULT 'task',
  position     integer NOT NULL DEFAULT 0,
  revision     integer NOT NULL DEFAULT 1,
  archived_at  timestamptz(3),
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  updated_at   timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT lists_pkey PRIMARY KEY (workspace_id, id)
);
CREATE INDEX lists_workspace_id_created_at_id_idx ON lists (workspace_id, created_at, id);
CREATE INDEX lists_workspace_id_archived_at_idx ON lists (workspace_id, archived_at);

CREATE TABLE projects (
  workspace_id uuid NOT NULL,
  id           uuid NOT NULL DEFAULT uuidv7(),
  name         text NOT NULL,
  description  text,
  status       project_status NOT NULL DEFAULT 'active',
  contact_id   uuid,
  list_id      uuid,
  start_date   date,
  due_date     date,
  completed_at timestamptz(3),
  revision     integer NOT NULL DEFAULT 1,
  archived_at  timestamptz(3),
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  updated_at   timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT projects_pkey PRIMARY KEY (workspace_id, id)
);
CREATE INDEX projects_workspace_id_created_at_id_idx ON projects (workspace_id, created_at, id);
CREATE INDEX projects_workspace_id_archived_at_idx ON projects (workspace_id, archived_at);
CREATE INDEX projects_workspace_id_contact_id_idx ON projects (workspace_id, contact_id);
CREATE INDEX projects_workspace_id_list_id_idx ON projects (workspace_id, list_id);

CREATE TABLE tasks (
  workspace_id       uuid NOT NULL,
  id                 uuid NOT NULL DEFAULT uuidv7(),
  project_id         uuid,
  list_id            uuid,
  assignee_member_id uuid,
  title              text NOT NULL,
  description        text,
  status             task_status NOT NULL DEFAULT 'open',
  start_date         date,
  due_date           date,
  completed_at       timestamptz(3),
  revision           integer NOT NULL DEFAULT 1,
  archived_at        timestamptz(3),
  created_at         timestamptz(3) NOT NULL DEFAULT now(),
  updated_at         timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT tasks_pkey PRIMARY KEY (workspace_id, id)
);
CREATE INDEX tasks_workspace_id_created_at_id_idx ON tasks (workspace_id, created_at, id);
CREATE INDEX tasks_workspace_id_archived_at_idx ON tasks (workspace_id, archived_at);
CREATE INDEX tasks_workspace_id_project_id_idx ON tasks (workspace_id, project_id);
CREATE INDEX tasks_workspace_id_list_id_idx ON tasks (workspace_id, list_id);
CREATE INDEX tasks_workspace_id_assignee_member_id_idx ON tasks (workspace_id, assignee_member_id);

-- stopped_at null = running timer; at most one running timer per member
-- (partial unique index time_entries_one_running_timer_key, SQL only).
CREATE TABLE time_entries (
  workspace_id     uuid NOT NULL,
  id               uuid NOT NULL DEFAULT uuidv7(),
  member_id        uuid NOT NULL,
  project_id       uuid,
  task_id          uuid,
  service_id       uuid,
  description      text,
  started_at       timestamptz(3) NOT NULL,
  stopped_at       timestamptz(3),
  duration_seconds integer,
  billable         boolean NOT NULL DEFAULT false,
  billing_rate     numeric(14, 4),
  billing_currency char(3),
  revision         integer NOT NULL DEFAULT 1,
  archived_at      timestamptz(3),
  created_at       timestamptz(3) NOT NULL DEFAULT now(),
  updated_at       timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT time_entries_pkey PRIMARY KEY (workspace_id, id),
  CONSTRAINT time_entries_stopped_after_started_check CHECK (stopped_at IS NULL OR stopped_at >= started_at),
  CONSTRAINT time_entries_duration_check CHECK (duration_seconds IS NULL OR duration_seconds >= 0)
);
CREATE INDEX time_entries_workspace_id_created_at_id_idx ON time_entries (workspace_id, created_at, id);
CREATE INDEX time_entries_workspace_id_archived_at_idx ON time_entries (workspace_id, archived_at);
CREATE INDEX time_entries_workspace_id_member_id_started_at_idx ON time_entries (workspace_id, member_id, started_at);
CREATE INDEX time_entries_workspace_id_project_id_idx ON time_entries (workspace_id, project_id);
CREATE INDEX time_entries_workspace_id_task_id_idx ON time_entries (workspace_id, task_id);
CREATE INDEX time_entries_workspace_id_service_id_idx ON time_entries (workspace_id, service_id);
-- SQL-only (allow-listed in schema-drift.ts): at most one running timer per member.
CREATE UNIQUE INDEX time_entries_one_running_timer_key ON time_entries (workspace_id, member_id) WHERE stopped_at IS NULL;

CREATE TABLE contact_groups (
  workspace_id uuid NOT NULL,
  id           uuid NOT NULL DEFAULT uuidv7(),
  name         text NOT NULL,
  parent_id    uuid,
  revision     integer NOT NULL DEFAULT 1,
  archived_at  timestamptz(3),
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  updated_at   timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT contact_groups_pkey PRIMARY KEY (workspace_id, id)
);
CREATE INDEX contact_groups_workspace_id_created_at_id_idx ON contact_groups (workspace_id, created_at, id);
CREATE INDEX contact_groups_workspace_id_archived_at_idx ON contact_groups (workspace_id, archived_at);
CREATE INDEX contact_groups_workspace_id_parent_id_idx ON contact_groups (workspace_id, parent_id);

CREATE TABLE contacts (
  workspace_id     uuid NOT NULL,
  id               uuid NOT NULL DEFAULT uuidv7(),
  kind             contact_kind NOT NULL DEFAULT 'person',
  display_name     text NOT NULL,
  first_name       text,
  last_name        text,
  company_name     text,
  email            text,
  phone            text,
  contact_group_id uuid,
  notes            text,
  revision         integer NOT NULL DEFAULT 1,
  archived_at      timestamptz(3),
  created_at       timestamptz(3) NOT NULL DEFAULT now(),
  updated_at       timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT contacts_pkey PRIMARY KEY (workspace_id, id)
);
CREATE INDEX contacts_workspace_id_created_at_id_idx ON contacts (workspace_id, created_at, id);
CREATE INDEX contacts_workspace_id_archived_at_idx ON contacts (workspace_id, archived_at);
CREATE INDEX contacts_workspace_id_contact_group_id_idx ON contacts (workspace_id, contact_group_id);

-- Plain-text call note.
CREATE TABLE call_notes (
  workspace_id     uuid NOT NULL,
  id               uuid NOT NULL DEFAULT uuidv7(),
  contact_id       uuid,
  project_id       uuid,
  author_member_id uuid,
  title            text,
  content          text NOT NULL,
  occurred_at      timestamptz(3) NOT NULL DEFAULT now(),
  revision         integer NOT NULL DEFAULT 1,
  archived_at      timestamptz(3),
  created_at       timestamptz(3) NOT NULL DEFAULT now(),
  updated_at       timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT call_notes_pkey PRIMARY KEY (workspace_id, id)
);
CREATE INDEX call_notes_workspace_id_created_at_id_idx ON call_notes (workspace_id, created_at, id);
CREATE INDEX call_notes_workspace_id_archived_at_idx ON call_notes (workspace_id, archived_at);
CREATE INDEX call_notes_workspace_id_contact_id_idx ON call_notes (workspace_id, contact_id);
CREATE INDEX call_notes_workspace_id_project_id_idx ON call_notes (workspace_id, project_id);

-- Billable service; billing_rate and currency are set together (CHECK in SQL).
CREATE TABLE services (
  workspace_id uuid NOT NULL,
  id           uuid NOT NULL DEFAULT uuidv7(),
  name         text NOT NULL,
  description  text,
  billable     boolean NOT NULL DEFAULT true,
  billing_rate numeric(14, 4),
  currency     char(3),
  revision     integer NOT NULL DEFAULT 1,
  archived_at  timestamptz(3),
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  updated_at   timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT services_pkey PRIMARY KEY (workspace_id, id),
  CONSTRAINT services_rate_currency_check CHECK (billing_rate IS NULL OR currency IS NOT NULL)
);
CREATE INDEX services_workspace_id_created_at_id_idx ON services (workspace_id, created_at, id);
CREATE INDEX services_workspace_id_archived_at_idx ON services (workspace_id, archived_at);

CREATE TABLE tags (
  workspace_id uuid NOT NULL,
  id           uuid NOT NULL DEFAULT uuidv7(),
  name         text NOT NULL,
  color        text,
  revision     integer NOT NULL DEFAULT 1,
  archived_at  timestamptz(3),
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  updated_at   timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT tags_pkey PRIMARY KEY (workspace_id, id)
);
CREATE INDEX tags_workspace_id_created_at_id_idx ON tags (workspace_id, created_at, id);
CREATE INDEX tags_workspace_id_archived_at_idx ON tags (workspace_id, archived_at);

CREATE TABLE task_tags (
  workspace_id uuid NOT NULL,
  task_id      uuid NOT NULL,
  tag_id       uuid NOT NULL,
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT task_tags_pkey PRIMARY KEY (workspace_id, task_id, tag_id)
);
CREATE INDEX task_tags_workspace_id_tag_id_idx ON task_tags (workspace_id, tag_id);

CREATE TABLE project_tags (
  workspace_id uuid NOT NULL,
  project_id   uuid NOT NULL,
  tag_id       uuid NOT NULL,
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT project_tags_pkey PRIMARY KEY (workspace_id, project_id, tag_id)
);
CREATE INDEX project_tags_workspace_id_tag_id_idx ON project_tags (workspace_id, tag_id);

CREATE TABLE product_groups (
  workspace_id uuid NOT NULL,
  id           uuid NOT NULL DEFAULT uuidv7(),
  name         text NOT NULL,
  parent_id    uuid,
  revision     integer NOT NULL DEFAULT 1,
  archived_at  timestamptz(3),
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  updated_at   timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT product_groups_pkey PRIMARY KEY (workspace_id, id)
);
CREATE INDEX product_groups_workspace_id_created_at_id_idx ON product_groups (workspace_id, created_at, id);
CREATE INDEX product_groups_workspace_id_archived_at_idx ON product_groups (workspace_id, archived_at);
CREATE INDEX product_groups_workspace_id_parent_id_idx ON product_groups (workspace_id, parent_id);

-- purchase_price is finance data (products:finance:read / :write).
CREATE TABLE products (
  workspace_id     uuid NOT NULL,
  id               uuid NOT NULL DEFAULT uuidv7(),
  name             text NOT NULL,
  description      text,
  sku              text,
  unit             text,
  product_group_id uuid,
  sales_price      numeric(14, 2),
  purchase_price   numeric(14, 2),
  currency         char(3),
  revision         integer NOT NULL DEFAULT 1,
  archived_at      timestamptz(3),
  created_at       timestamptz(3) NOT NULL DEFAULT now(),
  updated_at       timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT products_pkey PRIMARY KEY (workspace_id, id)
);
CREATE INDEX products_workspace_id_created_at_id_idx ON products (workspace_id, created_at, id);
CREATE INDEX products_workspace_id_archived_at_idx ON products (workspace_id, archived_at);
CREATE INDEX products_workspace_id_product_group_id_idx ON products (workspace_id, product_group_id);

-- Project statement (v0: journal entry). `budget` rows and purchase_price are
-- finance data (project-statements:finance:*).
CREATE TABLE project_statements (
  workspace_id   uuid NOT NULL,
  id             uuid NOT NULL DEFAULT uuidv7(),
  project_id     uuid NOT NULL,
  kind           project_statement_kind NOT NULL,
  title          text NOT NULL,
  description    text,
  occurred_on    date NOT NULL,
  quantity       numeric(14, 4),
  amount         numeric(14, 2) NOT NULL,
  purchase_price numeric(14, 2),
  currency       char(3) NOT NULL,
  product_id     uuid,
  service_id     uuid,
  revision       integer NOT NULL DEFAULT 1,
  archived_at    timestamptz(3),
  created_at     timestamptz(3) NOT NULL DEFAULT now(),
  updated_at     timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT project_statements_pkey PRIMARY KEY (workspace_id, id)
);
CREATE INDEX project_statements_workspace_id_created_at_id_idx ON project_statements (workspace_id, created_at, id);
CREATE INDEX project_statements_workspace_id_archived_at_idx ON project_statements (workspace_id, archived_at);
CREATE INDEX project_statements_workspace_id_project_id_kind_idx ON project_statements (workspace_id, project_id, kind);
CREATE INDEX project_statements_workspace_id_product_id_idx ON project_statements (workspace_id, product_id);
CREATE INDEX project_statements_workspace_id_service_id_idx ON project_statements (workspace_id, service_id);

-- `body` holds the template tasks: {"tasks": [...]}.
CREATE TABLE project_templates (
  workspace_id uuid NOT NULL,
  id           uuid NOT NULL DEFAULT uuidv7(),
  name         text NOT NULL,
  description  text,
  body         jsonb NOT NULL DEFAULT '{"tasks":[]}'::jsonb,
  revision     integer NOT NULL DEFAULT 1,
  archived_at  timestamptz(3),
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  updated_at   timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT project_templates_pkey PRIMARY KEY (workspace_id, id)
);
CREATE INDEX project_templates_workspace_id_created_at_id_idx ON project_templates (workspace_id, created_at, id);
CREATE INDEX project_templates_workspace_id_archived_at_idx ON project_templates (workspace_id, archived_at);

-- Planned work (v0: scheduled work): a member's window on a task. Replaced atomically.
CREATE TABLE planned_work (
  workspace_id uuid NOT NULL,
  id           uuid NOT NULL DEFAULT uuidv7(),
  member_id    uuid NOT NULL,
  task_id      uuid NOT NULL,
  window_start timestamptz(3) NOT NULL,
  window_end   timestamptz(3) NOT NULL,
  minutes      integer NOT NULL,
  note         text,
  revision     integer NOT NULL DEFAULT 1,
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  updated_at   timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT planned_work_pkey PRIMARY KEY (workspace_id, id),
  CONSTRAINT planned_work_window_check CHECK (window_end > window_start),
  CONSTRAINT planned_work_minutes_check CHECK (minutes >= 0)
);
CREATE INDEX planned_work_workspace_id_created_at_id_idx ON planned_work (workspace_id, created_at, id);
CREATE INDEX planned_work_workspace_id_task_id_idx ON planned_work (workspace_id, task_id);
CREATE INDEX planned_work_workspace_id_member_id_window_start_idx ON planned_work (workspace_id, member_id, window_start);

-- v0 legacy, unsigned webhook. Separate from v2 subscriptions.
CREATE TABLE legacy_webhooks (
  workspace_id uuid NOT NULL,
  id           uuid NOT NULL DEFAULT uuidv7(),
  url          text NOT NULL,
  events       text[] NOT NULL DEFAULT '{}',
  revision     integer NOT NULL DEFAULT 1,
  archived_at  timestamptz(3),
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  updated_at   timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT legacy_webhooks_pkey PRIMARY KEY (workspace_id, id)
);
CREATE INDEX legacy_webhooks_workspace_id_created_at_id_idx ON legacy_webhooks (workspace_id, created_at, id);

-- v2 signed webhook subscription. The signing secret is needed for HMAC, so it is
-- stored encrypted (envelope encryption, key id), never in clear.
CREATE TABLE webhook_subscriptions (
  workspace_id        uuid NOT NULL,
  id                  uuid NOT NULL DEFAULT uuidv7(),
  url                 text NOT NULL,
  description         text,
  event_types         text[] NOT NULL DEFAULT '{}',
  secret_ciphertext   bytea NOT NULL,
  secret_key_id       text NOT NULL,
  owner_credential_id uuid NOT NULL,
  status              webhook_subscription_status NOT NULL DEFAULT 'active',
  revision            integer NOT NULL DEFAULT 1,
  archived_at         timestamptz(3),
  created_at          timestamptz(3) NOT NULL DEFAULT now(),
  updated_at          timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT webhook_subscriptions_pkey PRIMARY KEY (workspace_id, id)
);
CREATE INDEX webhook_subscriptions_workspace_id_created_at_id_idx ON webhook_subscriptions (workspace_id, created_at, id);
CREATE INDEX webhook_subscriptions_workspace_id_owner_credential_id_idx ON webhook_subscriptions (workspace_id, owner_credential_id);

-- One row per delivery attempt of one outbox event to one subscription.
CREATE TABLE webhook_deliveries (
  workspace_id         uuid NOT NULL,
  id                   uuid NOT NULL DEFAULT uuidv7(),
  subscription_id      uuid NOT NULL,
  owner_credential_id  uuid NOT NULL,
  event_id             uuid NOT NULL,
  event_type           text NOT NULL,
  attempt              integer NOT NULL DEFAULT 1,
  status               webhook_delivery_status NOT NULL DEFAULT 'pending',
  response_status_code integer,
  response_time_ms     integer,
  error                text,
  next_retry_at        timestamptz(3),
  delivered_at         timestamptz(3),
  created_at           timestamptz(3) NOT NULL DEFAULT now(),
  updated_at           timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT webhook_deliveries_pkey PRIMARY KEY (workspace_id, id),
  CONSTRAINT webhook_deliveries_attempt_check CHECK (attempt >= 1)
);
CREATE INDEX webhook_deliveries_owner_credential_created_idx ON webhook_deliveries (workspace_id, owner_credential_id, created_at, id);
CREATE INDEX webhook_deliveries_subscription_created_idx ON webhook_deliveries (workspace_id, subscription_id, created_at, id);
CREATE INDEX webhook_deliveries_next_retry_at_idx ON webhook_deliveries (next_retry_at);
CREATE UNIQUE INDEX webhook_deliveries_subscription_event_attempt_key ON webhook_deliveries (workspace_id, subscription_id, event_id, attempt);

-- Transactional outbox; also serves the v1 change feed. `sequence` is strictly
-- increasing per workspace in commit order: allocate it with
-- next_event_sequence(workspace_id) (SQL function) inside the writing transaction.
CREATE TABLE outbox_events (
  workspace_id   uuid NOT NULL,
  id             uuid NOT NULL DEFAULT uuidv7(),
  sequence       bigint NOT NULL,
  aggregate_type text NOT NULL,
  aggregate_id   uuid NOT NULL,
  event_type     text NOT NULL,
  payload        jsonb NOT NULL,
  occurred_at    timestamptz(3) NOT NULL DEFAULT now(),
  published_at   timestamptz(3),
  CONSTRAINT outbox_events_pkey PRIMARY KEY (workspace_id, id),
  CONSTRAINT outbox_events_sequence_check CHECK (sequence >= 1)
);
CREATE INDEX outbox_events_workspace_id_aggregate_type_aggregate_id_idx ON outbox_events (workspace_id, aggregate_type, aggregate_id);
CREATE UNIQUE INDEX outbox_events_workspace_id_sequence_key ON outbox_events (workspace_id, sequence);
-- SQL-only (allow-listed): the relay scans unpublished events oldest first.
CREATE INDEX outbox_events_unpublished_idx ON outbox_events (occurred_at) WHERE published_at IS NULL;

-- Per-workspace counter behind outbox_events.sequence (row lock = commit order).
CREATE TABLE event_sequence_counters (
  workspace_id  uuid NOT NULL,
  last_sequence bigint NOT NULL DEFAULT '0',
  updated_at    timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT event_sequence_counters_pkey PRIMARY KEY (workspace_id)
);

CREATE TABLE idempotency_records (
  workspace_id        uuid NOT NULL,
  id                  uuid NOT NULL DEFAULT uuidv7(),
  credential_id       uuid NOT NULL,
  key                 text NOT NULL,
  request_fingerprint text NOT NULL,
  state               idempotency_state NOT NULL DEFAULT 'in_progress',
  response_status     integer,
  response_body       jsonb,
  response_headers    jsonb,
  locked_until        timestamptz(3),
  expires_at          timestamptz(3) NOT NULL,
  created_at          timestamptz(3) NOT NULL DEFAULT now(),
  updated_at          timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT idempotency_records_pkey PRIMARY KEY (workspace_id, id)
);
CREATE INDEX idempotency_records_expires_at_idx ON idempotency_records (expires_at);
CREATE UNIQUE INDEX idempotency_records_workspace_id_credential_id_key_key ON idempotency_records (workspace_id, credential_id, key);

-- Developer-platform audit trail. Never contains secrets or verifiers.
CREATE TABLE audit_events (
  workspace_id         uuid NOT NULL,
  id                   uuid NOT NULL DEFAULT uuidv7(),
  actor_credential_id  uuid,
  actor_principal_type principal_type,
  actor_principal_id   uuid,
  action               text NOT NULL,
  target_type          text NOT NULL,
  target_id            text,
  metadata             jsonb NOT NULL DEFAULT '{}'::jsonb,
  ip                   inet,
  request_id           text,
  occurred_at          timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT audit_events_pkey PRIMARY KEY (workspace_id, id)
);
CREATE INDEX audit_events_workspace_id_occurred_at_id_idx ON audit_events (workspace_id, occurred_at, id);
CREATE INDEX audit_events_workspace_id_actor_credential_id_idx ON audit_events (workspace_id, actor_credential_id);
CREATE INDEX audit_events_workspace_id_target_type_target_id_idx ON audit_events (workspace_id, target_type, target_id);

-- Asynchronous project lifecycle operation (projects:lifecycle).
CREATE TABLE project_lifecycle_operations (
  workspace_id               uuid NOT NULL,
  id                         uuid NOT NULL DEFAULT uuidv7(),
  project_id                 uuid NOT NULL,
  kind                       lifecycle_operation_kind NOT NULL,
  status                     operation_status NOT NULL DEFAULT 'queued',
  error                      jsonb,
  requested_by_credential_id uuid,
  started_at                 timestamptz(3),
  finished_at                timestamptz(3),
  created_at                 timestamptz(3) NOT NULL DEFAULT now(),
  updated_at                 timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT project_lifecycle_operations_pkey PRIMARY KEY (workspace_id, id)
);
CREATE INDEX project_lifecycle_operations_workspace_id_created_at_id_idx ON project_lifecycle_operations (workspace_id, created_at, id);
CREATE INDEX project_lifecycle_operations_project_created_idx ON project_lifecycle_operations (workspace_id, project_id, created_at);
-- SQL-only (allow-listed): at most one queued/running lifecycle operation per project.
CREATE UNIQUE INDEX project_lifecycle_operations_one_active_key ON project_lifecycle_operations (workspace_id, project_id) WHERE status IN ('queued', 'running');

-- Project sharing ACE: exactly one of member_id / group_id (CHECK in SQL).
CREATE TABLE project_access_entries (
  workspace_id uuid NOT NULL,
  id           uuid NOT NULL DEFAULT uuidv7(),
  project_id   uuid NOT NULL,
  member_id    uuid,
  group_id     uuid,
  access       project_access_level NOT NULL,
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT project_access_entries_pkey PRIMARY KEY (workspace_id, id),
  CONSTRAINT project_access_entries_principal_xor_check CHECK ((member_id IS NULL) <> (group_id IS NULL))
);
CREATE INDEX project_access_entries_workspace_id_member_id_idx ON project_access_entries (workspace_id, member_id);
CREATE INDEX project_access_entries_workspace_id_group_id_idx ON project_access_entries (workspace_id, group_id);
CREATE UNIQUE INDEX project_access_entries_workspace_id_project_id_member_id_key ON project_access_entries (workspace_id, project_id, member_id);
CREATE UNIQUE INDEX project_access_entries_workspace_id_project_id_group_id_key ON project_access_entries (workspace_id, project_id, group_id);

CREATE TABLE task_recurrences (
  workspace_id       uuid NOT NULL,
  id                 uuid NOT NULL DEFAULT uuidv7(),
  task_id            uuid NOT NULL,
  rule               text NOT NULL,
  timezone           text NOT NULL,
  next_occurrence_at timestamptz(3),
  last_occurrence_at timestamptz(3),
  state              recurrence_state NOT NULL DEFAULT 'active',
  revision           integer NOT NULL DEFAULT 1,
  archived_at        timestamptz(3),
  created_at         timestamptz(3) NOT NULL DEFAULT now(),
  updated_at         timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT task_recurrences_pkey PRIMARY KEY (workspace_id, id)
);
CREATE INDEX task_recurrences_workspace_id_created_at_id_idx ON task_recurrences (workspace_id, created_at, id);
CREATE INDEX task_recurrences_workspace_id_task_id_idx ON task_recurrences (workspace_id, task_id);
CREATE INDEX task_recurrences_next_occurrence_at_idx ON task_recurrences (next_occurrence_at);

CREATE TABLE custom_field_definitions (
  workspace_id uuid NOT NULL,
  id           uuid NOT NULL DEFAULT uuidv7(),
  target_type  custom_field_target_type NOT NULL,
  name         text NOT NULL,
  field_type   custom_field_type NOT NULL,
  config       jsonb NOT NULL DEFAULT '{}'::jsonb,
  position     integer NOT NULL DEFAULT 0,
  revision     integer NOT NULL DEFAULT 1,
  archived_at  timestamptz(3),
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  updated_at   timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT custom_field_definitions_pkey PRIMARY KEY (workspace_id, id)
);
CREATE INDEX custom_field_definitions_workspace_id_created_at_id_idx ON custom_field_definitions (workspace_id, created_at, id);
CREATE INDEX custom_field_definitions_target_type_archived_idx ON custom_field_definitions (workspace_id, target_type, archived_at);

CREATE TABLE custom_field_values (
  workspace_id  uuid NOT NULL,
  id            uuid NOT NULL DEFAULT uuidv7(),
  definition_id uuid NOT NULL,
  target_type   custom_field_target_type NOT NULL,
  target_id     uuid NOT NULL,
  value         jsonb NOT NULL,
  revision      integer NOT NULL DEFAULT 1,
  created_at    timestamptz(3) NOT NULL DEFAULT now(),
  updated_at    timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT custom_field_values_pkey PRIMARY KEY (workspace_id, id)
);
CREATE INDEX custom_field_values_workspace_id_target_type_target_id_idx ON custom_field_values (workspace_id, target_type, target_id);
CREATE UNIQUE INDEX custom_field_values_workspace_id_definition_id_target_id_key ON custom_field_values (workspace_id, definition_id, target_id);

CREATE TABLE appointments (
  workspace_id uuid NOT NULL,
  id           uuid NOT NULL DEFAULT uuidv7(),
  member_id    uuid NOT NULL,
  title        text NOT NULL,
  description  text,
  location     text,
  starts_at    timestamptz(3) NOT NULL,
  ends_at      timestamptz(3) NOT NULL,
  all_day      boolean NOT NULL DEFAULT false,
  is_private   boolean NOT NULL DEFAULT false,
  contact_id   uuid,
  project_id   uuid,
  revision     integer NOT NULL DEFAULT 1,
  archived_at  timestamptz(3),
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  updated_at   timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT appointments_pkey PRIMARY KEY (workspace_id, id),
  CONSTRAINT appointments_ends_after_starts_check CHECK (ends_at >= starts_at)
);
CREATE INDEX appointments_workspace_id_created_at_id_idx ON appointments (workspace_id, created_at, id);
CREATE INDEX appointments_workspace_id_member_id_starts_at_idx ON appointments (workspace_id, member_id, starts_at);

CREATE TABLE absences (
  workspace_id uuid NOT NULL,
  id           uuid NOT NULL DEFAULT uuidv7(),
  member_id    uuid NOT NULL,
  kind         absence_kind NOT NULL,
  starts_on    date NOT NULL,
  ends_on      date NOT NULL,
  note         text,
  revision     integer NOT NULL DEFAULT 1,
  archived_at  timestamptz(3),
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  updated_at   timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT absences_pkey PRIMARY KEY (workspace_id, id),
  CONSTRAINT absences_ends_after_starts_check CHECK (ends_on >= starts_on)
);
CREATE INDEX absences_workspace_id_created_at_id_idx ON absences (workspace_id, created_at, id);
CREATE INDEX absences_workspace_id_member_id_starts_on_idx ON absences (workspace_id, member_id, starts_on);

-- Comment on a contact, project or task; authored by a member or a service account.
CREATE TABLE comments (
  workspace_id              uuid NOT NULL,
  id                        uuid NOT NULL DEFAULT uuidv7(),
  target_type               comment_target_type NOT NULL,
  target_id                 uuid NOT NULL,
  author_member_id          uuid,
  author_service_account_id uuid,
  body                      text NOT NULL,
  revision                  integer NOT NULL DEFAULT 1,
  archived_at               timestamptz(3),
  created_at                timestamptz(3) NOT NULL DEFAULT now(),
  updated_at                timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT comments_pkey PRIMARY KEY (workspace_id, id),
  CONSTRAINT comments_single_author_check CHECK (author_member_id IS NULL OR author_service_account_id IS NULL)
);
CREATE INDEX comments_workspace_id_created_at_id_idx ON comments (workspace_id, created_at, id);
CREATE INDEX comments_workspace_id_target_type_target_id_created_at_idx ON comments (workspace_id, target_type, target_id, created_at);

-- Bounded document content (CHECK char_length(content) <= 1000000 in SQL).
CREATE TABLE documents (
  workspace_id uuid NOT NULL,
  id           uuid NOT NULL DEFAULT uuidv7(),
  title        text NOT NULL,
  content      text NOT NULL DEFAULT '',
  project_id   uuid,
  revision     integer NOT NULL DEFAULT 1,
  archived_at  timestamptz(3),
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  updated_at   timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT documents_pkey PRIMARY KEY (workspace_id, id),
  CONSTRAINT documents_content_length_check CHECK (char_length(content) <= 1000000)
);
CREATE INDEX documents_workspace_id_created_at_id_idx ON documents (workspace_id, created_at, id);
CREATE INDEX documents_workspace_id_archived_at_idx ON documents (workspace_id, archived_at);
CREATE INDEX documents_workspace_id_project_id_idx ON documents (workspace_id, project_id);

CREATE TABLE files (
  workspace_id uuid NOT NULL,
  id           uuid NOT NULL DEFAULT uuidv7(),
  name         text NOT NULL,
  size_bytes   bigint NOT NULL,
  content_type text NOT NULL,
  storage_key  text NOT NULL,
  status       file_status NOT NULL DEFAULT 'pending',
  revision     integer NOT NULL DEFAULT 1,
  archived_at  timestamptz(3),
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  updated_at   timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT files_pkey PRIMARY KEY (workspace_id, id),
  CONSTRAINT files_size_check CHECK (size_bytes >= 0)
);
CREATE INDEX files_workspace_id_created_at_id_idx ON files (workspace_id, created_at, id);
CREATE INDEX files_workspace_id_archived_at_idx ON files (workspace_id, archived_at);
CREATE UNIQUE INDEX files_workspace_id_storage_key_key ON files (workspace_id, storage_key);

-- Short-lived private upload intent; after expires_at uploads get 410.
CREATE TABLE file_upload_reservations (
  workspace_id             uuid NOT NULL,
  id                       uuid NOT NULL DEFAULT uuidv7(),
  file_id                  uuid NOT NULL,
  status                   upload_reservation_status NOT NULL DEFAULT 'pending',
  expires_at               timestamptz(3) NOT NULL,
  completed_at             timestamptz(3),
  created_by_credential_id uuid,
  created_at               timestamptz(3) NOT NULL DEFAULT now(),
  updated_at               timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT file_upload_reservations_pkey PRIMARY KEY (workspace_id, id)
);
CREATE INDEX file_upload_reservations_workspace_id_file_id_idx ON file_upload_reservations (workspace_id, file_id);
CREATE INDEX file_upload_reservations_expires_at_idx ON file_upload_reservations (expires_at);

CREATE TABLE invitations (
  workspace_id         uuid NOT NULL,
  id                   uuid NOT NULL DEFAULT uuidv7(),
  email                text NOT NULL,
  role_id              uuid NOT NULL,
  status               invitation_status NOT NULL DEFAULT 'pending',
  expires_at           timestamptz(3) NOT NULL,
  invited_by_member_id uuid,
  accepted_member_id   uuid,
  accepted_at          timestamptz(3),
  revision             integer NOT NULL DEFAULT 1,
  created_at           timestamptz(3) NOT NULL DEFAULT now(),
  updated_at           timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT invitations_pkey PRIMARY KEY (workspace_id, id)
);
CREATE INDEX invitations_workspace_id_created_at_id_idx ON invitations (workspace_id, created_at, id);
CREATE INDEX invitations_workspace_id_email_idx ON invitations (workspace_id, email);
-- SQL-only (allow-listed): at most one pending invitation per email address.
CREATE UNIQUE INDEX invitations_one_pending_per_email_key ON invitations (workspace_id, email) WHERE status = 'pending';

CREATE TABLE exports (
  workspace_id               uuid NOT NULL,
  id                         uuid NOT NULL DEFAULT uuidv7(),
  status                     export_status NOT NULL DEFAULT 'queued',
  resource_types             resource_type[] NOT NULL,
  file_id                    uuid,
  requested_by_credential_id uuid,
  error                      jsonb,
  started_at                 timestamptz(3),
  finished_at                timestamptz(3),
  expires_at                 timestamptz(3),
  created_at                 timestamptz(3) NOT NULL DEFAULT now(),
  updated_at                 timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT exports_pkey PRIMARY KEY (workspace_id, id)
);
CREATE INDEX exports_workspace_id_created_at_id_idx ON exports (workspace_id, created_at, id);

CREATE TABLE automation_definitions (
  workspace_id uuid NOT NULL,
  id           uuid NOT NULL DEFAULT uuidv7(),
  name         text NOT NULL,
  description  text,
  enabled      boolean NOT NULL DEFAULT false,
  revision     integer NOT NULL DEFAULT 1,
  archived_at  timestamptz(3),
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  updated_at   timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT automation_definitions_pkey PRIMARY KEY (workspace_id, id)
);
CREATE INDEX automation_definitions_workspace_id_created_at_id_idx ON automation_definitions (workspace_id, created_at, id);
CREATE INDEX automation_definitions_workspace_id_archived_at_idx ON automation_definitions (workspace_id, archived_at);

-- Immutable version of an automation flow (trigger + actions).
CREATE TABLE automation_versions (
  workspace_id             uuid NOT NULL,
  id                       uuid NOT NULL DEFAULT uuidv7(),
  definition_id            uuid NOT NULL,
  version                  integer NOT NULL,
  body                     jsonb NOT NULL,
  created_by_credential_id uuid,
  created_at               timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT automation_versions_pkey PRIMARY KEY (workspace_id, id),
  CONSTRAINT automation_versions_version_check CHECK (version >= 1)
);
CREATE UNIQUE INDEX automation_versions_workspace_id_definition_id_version_key ON automation_versions (workspace_id, definition_id, version);

CREATE TABLE automation_runs (
  workspace_id             uuid NOT NULL,
  id                       uuid NOT NULL DEFAULT uuidv7(),
  definition_id            uuid NOT NULL,
  version_id               uuid NOT NULL,
  status                   automation_run_status NOT NULL DEFAULT 'queued',
  input                    jsonb,
  error                    jsonb,
  started_at               timestamptz(3),
  finished_at              timestamptz(3),
  aborted_at               timestamptz(3),
  aborted_by_credential_id uuid,
  created_at               timestamptz(3) NOT NULL DEFAULT now(),
  updated_at               timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT automation_runs_pkey PRIMARY KEY (workspace_id, id)
);
CREATE INDEX automation_runs_workspace_id_created_at_id_idx ON automation_runs (workspace_id, created_at, id);
CREATE INDEX automation_runs_workspace_id_definition_id_created_at_idx ON automation_runs (workspace_id, definition_id, created_at);
CREATE INDEX automation_runs_workspace_id_version_id_idx ON automation_runs (workspace_id, version_id);

-- Installed integration. Provider secrets only as ciphertext (never in clear).
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

-- The six-field safe settings projection; one row per workspace; `revision` for compare-and-set.
CREATE TABLE workspace_settings (
  workspace_id          uuid NOT NULL,
  timezone              text NOT NULL DEFAULT 'UTC',
  locale                text NOT NULL DEFAULT 'en',
  currency              char(3) NOT NULL DEFAULT 'EUR',
  week_start_day        smallint NOT NULL DEFAULT 1,
  date_format           text NOT NULL DEFAULT 'YYYY-MM-DD',
  time_rounding_minutes integer NOT NULL DEFAULT 0,
  revision              integer NOT NULL DEFAULT 1,
  created_at            timestamptz(3) NOT NULL DEFAULT now(),
  updated_at            timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT workspace_settings_pkey PRIMARY KEY (workspace_id),
  CONSTRAINT workspace_settings_week_start_day_check CHECK (week_start_day BETWEEN 0 AND 6),
  CONSTRAINT workspace_settings_time_rounding_check CHECK (time_rounding_minutes >= 0)
);

-- Foreign keys (composite: every tenant FK carries workspace_id)
ALTER TABLE credential_lookups ADD CONSTRAINT credential_lookups_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE workspace_members ADD CONSTRAINT workspace_members_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE workspace_members ADD CONSTRAINT workspace_members_user_id_fkey
  FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE roles ADD CONSTRAINT roles_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE member_roles ADD CONSTRAINT member_roles_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE member_roles ADD CONSTRAINT member_roles_workspace_id_member_id_fkey
  FOREIGN KEY (workspace_id, member_id) REFERENCES workspace_members (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE member_roles ADD CONSTRAINT member_roles_workspace_id_role_id_fkey
  FOREIGN KEY (workspace_id, role_id) REFERENCES roles (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE groups ADD CONSTRAINT groups_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE group_members ADD CONSTRAINT group_members_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE group_members ADD CONSTRAINT group_members_workspace_id_group_id_fkey
  FOREIGN KEY (workspace_id, group_id) REFERENCES groups (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE group_members ADD CONSTRAINT group_members_workspace_id_member_id_fkey
  FOREIGN KEY (workspace_id, member_id) REFERENCES workspace_members (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE team_tokens ADD CONSTRAINT team_tokens_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE team_tokens ADD CONSTRAINT team_tokens_workspace_id_created_by_member_id_fkey
  FOREIGN KEY (workspace_id, created_by_member_id) REFERENCES workspace_members (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE service_accounts ADD CONSTRAINT service_accounts_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE service_accounts ADD CONSTRAINT service_accounts_workspace_id_owner_member_id_fkey
  FOREIGN KEY (workspace_id, owner_member_id) REFERENCES workspace_members (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE credentials ADD CONSTRAINT credentials_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE credentials ADD CONSTRAINT credentials_workspace_id_member_id_fkey
  FOREIGN KEY (workspace_id, member_id) REFERENCES workspace_members (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE credentials ADD CONSTRAINT credentials_workspace_id_service_account_id_fkey
  FOREIGN KEY (workspace_id, service_account_id) REFERENCES service_accounts (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE credentials ADD CONSTRAINT credentials_workspace_id_rotated_from_id_fkey
  FOREIGN KEY (workspace_id, rotated_from_id) REFERENCES credentials (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE resource_grants ADD CONSTRAINT resource_grants_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE resource_grants ADD CONSTRAINT resource_grants_workspace_id_service_account_id_fkey
  FOREIGN KEY (workspace_id, service_account_id) REFERENCES service_accounts (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE calendar_feed_tokens ADD CONSTRAINT calendar_feed_tokens_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE calendar_feed_tokens ADD CONSTRAINT calendar_feed_tokens_workspace_id_member_id_fkey
  FOREIGN KEY (workspace_id, member_id) REFERENCES workspace_members (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE lists ADD CONSTRAINT lists_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE projects ADD CONSTRAINT projects_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE projects ADD CONSTRAINT projects_workspace_id_contact_id_fkey
  FOREIGN KEY (workspace_id, contact_id) REFERENCES contacts (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE projects ADD CONSTRAINT projects_workspace_id_list_id_fkey
  FOREIGN KEY (workspace_id, list_id) REFERENCES lists (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE tasks ADD CONSTRAINT tasks_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE tasks ADD CONSTRAINT tasks_workspace_id_project_id_fkey
  FOREIGN KEY (workspace_id, project_id) REFERENCES projects (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE tasks ADD CONSTRAINT tasks_workspace_id_list_id_fkey
  FOREIGN KEY (workspace_id, list_id) REFERENCES lists (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE tasks ADD CONSTRAINT tasks_workspace_id_assignee_member_id_fkey
  FOREIGN KEY (workspace_id, assignee_member_id) REFERENCES workspace_members (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE time_entries ADD CONSTRAINT time_entries_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE time_entries ADD CONSTRAINT time_entries_workspace_id_member_id_fkey
  FOREIGN KEY (workspace_id, member_id) REFERENCES workspace_members (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE time_entries ADD CONSTRAINT time_entries_workspace_id_project_id_fkey
  FOREIGN KEY (workspace_id, project_id) REFERENCES projects (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE time_entries ADD CONSTRAINT time_entries_workspace_id_task_id_fkey
  FOREIGN KEY (workspace_id, task_id) REFERENCES tasks (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE time_entries ADD CONSTRAINT time_entries_workspace_id_service_id_fkey
  FOREIGN KEY (workspace_id, service_id) REFERENCES services (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE contact_groups ADD CONSTRAINT contact_groups_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE contact_groups ADD CONSTRAINT contact_groups_workspace_id_parent_id_fkey
  FOREIGN KEY (workspace_id, parent_id) REFERENCES contact_groups (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE contacts ADD CONSTRAINT contacts_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE contacts ADD CONSTRAINT contacts_workspace_id_contact_group_id_fkey
  FOREIGN KEY (workspace_id, contact_group_id) REFERENCES contact_groups (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE call_notes ADD CONSTRAINT call_notes_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE call_notes ADD CONSTRAINT call_notes_workspace_id_contact_id_fkey
  FOREIGN KEY (workspace_id, contact_id) REFERENCES contacts (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE call_notes ADD CONSTRAINT call_notes_workspace_id_project_id_fkey
  FOREIGN KEY (workspace_id, project_id) REFERENCES projects (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE call_notes ADD CONSTRAINT call_notes_workspace_id_author_member_id_fkey
  FOREIGN KEY (workspace_id, author_member_id) REFERENCES workspace_members (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE services ADD CONSTRAINT services_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE tags ADD CONSTRAINT tags_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE task_tags ADD CONSTRAINT task_tags_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE task_tags ADD CONSTRAINT task_tags_workspace_id_task_id_fkey
  FOREIGN KEY (workspace_id, task_id) REFERENCES tasks (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE task_tags ADD CONSTRAINT task_tags_workspace_id_tag_id_fkey
  FOREIGN KEY (workspace_id, tag_id) REFERENCES tags (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE project_tags ADD CONSTRAINT project_tags_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE project_tags ADD CONSTRAINT project_tags_workspace_id_project_id_fkey
  FOREIGN KEY (workspace_id, project_id) REFERENCES projects (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE project_tags ADD CONSTRAINT project_tags_workspace_id_tag_id_fkey
  FOREIGN KEY (workspace_id, tag_id) REFERENCES tags (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE product_groups ADD CONSTRAINT product_groups_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE product_groups ADD CONSTRAINT product_groups_workspace_id_parent_id_fkey
  FOREIGN KEY (workspace_id, parent_id) REFERENCES product_groups (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE products ADD CONSTRAINT products_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE products ADD CONSTRAINT products_workspace_id_product_group_id_fkey
  FOREIGN KEY (workspace_id, product_group_id) REFERENCES product_groups (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE project_statements ADD CONSTRAINT project_statements_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE project_statements ADD CONSTRAINT project_statements_workspace_id_project_id_fkey
  FOREIGN KEY (workspace_id, project_id) REFERENCES projects (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE project_statements ADD CONSTRAINT project_statements_workspace_id_product_id_fkey
  FOREIGN KEY (workspace_id, product_id) REFERENCES products (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE project_statements ADD CONSTRAINT project_statements_workspace_id_service_id_fkey
  FOREIGN KEY (workspace_id, service_id) REFERENCES services (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE project_templates ADD CONSTRAINT project_templates_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE planned_work ADD CONSTRAINT planned_work_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE planned_work ADD CONSTRAINT planned_work_workspace_id_member_id_fkey
  FOREIGN KEY (workspace_id, member_id) REFERENCES workspace_members (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE planned_work ADD CONSTRAINT planned_work_workspace_id_task_id_fkey
  FOREIGN KEY (workspace_id, task_id) REFERENCES tasks (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE legacy_webhooks ADD CONSTRAINT legacy_webhooks_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE webhook_subscriptions ADD CONSTRAINT webhook_subscriptions_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE webhook_subscriptions ADD CONSTRAINT webhook_subscriptions_workspace_id_owner_credential_id_fkey
  FOREIGN KEY (workspace_id, owner_credential_id) REFERENCES credentials (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_workspace_id_subscription_id_fkey
  FOREIGN KEY (workspace_id, subscription_id) REFERENCES webhook_subscriptions (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_workspace_id_owner_credential_id_fkey
  FOREIGN KEY (workspace_id, owner_credential_id) REFERENCES credentials (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_workspace_id_event_id_fkey
  FOREIGN KEY (workspace_id, event_id) REFERENCES outbox_events (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE outbox_events ADD CONSTRAINT outbox_events_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE event_sequence_counters ADD CONSTRAINT event_sequence_counters_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE idempotency_records ADD CONSTRAINT idempotency_records_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE idempotency_records ADD CONSTRAINT idempotency_records_workspace_id_credential_id_fkey
  FOREIGN KEY (workspace_id, credential_id) REFERENCES credentials (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE audit_events ADD CONSTRAINT audit_events_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE audit_events ADD CONSTRAINT audit_events_workspace_id_actor_credential_id_fkey
  FOREIGN KEY (workspace_id, actor_credential_id) REFERENCES credentials (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE project_lifecycle_operations ADD CONSTRAINT project_lifecycle_operations_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE project_lifecycle_operations ADD CONSTRAINT project_lifecycle_operations_workspace_id_project_id_fkey
  FOREIGN KEY (workspace_id, project_id) REFERENCES projects (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE project_lifecycle_operations ADD CONSTRAINT project_lifecycle_operations_requested_by_credential_fkey
  FOREIGN KEY (workspace_id, requested_by_credential_id) REFERENCES credentials (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE project_access_entries ADD CONSTRAINT project_access_entries_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE project_access_entries ADD CONSTRAINT project_access_entries_workspace_id_project_id_fkey
  FOREIGN KEY (workspace_id, project_id) REFERENCES projects (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE project_access_entries ADD CONSTRAINT project_access_entries_workspace_id_member_id_fkey
  FOREIGN KEY (workspace_id, member_id) REFERENCES workspace_members (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE project_access_entries ADD CONSTRAINT project_access_entries_workspace_id_group_id_fkey
  FOREIGN KEY (workspace_id, group_id) REFERENCES groups (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE task_recurrences ADD CONSTRAINT task_recurrences_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE task_recurrences ADD CONSTRAINT task_recurrences_workspace_id_task_id_fkey
  FOREIGN KEY (workspace_id, task_id) REFERENCES tasks (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE custom_field_definitions ADD CONSTRAINT custom_field_definitions_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE custom_field_values ADD CONSTRAINT custom_field_values_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE custom_field_values ADD CONSTRAINT custom_field_values_workspace_id_definition_id_fkey
  FOREIGN KEY (workspace_id, definition_id) REFERENCES custom_field_definitions (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE appointments ADD CONSTRAINT appointments_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE appointments ADD CONSTRAINT appointments_workspace_id_member_id_fkey
  FOREIGN KEY (workspace_id, member_id) REFERENCES workspace_members (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE appointments ADD CONSTRAINT appointments_workspace_id_contact_id_fkey
  FOREIGN KEY (workspace_id, contact_id) REFERENCES contacts (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE appointments ADD CONSTRAINT appointments_workspace_id_project_id_fkey
  FOREIGN KEY (workspace_id, project_id) REFERENCES projects (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE absences ADD CONSTRAINT absences_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE absences ADD CONSTRAINT absences_workspace_id_member_id_fkey
  FOREIGN KEY (workspace_id, member_id) REFERENCES workspace_members (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE comments ADD CONSTRAINT comments_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE comments ADD CONSTRAINT comments_workspace_id_author_member_id_fkey
  FOREIGN KEY (workspace_id, author_member_id) REFERENCES workspace_members (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE comments ADD CONSTRAINT comments_workspace_id_author_service_account_id_fkey
  FOREIGN KEY (workspace_id, author_service_account_id) REFERENCES service_accounts (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE documents ADD CONSTRAINT documents_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE documents ADD CONSTRAINT documents_workspace_id_project_id_fkey
  FOREIGN KEY (workspace_id, project_id) REFERENCES projects (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE files ADD CONSTRAINT files_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE file_upload_reservations ADD CONSTRAINT file_upload_reservations_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE file_upload_reservations ADD CONSTRAINT file_upload_reservations_workspace_id_file_id_fkey
  FOREIGN KEY (workspace_id, file_id) REFERENCES files (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE file_upload_reservations ADD CONSTRAINT file_upload_reservations_created_by_credential_fkey
  FOREIGN KEY (workspace_id, created_by_credential_id) REFERENCES credentials (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE invitations ADD CONSTRAINT invitations_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE invitations ADD CONSTRAINT invitations_workspace_id_role_id_fkey
  FOREIGN KEY (workspace_id, role_id) REFERENCES roles (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE invitations ADD CONSTRAINT invitations_workspace_id_invited_by_member_id_fkey
  FOREIGN KEY (workspace_id, invited_by_member_id) REFERENCES workspace_members (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE invitations ADD CONSTRAINT invitations_workspace_id_accepted_member_id_fkey
  FOREIGN KEY (workspace_id, accepted_member_id) REFERENCES workspace_members (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE exports ADD CONSTRAINT exports_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE exports ADD CONSTRAINT exports_workspace_id_file_id_fkey
  FOREIGN KEY (workspace_id, file_id) REFERENCES files (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE exports ADD CONSTRAINT exports_workspace_id_requested_by_credential_id_fkey
  FOREIGN KEY (workspace_id, requested_by_credential_id) REFERENCES credentials (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE automation_definitions ADD CONSTRAINT automation_definitions_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE automation_versions ADD CONSTRAINT automation_versions_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE automation_versions ADD CONSTRAINT automation_versions_workspace_id_definition_id_fkey
  FOREIGN KEY (workspace_id, definition_id) REFERENCES automation_definitions (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE automation_versions ADD CONSTRAINT automation_versions_workspace_id_created_by_credential_id_fkey
  FOREIGN KEY (workspace_id, created_by_credential_id) REFERENCES credentials (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE automation_runs ADD CONSTRAINT automation_runs_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE automation_runs ADD CONSTRAINT automation_runs_workspace_id_definition_id_fkey
  FOREIGN KEY (workspace_id, definition_id) REFERENCES automation_definitions (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE automation_runs ADD CONSTRAINT automation_runs_workspace_id_version_id_fkey
  FOREIGN KEY (workspace_id, version_id) REFERENCES automation_versions (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE automation_runs ADD CONSTRAINT automation_runs_workspace_id_aborted_by_credential_id_fkey
  FOREIGN KEY (workspace_id, aborted_by_credential_id) REFERENCES credentials (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE integrations ADD CONSTRAINT integrations_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE workspace_settings ADD CONSTRAINT workspace_settings_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;

-- Allocates the next outbox_events.sequence for a workspace. The counter row stays
-- locked until the calling transaction ends, so sequences become visible in commit
-- order and the change feed never skips an event that commits late.
CREATE FUNCTION next_event_sequence(p_workspace_id uuid) RETURNS bigint
LANGUAGE sql VOLATILE AS $$
  INSERT INTO event_sequence_counters AS c (workspace_id, last_sequence, updated_at)
  VALUES (p_workspace_id, 1, now())
  ON CONFLICT (workspace_id)
  DO UPDATE SET last_sequence = c.last_sequence + 1, updated_at = now()
  RETURNING last_sequence;
$$;

-- migrate:down
DROP FUNCTION next_event_sequence(uuid);

-- One statement, so foreign keys between the dropped tables need no CASCADE.
DROP TABLE
  workspace_settings,
  integrations,
  automation_runs,
  automation_versions,
  automation_definitions,
  exports,
  invitations,
  file_upload_reservations,
  files,
  documents,
  comments,
  absences,
  appointments,
  custom_field_values,
  custom_field_definitions,
  task_recurrences,
  project_access_entries,
  project_lifecycle_operations,
  audit_events,
  idempotency_records,
  event_sequence_counters,
  outbox_events,
  webhook_deliveries,
  webhook_subscriptions,
  legacy_webhooks,
  planned_work,
  project_templates,
  project_statements,
  products,
  product_groups,
  project_tags,
  task_tags,
  tags,
  services,
  call_notes,
  contacts,
  contact_groups,
  time_entries,
  tasks,
  projects,
  lists,
  calendar_feed_tokens,
  resource_grants,
  credentials,
  service_accounts,
  team_tokens,
  group_members,
  groups,
  member_roles,
  roles,
  workspace_members,
  credential_lookups,
  users,
  workspaces;

DROP TYPE
  integration_status,
  automation_run_status,
  export_status,
  invitation_status,
  upload_reservation_status,
  file_status,
  comment_target_type,
  absence_kind,
  custom_field_type,
  custom_field_target_type,
  recurrence_state,
  project_access_level,
  operation_status,
  lifecycle_operation_kind,
  idempotency_state,
  webhook_delivery_status,
  webhook_subscription_status,
  project_statement_kind,
  contact_kind,
  task_status,
  list_kind,
  project_status,
  resource_access,
  resource_type,
  principal_type,
  lookup_token_type,
  credential_status,
  credential_kind,
  service_account_status,
  member_status;

DROP FUNCTION uuidv7();
