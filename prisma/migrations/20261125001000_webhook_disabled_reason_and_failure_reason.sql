-- migrate:up
-- Issue 10: a disabled signed subscription says why and since when (owner, administrator, owner_revoked,
-- owner_expired, owner_inactive, receiver_gone), and each delivery records the class of its last failure
-- (timeout, connection_refused, tls, dns, http_status, …) next to the free-text error.
ALTER TABLE webhook_subscriptions ADD COLUMN disabled_reason text;
ALTER TABLE webhook_subscriptions ADD COLUMN disabled_at timestamptz(3);
-- Subscriptions disabled before this migration were disabled by a PATCH of a webhooks:write credential.
UPDATE webhook_subscriptions SET disabled_reason = 'owner', disabled_at = updated_at WHERE status <> 'active' AND disabled_reason IS NULL;
ALTER TABLE webhook_deliveries ADD COLUMN failure_reason text;

-- migrate:down
ALTER TABLE webhook_deliveries DROP COLUMN failure_reason;
ALTER TABLE webhook_subscriptions DROP COLUMN disabled_at;
ALTER TABLE webhook_subscriptions DROP COLUMN disabled_reason;
