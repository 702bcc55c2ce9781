/**
 * `callsight worker`: the analysis workers alone, without HTTP (`WORKER_CONCURRENCY` loops
 * claiming queued analyses from the database of `DATABASE_URL`, or the embedded one under
 * `DATA_DIR`). Run it next to `callsight serve --no-worker` to scale analysis apart from HTTP.
 * SIGINT/SIGTERM stop it with exit code 0; a job cut short goes back to the queue at once (a worker
 * that dies without stopping has its job taken up again when the lease expires).
 */
import { Command } from "@effect/cli"
import { Effect } from "effect"
import { launch, loadServer } from "./Serve.js"

export const worker = Command.make("worker", {}, () => Effect.flatMap(loadServer, (server) => launch(server.WorkerLive, "worker"))).pipe(
  Command.withDescription(
    "Run the analysis workers alone, without HTTP (configured from the environment like serve; WORKER_CONCURRENCY, WORKER_LEASE_SECONDS)"
  )
)
