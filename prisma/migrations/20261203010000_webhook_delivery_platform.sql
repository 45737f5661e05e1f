-- migrate:up
-- Webhooks as a delivery platform (issue 26, docs/webhooks.md "Delivery"). The database is the delivery queue: the
-- worker's dispatcher claims due rows fairly per subscription under a lease, and a per-subscription circuit breaker
-- spaces attempts to a failing receiver by the retry schedule.

-- A row now counts the attempts it has started (0: none yet) and says when the next one is due while pending.
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_attempt_check;
UPDATE webhook_deliveries SET attempt = attempt - 1 WHERE status = 'pending' AND next_retry_at IS NULL;
UPDATE webhook_deliveries SET next_retry_at = now() WHERE status = 'pending' AND next_retry_at IS NULL;
UPDATE webhook_deliveries SET next_retry_at = NULL WHERE status <> 'pending';
ALTER TABLE webhook_deliveries RENAME COLUMN next_retry_at TO next_attempt_at;
ALTER TABLE webhook_deliveries ALTER COLUMN attempt SET DEFAULT 0;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_attempt_check CHECK (attempt >= 0);
-- How many attempts the delivery may make in all (the schedule's; a recovered delivery: one more than it had).
ALTER TABLE webhook_deliveries ADD COLUMN attempts_allowed integer NOT NULL DEFAULT 12;
-- While an attempt is in flight: until when the dispatcher that claimed it holds it (then another may claim it).
ALTER TABLE webhook_deliveries ADD COLUMN lease_until timestamptz(3);
-- What the latest attempt sent and received (the delivery history): headers, and the first KB of the response body.
ALTER TABLE webhook_deliveries ADD COLUMN request_headers jsonb;
ALTER TABLE webhook_deliveries ADD COLUMN response_headers jsonb;
ALTER TABLE webhook_deliveries ADD COLUMN response_body text;
DROP INDEX webhook_deliveries_next_retry_at_idx;
-- One delivery per (subscription, event): an event fanned out again (its publication undone) adds none, instead of
-- failing the relay's insert on a row of the same attempt number. Duplicates of earlier re-fan-outs: the newest stays.
DELETE FROM webhook_deliveries d USING webhook_deliveries n
 WHERE n.workspace_id = d.workspace_id AND n.subscription_id = d.subscription_id AND n.event_id = d.event_id AND n.id > d.id;
DROP INDEX webhook_deliveries_subscription_event_attempt_key;
CREATE UNIQUE INDEX webhook_deliveries_subscription_event_key ON webhook_deliveries (workspace_id, subscription_id, event_id);
-- The dispatcher's claim: a subscription's due rows in order, and its attempts in flight.
CREATE INDEX webhook_deliveries_pending_due_idx ON webhook_deliveries (workspace_id, subscription_id, next_attempt_at, id) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_leased_idx ON webhook_deliveries (workspace_id, subscription_id) WHERE status = 'pending' AND lease_until IS NOT NULL;

-- The circuit breaker: consecutive failed attempts, since when the receiver fails, and until when it rests.
ALTER TABLE webhook_subscriptions ADD COLUMN consecutive_failures integer NOT NULL DEFAULT 0;
ALTER TABLE webhook_subscriptions ADD COLUMN failing_since timestamptz(3);
ALTER TABLE webhook_subscriptions ADD COLUMN breaker_until timestamptz(3);
-- Secret rotation: the previous secret keeps signing (a second signature) until it expires.
ALTER TABLE webhook_subscriptions ADD COLUMN previous_secret_ciphertext bytea;
ALTER TABLE webhook_subscriptions ADD COLUMN previous_secret_key_id text;
ALTER TABLE webhook_subscriptions ADD COLUMN previous_secret_expires_at timestamptz(3);

-- migrate:down
ALTER TABLE webhook_subscriptions DROP COLUMN previous_secret_expires_at;
ALTER TABLE webhook_subscriptions DROP COLUMN previous_secret_key_id;
ALTER TABLE webhook_subscriptions DROP COLUMN previous_secret_ciphertext;
ALTER TABLE webhook_subscriptions DROP COLUMN breaker_until;
ALTER TABLE webhook_subscriptions DROP COLUMN failing_since;
ALTER TABLE webhook_subscriptions DROP COLUMN consecutive_failures;
DROP INDEX webhook_deliveries_subscription_event_key;
CREATE UNIQUE INDEX webhook_deliveries_subscription_event_attempt_key ON webhook_deliveries (workspace_id, subscription_id, event_id, attempt);
DROP INDEX webhook_deliveries_leased_idx;
DROP INDEX webhook_deliveries_pending_due_idx;
ALTER TABLE webhook_deliveries DROP COLUMN response_body;
ALTER TABLE webhook_deliveries DROP COLUMN response_headers;
ALTER TABLE webhook_deliveries DROP COLUMN request_headers;
ALTER TABLE webhook_deliveries DROP COLUMN lease_until;
ALTER TABLE webhook_deliveries DROP COLUMN attempts_allowed;
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_attempt_check;
ALTER TABLE webhook_deliveries RENAME COLUMN next_attempt_at TO next_retry_at;
UPDATE webhook_deliveries SET attempt = attempt + 1, next_retry_at = NULL WHERE status = 'pending' AND attempt = 0;
ALTER TABLE webhook_deliveries ALTER COLUMN attempt SET DEFAULT 1;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_attempt_check CHECK (attempt >= 1);
CREATE INDEX webhook_deliveries_next_retry_at_idx ON webhook_deliveries (next_retry_at);
