-- migrate:up

-- The sign-in e-mail is sent by the worker (docs/authentication.md "Signing in"): POST /sign-in commits a link
-- whose mail is due, and the worker claims due links (FOR UPDATE SKIP LOCKED), draws the token, stores its SHA-256
-- and mails it in one transaction. The table is the queue, so an answered request survives a Redis outage.

-- NULL until the worker has mailed the link (the token exists only in the e-mail).
ALTER TABLE sign_in_links ALTER COLUMN token_hash DROP NOT NULL;
-- When the next attempt to mail the link is due; NULL once it is mailed. Links answered before this migration
-- were mailed by the auth service itself.
ALTER TABLE sign_in_links ADD COLUMN mail_due_at timestamptz(3);
-- Attempts to mail it so far (the retry delay grows with them).
ALTER TABLE sign_in_links ADD COLUMN mail_attempts integer NOT NULL DEFAULT 0;
ALTER TABLE sign_in_links ADD CONSTRAINT sign_in_links_mail_check CHECK (mail_attempts >= 0 AND (token_hash IS NULL) = (mail_due_at IS NOT NULL));
CREATE INDEX sign_in_links_mail_due_at_idx ON sign_in_links (mail_due_at);

-- migrate:down

DROP INDEX sign_in_links_mail_due_at_idx;
ALTER TABLE sign_in_links DROP CONSTRAINT sign_in_links_mail_check;
ALTER TABLE sign_in_links DROP COLUMN mail_attempts;
ALTER TABLE sign_in_links DROP COLUMN mail_due_at;
DELETE FROM sign_in_links WHERE token_hash IS NULL;
ALTER TABLE sign_in_links ALTER COLUMN token_hash SET NOT NULL;
