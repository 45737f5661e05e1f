import { type Attributes, context, type Context, propagation, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { TracerProvider } from '@opentelemetry/sdk-trace';

export { SpanKind };
export type { Context, Span };

export interface TracingSettings {
  /** OTLP/HTTP base address (OTEL_EXPORTER_OTLP_ENDPOINT); spans go to `${endpoint}/v1/traces` as JSON. */
  readonly endpoint: string;
  readonly serviceName: string;
  /** Share of new traces recorded (OTEL_TRACES_SAMPLER_ARG); a continued trace follows its parent's decision. */
  readonly sampleRatio: number;
  /** Longest a finished span waits before it is exported (OTEL_BSP_SCHEDULE_DELAY). */
  readonly exportDelayMs: number;
}

let provider: TracerProvider | undefined;
let starting: Promise<void> | undefined;

/**
 * Turns tracing on for this process (the first service to start it names the resource; later calls are no-ops).
 * Until then every span helper below is a no-op that costs a null check: the OpenTelemetry API's default tracer
 * and context manager do nothing, and the SDK and exporter are not even loaded.
 */
export function startTracing(settings: TracingSettings): Promise<void> {
  starting ??= (async () => {
    const [{ AsyncLocalStorageContextManager }, { W3CTraceContextPropagator }, { OTLPTraceExporter }, { resourceFromAttributes }, sdk] = await Promise.all([
      import('@opentelemetry/context-async-hooks'),
      import('@opentelemetry/core'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/sdk-trace'),
    ]);
    const started = new sdk.TracerProvider({
      resource: resourceFromAttributes({ 'service.name': settings.serviceName }),
      sampler: new sdk.ParentBasedSampler({ root: new sdk.TraceIdRatioBasedSampler(settings.sampleRatio) }),
      spanProcessors: [new sdk.BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: `${settings.endpoint}/v1/traces` }), scheduledDelayMillis: settings.exportDelayMs })],
    });
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(started);
    provider = started;
  })();
  return starting;
}

/** Exports what is pending and turns tracing off (a service's shutdown; tests). */
export async function stopTracing(): Promise<void> {
  await starting;
  const current = provider;
  starting = undefined;
  if (!current) return;
  provider = undefined;
  await current.shutdown().catch(() => undefined);
  trace.disable();
  propagation.disable();
  context.disable();
}

export function tracingEnabled(): boolean {
  return provider !== undefined;
}

const TRACER = 'workcell';

/** The W3C `traceparent` of the active span (to carry across a queue or the outbox), or null outside a trace. */
export function currentTraceparent(): string | null {
  if (!provider) return null;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier['traceparent'] ?? null;
}

/** Adds the active trace's headers (`traceparent`) to an outgoing request's headers. */
export function injectTraceHeaders(headers: Record<string, string>): Record<string, string> {
  if (provider) propagation.inject(context.active(), headers);
  return headers;
}

/** The context a `traceparent` (an incoming header, a job's or outbox event's) continues; the root context if none or invalid. */
export function contextFromTraceparent(traceparent: string | string[] | null | undefined): Context {
  if (!provider || typeof traceparent !== 'string') return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, { traceparent });
}

/** Starts a span (not made active); `parent` defaults to the active context. */
export function startSpan(name: string, kind: SpanKind, attributes: Attributes, parent: Context = context.active()): Span | undefined {
  if (!provider) return undefined;
  return trace.getTracer(TRACER).startSpan(name, { kind, attributes }, parent);
}

/** Ends a span started by startSpan, marking it failed when `error` is given. */
export function endSpan(span: Span | undefined, error?: unknown, attributes?: Attributes): void {
  if (!span) return;
  if (attributes) span.setAttributes(attributes);
  if (error !== undefined) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  }
  span.end();
}

/** Runs `work` in a child span of `parent` (default: the active context), the span active for everything it awaits. */
export async function inSpan<T>(name: string, kind: SpanKind, attributes: Attributes, work: () => Promise<T>, parent?: Context): Promise<T> {
  if (!provider) return work();
  const span = startSpan(name, kind, attributes, parent)!;
  try {
    const result = await context.with(trace.setSpan(parent ?? context.active(), span), work);
    endSpan(span);
    return result;
  } catch (error) {
    endSpan(span, error);
    throw error;
  }
}

/** Runs `work` with `span` (if any) as the active span. */
export function withSpan<T>(span: Span | undefined, work: () => T): T {
  if (!span) return work();
  return context.with(trace.setSpan(context.active(), span), work);
}

/** The active span's ids for a log line, or undefined outside a trace. */
export function activeTraceIds(): { trace_id: string; span_id: string } | undefined {
  if (!provider) return undefined;
  const span = trace.getSpan(context.active());
  if (!span) return undefined;
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/** A child span of the active span, or undefined when there is none (work outside any trace starts no trace of its own). */
export function startChildSpan(name: string, kind: SpanKind, attributes: Attributes): Span | undefined {
  if (!provider) return undefined;
  const parent = context.active();
  if (!trace.getSpan(parent)) return undefined;
  return trace.getTracer(TRACER).startSpan(name, { kind, attributes }, parent);
}

/** Runs `work` in the trace a stored traceparent names (an outbox event's), so what it starts belongs to that trace. */
export function withTraceparent<T>(traceparent: string | null | undefined, work: () => T): T {
  if (!provider || !traceparent) return work();
  return context.with(contextFromTraceparent(traceparent), work);
}
