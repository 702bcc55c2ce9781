/**
 * Spans on the hot path. `Effect.fn(name)` opens its span, and captures two stack traces for it,
 * on every call even when tracing is off (no `OTEL_EXPORTER_OTLP_ENDPOINT`: Observability.ts turns
 * the tracer off): about 14 µs a call on this machine, as much as a tenth of a `/health` answer.
 * The functions every poll and probe runs (the key lookup, the status view, the health probe) are
 * written with `spanned` instead: the same span when spans go somewhere, nothing when they do not.
 */
import { Effect, FiberRef } from "effect"

/** `body` as a function whose call is the span `name` while the tracer is on, and only then. */
export const spanned = <Args extends ReadonlyArray<unknown>, A, E, R>(
  name: string,
  body: (...args: Args) => Effect.Effect<A, E, R>
) =>
(...args: Args): Effect.Effect<A, E, R> =>
  Effect.flatMap(FiberRef.get(FiberRef.currentTracerEnabled), (on) => on ? Effect.withSpan(body(...args), name) : body(...args))
