-- migrate:up

-- Sign-in by e-mail link and browser sessions (docs/authentication.md "Signing in"). Users are global (no
-- workspace), so both tables are global and keyed by user: Citus reference tables, like users.

-- A single-use sign-in link: only the SHA-256 of its random token is stored; used once (used_at set by a
-- compare-and-set UPDATE), valid until expires_at (15 minutes).
CREATE TABLE sign_in_links (
  id         uuid NOT NULL DEFAULT uuidv7(),
  user_id    uuid NOT NULL,
  token_hash bytea NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  expires_at timestamptz(3) NOT NULL,
  used_at    timestamptz(3),
  CONSTRAINT sign_in_links_pkey PRIMARY KEY (id),
  CONSTRAINT sign_in_links_user_id_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE RESTRICT ON UPDATE RESTRICT,
  CONSTRAINT sign_in_links_expiry_check CHECK (expires_at > created_at)
);
CREATE UNIQUE INDEX sign_in_links_token_hash_key ON sign_in_links (token_hash);
CREATE INDEX sign_in_links_user_id_created_at_idx ON sign_in_links (user_id, created_at);

-- A browser session: only the SHA-256 of its random id (the cookie) is stored. It ends at the first of: idle for
-- the idle lifetime (last_seen_at), the absolute expires_at, or revoked_at (sign out, sign out everywhere).
CREATE TABLE sessions (
  id           uuid NOT NULL DEFAULT uuidv7(),
  user_id      uuid NOT NULL,
  id_hash      bytea NOT NULL,
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  last_seen_at timestamptz(3) NOT NULL DEFAULT now(),
  expires_at   timestamptz(3) NOT NULL,
  revoked_at   timestamptz(3),
  CONSTRAINT sessions_pkey PRIMARY KEY (id),
  CONSTRAINT sessions_user_id_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE RESTRICT ON UPDATE RESTRICT,
  CONSTRAINT sessions_expiry_check CHECK (expires_at > created_at)
);
CREATE UNIQUE INDEX sessions_id_hash_key ON sessions (id_hash);
CREATE INDEX sessions_user_id_created_at_idx ON sessions (user_id, created_at);

-- migrate:down

DROP TABLE sessions;
DROP TABLE sign_in_links;
