/**
 * The `callsight` command run in this process, as packages/cli/src/main.ts runs it: `run` of the
 * command line `node callsight ARGS...` to its exit code (`toExitCode`, Errors.ts) with
 * NodeContext, without starting a process (what made the end-to-end CLI tests slow).
 *
 * Its output is kept as it would reach stdout and stderr, in the order written:
 * - what it writes through the Console service (its results, its help, its errors and the
 *   parser's), a line per call as Node's console writes it; Output.ts leaves out colours, as the
 *   test's streams are not terminals (Vitest's fork workers have pipes for stdout and stderr);
 * - what it writes as it is (`report` without -o writes the HTML to stdout; `--wait` without
 *   `--json` writes the stage to stderr) through the `Stdio` service of Output.ts, which each run
 *   provides with streams of its own: runs at the same time (`Promise.all`, `Effect.all`) each
 *   keep their own output, and nothing else's. The streams are not terminals (no progress bar).
 *
 * The command sees the variables of `env` alone, as its configuration (`CALLSIGHT_URL`,
 * `CALLSIGHT_API_KEY`, `CALLSIGHT_ADMIN_KEY`, `CALLSIGHT_CONFIG_DIR`, ...: the ConfigProvider that
 * `Options.withFallbackConfig` and SessionStore.ts read): the CALLSIGHT_* of the shell running
 * the tests never reach it. `NO_COLOR` is not read from `env` (Output.ts reads `process.env` and
 * whether the stream is a terminal). Point it at an in-process server
 * (packages/server/test/utils/TestServer.ts) with `serverUrl`, or at a `callsight serve` child
 * process (test/utils/Server.ts) with its `url`.
 */
import { type RawStream, run, Stdio, toExitCode } from "@callsight/cli"
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

/** A run's exit code and output as a process writes it (the shape of Server.ts's `runCli`). */
export interface CliOutput {
  readonly code: number
  /** What went to stdout, as written. */
  readonly stdout: string
  /** What went to stderr, as written. */
  readonly stderr: string
}

/** What one run has written so far, a chunk per write. */
interface Capture {
  readonly stdout: Array<string>
  readonly stderr: Array<string>
}

/** A stream that keeps what is written to it in `chunks` (not a terminal). */
const keptIn = (chunks: Array<string>): RawStream => ({
  isTTY: false,
  write: (text, done) => {
    chunks.push(text)
    if (done !== undefined) process.nextTick(done)
  }
})

/** Runs `callsight ARGS...` in this process with the environment `env`; its output as written. */
export const runCliText = (args: ReadonlyArray<string>, env: Record<string, string> = {}): Effect.Effect<CliOutput> =>
  Effect.gen(function* () {
    const capture: Capture = { stdout: [], stderr: [] }
    const base = yield* Effect.console
    // as Node's console writes a call: its arguments formatted, then a new line
    const keep = (chunks: Array<string>) => (...data: ReadonlyArray<unknown>) =>
      Effect.sync(() => void chunks.push(`${format(...data)}\n`))
    const captured: Console.Console = {
      ...base,
      log: keep(capture.stdout),
      info: keep(capture.stdout),
      debug: keep(capture.stdout),
      error: keep(capture.stderr),
      warn: keep(capture.stderr),
      trace: keep(capture.stderr)
    }
    const code = yield* toExitCode(run(["node", "callsight", ...args])).pipe(
      Effect.withConsole(captured),
      Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))),
      Effect.provideService(Stdio, { stdout: keptIn(capture.stdout), stderr: keptIn(capture.stderr) }),
      Effect.provide(NodeContext.layer)
    )
    return { code, stdout: capture.stdout.join(""), stderr: capture.stderr.join("") }
  })

/** "a\nb\n" → ["a", "b"]; "" → [] */
const linesOf = (text: string): ReadonlyArray<string> =>
  text === "" ? [] : (text.endsWith("\n") ? text.slice(0, -1) : text).split("\n")

/** Runs `callsight ARGS...` in this process with the environment `env`; its output a line each. */
export const runCli = (args: ReadonlyArray<string>, env: Record<string, string> = {}): Effect.Effect<CliRun> =>
  Effect.map(runCliText(args, env), ({ code, stderr, stdout }) => ({ code, stdout: linesOf(stdout), stderr: linesOf(stderr) }))

/** `runCliText` as a Promise, for tests written with async functions. */
export const cliInProcess = (args: ReadonlyArray<string>, env: Record<string, string> = {}): Promise<CliOutput> =>
  Effect.runPromise(runCliText(args, env))

/** `http://127.0.0.1:PORT` of the in-process server (NodeHttpServer.layerTest listens on a random port). */
export const serverUrl = Effect.map(HttpServer.HttpServer, (server) => {
  const address = server.address as HttpServer.TcpAddress
  return `http://127.0.0.1:${address.port}`
})
