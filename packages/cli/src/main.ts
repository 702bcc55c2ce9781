/**
 * The `callsight` executable (bin/callsight.js imports the built file). `NodeRuntime.runMain`
 * semantics: SIGINT/SIGTERM interrupt the command (for `serve`: a graceful shutdown) and the
 * process exits with the code the command computed (see Errors.ts).
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Effect } from "effect"
import { run } from "./Cli.js"
import { teardown, toExitCode } from "./Errors.js"

Effect.suspend(() => run(process.argv)).pipe(
  toExitCode,
  Effect.provide(NodeContext.layer),
  // failures are reported by toExitCode; the server chooses its own log format (LOG_FORMAT)
  NodeRuntime.runMain({ disableErrorReporting: true, disablePrettyLogger: true, teardown })
)
