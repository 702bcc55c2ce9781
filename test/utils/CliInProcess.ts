/**
 * The `callsight` command run in this process, as packages/cli/src/main.ts runs it: `run` of the
 * command line `node callsight ARGS...` to its exit code (`toExitCode`, Errors.ts) with
 * NodeContext, without starting a process (what made the end-to-end CLI tests slow).
 *
 * What the command writes through the Console service (its results, its help, its errors and the
 * parser's) is kept a line at a time, as it would reach stdout and stderr; Output.ts leaves out
 * colours, as the test's streams are not terminals. What a command writes to `process.stdout` or
 * `process.stderr` itself (`report` without -o, the stage of `--wait` on stderr) is not kept.
 *
 * The command sees the variables of `env` alone: the CALLSIGHT_* of the shell running the tests
 * never reach it. Point it at an in-process server (packages/server/test/utils/TestServer.ts) with
 * `serverUrl`.
 */
import { run, toExitCode } from "@callsight/cli"
import { HttpServer } from "@effect/platform"
import { NodeContext } from "@effect/platform-node"
import { ConfigProvider, Console, Effect } from "effect"
import { format } from "node:util"

export interface CliRun {
  readonly code: number
  /** What went to stdout, a line each. */
  readonly stdout: ReadonlyArray<string>
  /** What went to stderr, a line each. */
  readonly stderr: ReadonlyArray<string>
}

/** Runs `callsight ARGS...` in this process with the environment `env`. */
export const runCli = (args: ReadonlyArray<string>, env: Record<string, string> = {}): Effect.Effect<CliRun> =>
  Effect.gen(function* () {
    const stdout: Array<string> = []
    const stderr: Array<string> = []
    const base = yield* Effect.console
    const keep = (lines: Array<string>) => (...data: ReadonlyArray<unknown>) =>
      Effect.sync(() => void lines.push(...format(...data).split("\n")))
    const captured: Console.Console = {
      ...base,
      log: keep(stdout),
      info: keep(stdout),
      debug: keep(stdout),
      error: keep(stderr),
      warn: keep(stderr),
      trace: keep(stderr)
    }
    const code = yield* toExitCode(run(["node", "callsight", ...args])).pipe(
      Effect.withConsole(captured),
      Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))),
      Effect.provide(NodeContext.layer)
    )
    return { code, stdout, stderr }
  })

/** `http://127.0.0.1:PORT` of the in-process server (NodeHttpServer.layerTest listens on a random port). */
export const serverUrl = Effect.map(HttpServer.HttpServer, (server) => {
  const address = server.address as HttpServer.TcpAddress
  return `http://127.0.0.1:${address.port}`
})
