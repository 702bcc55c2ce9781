/**
 * `callsight serve [--no-worker]`: the HTTP service, configured from the environment (PORT, HOST,
 * DATABASE_URL, DATA_DIR, ADMIN_API_KEY, ...; see the README). SIGINT/SIGTERM interrupt it: the
 * server stops accepting, in-flight requests finish, the database pool closes, the exit code is 0.
 *
 * There is no analysis worker yet (a later issue adds it and runs it in this process by default);
 * `--no-worker` is accepted now so deployments can already say "HTTP only".
 */
import { ServeLive } from "@callsight/server"
import { Command, Options } from "@effect/cli"
import { Effect, Layer } from "effect"
import { ServiceError, UsageError } from "./Errors.js"

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
    Layer.launch(ServeLive).pipe(
      Effect.catchAll((error): Effect.Effect<never, UsageError | ServiceError> =>
        error._tag === "InvalidConfig"
          ? Effect.fail(new UsageError({ message: `invalid configuration: ${error.message}` }))
          : Effect.fail(new ServiceError({ message: `the server stopped: ${error._tag}: ${error.message}` }))
      )
    )
).pipe(
  Command.withDescription(
    "Start the HTTP service (configured from the environment). The analysis worker joins it in a later release; --no-worker is accepted already."
  )
)
