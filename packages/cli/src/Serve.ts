/**
 * `callsight serve [--no-worker]`: the HTTP service, configured from the environment (PORT, HOST,
 * DATABASE_URL, DATA_DIR, ADMIN_API_KEY, ...; see the README). SIGINT/SIGTERM interrupt it: the
 * server stops accepting, in-flight requests finish, the database pool closes, the exit code is 0.
 *
 * There is no analysis worker yet (a later issue adds it and runs it in this process by default);
 * `--no-worker` is accepted now so deployments can already say "HTTP only".
 */
import { Command, Options } from "@effect/cli"
import { Effect, Layer } from "effect"
import { ServiceError, UsageError } from "./Errors.js"

/**
 * `ServeLive` reads everything from the environment and needs nothing else; its emitted
 * declaration widens the requirements to `unknown`, so they are stated here.
 */
const launch = <A>(layer: Layer.Layer<A, unknown, unknown>): Effect.Effect<never, unknown> =>
  Layer.launch(layer as Layer.Layer<A, unknown, never>)

export const serve = Command.make(
  "serve",
  {
    noWorker: Options.boolean("no-worker").pipe(
      Options.withDescription(
        "Serve HTTP only, without the analysis worker. There is no worker yet: today `serve` is HTTP only either way."
      )
    )
  },
  () =>
    Effect.gen(function* () {
      // Imported here so that the other commands do not load the server (database drivers, ...).
      const { ServeLive } = yield* Effect.promise(() => import("@callsight/server"))
      return yield* launch(ServeLive).pipe(
        Effect.catchAll((error: unknown): Effect.Effect<never, UsageError | ServiceError> => {
          const tag = (error as { _tag?: unknown })?._tag
          const message = error instanceof Error || typeof (error as { message?: unknown })?.message === "string"
            ? (error as { message: string }).message
            : String(error)
          return tag === "InvalidConfig"
            ? Effect.fail(new UsageError({ message: `invalid configuration: ${message}` }))
            : Effect.fail(new ServiceError({ message: `the server stopped: ${typeof tag === "string" ? `${tag}: ` : ""}${message}` }))
        })
      )
    })
).pipe(
  Command.withDescription(
    "Start the HTTP service (configured from the environment). The analysis worker joins it in a later release; --no-worker is accepted already."
  )
)
