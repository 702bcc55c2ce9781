/**
 * `callsight serve [--no-worker]`: the HTTP service and, in the same process, the analysis
 * workers (`WORKER_CONCURRENCY` of them), configured from the environment (PORT, HOST,
 * DATABASE_URL, DATA_DIR, ADMIN_API_KEY, ...; docs/configuration.md). `--no-worker` serves HTTP only:
 * uploads are queued for `callsight worker` processes (on the same database) to analyse.
 * SIGINT/SIGTERM interrupt it: the server stops accepting, in-flight requests finish, the workers
 * stop (a job cut short goes back to the queue at once), the database pool closes, the
 * exit code is 0.
 */
import { Command, Options } from "@effect/cli"
import { Effect, Layer } from "effect"
import { ServiceError, UsageError } from "./Errors.js"

/** Runs a process layer until interrupted; a bad configuration is a usage error, the rest a service error. */
export const launch = <A, E extends { readonly _tag: string; readonly message: string }>(
  layer: Layer.Layer<A, E>,
  what: string
): Effect.Effect<never, UsageError | ServiceError> =>
  Layer.launch(layer).pipe(
    Effect.catchAll((error): Effect.Effect<never, UsageError | ServiceError> =>
      error._tag === "InvalidConfig"
        ? Effect.fail(new UsageError({ message: `invalid configuration: ${error.message}` }))
        : Effect.fail(new ServiceError({ message: `the ${what} stopped: ${error._tag}: ${error.message}` }))
    )
  )

/**
 * The server, loaded only by the commands that run it (`serve`, `worker`, `mcp`): every other
 * command is a client of the API and starts without it.
 */
export const loadServer: Effect.Effect<typeof import("@callsight/server")> = Effect.promise(() =>
  import("@callsight/server")
)

export const serve = Command.make(
  "serve",
  {
    noWorker: Options.boolean("no-worker").pipe(
      Options.withDescription(
        "Serve HTTP only, without the analysis workers: uploads wait in the queue for `callsight worker` processes on the same database"
      )
    )
  },
  ({ noWorker }) =>
    Effect.flatMap(loadServer, (server) => launch(noWorker ? server.makeServeLive({ workers: false }) : server.ServeLive, "server"))
).pipe(
  Command.withDescription(
    "Start the HTTP service and its analysis workers (WORKER_CONCURRENCY, default 2), configured from the environment; --no-worker: HTTP only"
  )
)
