/**
 * An effect's latest outcome, shared by the calls of the next `ttlMs` milliseconds: the first call
 * after that runs it (in a fiber of its own, so that a caller that goes away does not take the
 * shared run with it), and the calls meanwhile wait for that run. What `Effect.cachedWithTTL`
 * does, without its cost on every call: it reads the cache through a synchronized ref (a
 * semaphore taken and released) and provides its context again (two fiber-ref writes, each a copy
 * of the fiber's refs). For `/health`, whose answer is the shared ping (probes/Probes.ts), that
 * was a sizeable part of a request a few hundred microseconds long (bench/status.bench.ts).
 *
 * The outcome is kept as it came, a failure or a defect too: every caller of the same period gets
 * it, as each would have had it from its own run.
 */
import { Deferred, Effect, type Exit, FiberId } from "effect"

export const recentWithin = <A, E>(effect: Effect.Effect<A, E>, ttlMs: number): Effect.Effect<A, E> => {
  let latest: { readonly at: number; readonly done: Deferred.Deferred<A, E>; exit: Exit.Exit<A, E> | undefined } | undefined
  return Effect.suspend(() => {
    const now = Date.now()
    const entry = latest
    if (entry !== undefined && now - entry.at < ttlMs) return entry.exit ?? Deferred.await(entry.done)
    const next = { at: now, done: Deferred.unsafeMake<A, E>(FiberId.none), exit: undefined as Exit.Exit<A, E> | undefined }
    latest = next
    const run = Effect.flatMap(Effect.exit(effect), (exit) => {
      next.exit = exit
      return Deferred.done(next.done, exit)
    })
    return Effect.zipRight(Effect.forkDaemon(run), Deferred.await(next.done))
  })
}
