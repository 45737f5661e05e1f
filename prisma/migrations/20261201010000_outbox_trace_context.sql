-- migrate:up
-- The W3C traceparent of the request (or job) that appended the event, written in the mutation's transaction, so the
-- webhook deliveries the relay makes from it continue that trace (docs/observability.md). Null when tracing is off.
ALTER TABLE outbox_events ADD COLUMN trace_context text;
ALTER TABLE outbox_events ADD CONSTRAINT outbox_events_trace_context_length CHECK (char_length(trace_context) <= 256);

-- migrate:down
ALTER TABLE outbox_events DROP COLUMN trace_context;
