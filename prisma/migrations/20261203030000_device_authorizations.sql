-- migrate:up

-- Device login for the CLI (RFC 8628; docs/authentication.md "Device login"). A device authorization is global like
-- the person who approves it (a Citus reference table, like sessions). Only hashes of its two codes are stored: the
-- device code (256 random bits, the CLI's secret) and the user code (eight letters the person types on /device).
-- The person's choices are stored at approval; the token itself is minted when the CLI redeems the approval
-- (redeemed_at set once, by the redeeming transaction that holds the row), so its secret is never stored.
CREATE TABLE device_authorizations (
  id                    uuid NOT NULL DEFAULT uuidv7(),
  device_code_hash      bytea NOT NULL,
  user_code_hash        bytea NOT NULL,
  client_id             text NOT NULL,
  requested_scopes      text[] NOT NULL DEFAULT '{}',
  created_at            timestamptz(3) NOT NULL DEFAULT now(),
  expires_at            timestamptz(3) NOT NULL,
  poll_interval_seconds integer NOT NULL,
  last_polled_at        timestamptz(3),
  user_id               uuid,
  approved_workspace_id uuid,
  token_name            text,
  scopes                text[] NOT NULL DEFAULT '{}',
  token_expires_at      timestamptz(3),
  approved_at           timestamptz(3),
  denied_at             timestamptz(3),
  redeemed_at           timestamptz(3),
  credential_id         uuid,
  CONSTRAINT device_authorizations_pkey PRIMARY KEY (id),
  CONSTRAINT device_authorizations_user_id_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE RESTRICT ON UPDATE RESTRICT,
  CONSTRAINT device_authorizations_expiry_check CHECK (expires_at > created_at),
  CONSTRAINT device_authorizations_interval_check CHECK (poll_interval_seconds BETWEEN 1 AND 600),
  CONSTRAINT device_authorizations_decision_check CHECK (approved_at IS NULL OR denied_at IS NULL),
  CONSTRAINT device_authorizations_approval_check CHECK (approved_at IS NULL OR (user_id IS NOT NULL AND approved_workspace_id IS NOT NULL AND token_name IS NOT NULL AND token_expires_at IS NOT NULL)),
  CONSTRAINT device_authorizations_redeemed_check CHECK (redeemed_at IS NULL OR (approved_at IS NOT NULL AND credential_id IS NOT NULL))
);
CREATE UNIQUE INDEX device_authorizations_device_code_hash_key ON device_authorizations (device_code_hash);
CREATE UNIQUE INDEX device_authorizations_user_code_hash_key ON device_authorizations (user_code_hash);
CREATE INDEX device_authorizations_user_id_idx ON device_authorizations (user_id);

-- migrate:down

DROP TABLE device_authorizations;
