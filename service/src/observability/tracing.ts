// OpenTelemetry traces over OTLP/HTTP (issue 29), with the official packages: a server span per API request
// (`METHOD /route/:pattern`, its status and project id), children for database statements, password hashing,
// outbox sends and webhook deliveries; an incoming W3C `traceparent` continues its trace. Off unless an OTLP
// endpoint is set (the standard OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT); sampling by the
// standard OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG. Spans carry names, kinds, ids and statuses only: never a
// token, code, body, email or a statement's values. Off, every helper here is a plain call: no context, no span.
import { context, propagation, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler, AlwaysOnSampler, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, TracerProvider, type Sampler,
} from '@opentelemetry/sdk-trace';

export interface TracingSettings {
  /** Where spans are posted (`…/v1/traces`); unset: tracing is off. */
  tracesUrl?: string;
  serviceName: string;
  /** OTEL_TRACES_SAMPLER (default `parentbased_always_on`) and its argument (a ratio). */
  sampler: string;
  samplerArg?: number;
  /** OTEL_BSP_SCHEDULE_DELAY: how long spans wait to be sent in a batch (default 5000 ms). */
  batchDelayMs?: number;
}

export const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;

/** The settings from the standard variables (config.ts passes its environment); a bad sampler is an error. */
export function tracingSettings(env: Record<string, string | undefined>): TracingSettings {
  const generic = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  const specific = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  // The specification: the traces variable is the full URL; the generic one is a base to which /v1/traces is added.
  const tracesUrl = specific || (generic ? `${generic.replace(/\/+$/, '')}/v1/traces` : undefined);
  const disabled = env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true';
  const sampler = env.OTEL_TRACES_SAMPLER?.trim() || 'parentbased_always_on';
  if (!(SAMPLERS as readonly string[]).includes(sampler)) throw new Error(`OTEL_TRACES_SAMPLER must be one of ${SAMPLERS.join(', ')} (got "${sampler}")`);
  const arg = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  const samplerArg = arg ? Number(arg) : undefined;
  if (samplerArg !== undefined && !(samplerArg >= 0 && samplerArg <= 1)) throw new Error(`OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1 (got "${arg}")`);
  const delay = env.OTEL_BSP_SCHEDULE_DELAY?.trim();
  const batchDelayMs = delay ? Number(delay) : undefined;
  if (batchDelayMs !== undefined && !(Number.isInteger(batchDelayMs) && batchDelayMs >= 0)) throw new Error(`OTEL_BSP_SCHEDULE_DELAY must be milliseconds (got "${delay}")`);
  return { tracesUrl: disabled ? undefined : tracesUrl, serviceName: env.OTEL_SERVICE_NAME?.trim() || 'gatehouse', sampler, samplerArg, batchDelayMs };
}

function samplerOf(name: string, ratio = 1): Sampler {
  const root = name.endsWith('always_off') ? new AlwaysOffSampler() : name.endsWith('traceidratio') ? new TraceIdRatioBasedSampler(ratio) : new AlwaysOnSampler();
  return name.startsWith('parentbased_') ? new ParentBasedSampler({ root }) : root;
}

let provider: TracerProvider | null = null;
const tracer = () => trace.getTracer('gatehouse');

/** Whether spans are being made (an OTLP endpoint is set). */
export function tracingOn(): boolean {
  return provider !== null;
}

/** Starts the exporter when an endpoint is set; returns the flush-and-stop for shutdown (or null when off). */
export function initTracing(settings: TracingSettings, version: string): (() => Promise<void>) | null {
  if (!settings.tracesUrl || provider) return null;
  const contextManager = new AsyncLocalStorageContextManager();
  context.setGlobalContextManager(contextManager.enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName, 'service.version': version }),
    sampler: samplerOf(settings.sampler, settings.samplerArg),
    spanProcessors: [new BatchSpanProcessor({
      exporter: new OTLPTraceExporter({ url: settings.tracesUrl }),
      ...(settings.batchDelayMs !== undefined ? { scheduledDelayMillis: settings.batchDelayMs } : {}),
    })],
  });
  trace.setGlobalTracerProvider(provider);
  const current = provider;
  return async () => {
    await current.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
    provider = null;
  };
}

function ended<T>(span: Span, run: () => Promise<T>): Promise<T> {
  return run().then(
    (value) => { span.end(); return value; },
    (err: unknown) => {
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.name : 'error' });
      span.end();
      throw err;
    },
  );
}

/** A child span around `run` (a statement, a hash, a send). Off: `run()` and nothing else. */
export function traced<T>(name: string, attributes: Attributes, run: () => Promise<T>): Promise<T> {
  if (!provider) return run();
  return tracer().startActiveSpan(name, { kind: SpanKind.INTERNAL, attributes }, (span) => ended(span, run));
}

export interface RequestSpan {
  /** Names the request's project once authentication has found it. */
  project(id: string): void;
  status(code: number): void;
}

const NO_SPAN: RequestSpan = { project: () => {}, status: () => {} };

/**
 * The server span of one API request, continuing the caller's `traceparent`. `route` is the declared pattern
 * (`GET /users/:user_id`), never the path with its ids.
 */
export function withRequestSpan<T>(route: string, headers: Headers, run: (span: RequestSpan) => Promise<T>): Promise<T> {
  if (!provider) return run(NO_SPAN);
  const parent = propagation.extract(context.active(), headers, { get: (h, key) => h.get(key) ?? undefined, keys: (h) => [...h.keys()] });
  const [method, ...path] = route.split(' ');
  return context.with(parent, () => tracer().startActiveSpan(route, {
    kind: SpanKind.SERVER,
    attributes: { 'http.request.method': method!, 'http.route': path.join(' ') },
  }, (span) => {
    const handle: RequestSpan = {
      project: (id) => span.setAttribute('gatehouse.project_id', id),
      status: (code) => {
        span.setAttribute('http.response.status_code', code);
        if (code >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      },
    };
    return ended(span, () => run(handle));
  }));
}
