/**
 * End-to-end helpers: the real `callsight serve` as a child process, and the `callsight` command
 * as a user runs it. Both use the built executable (packages/cli/bin/callsight.js importing
 * dist/): the suite runs after `npm run build` and builds nothing itself.
 */
import { spawn } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { inject } from "vitest"
import {
  cleanEnv,
  CLI_BIN,
  launchServer,
  ROOT,
  type RunningServer,
  type ServeExit,
  type StartServerOptions,
  untilReady
} from "./ServeProcess.js"

export { CLI_BIN, freePort, ROOT, type RunningServer } from "./ServeProcess.js"

/**
 * Starts `callsight serve` on a free port with a fresh `DATA_DIR`, a random `ADMIN_API_KEY` and,
 * when `TEST_DATABASE_URL` is set, a fresh PostgreSQL database on that server (embedded PGlite
 * otherwise); resolves once `GET /ready` answers 200.
 */
export const startServer = async (options: StartServerOptions = {}): Promise<RunningServer> => {
  const server = await launchServer({
    ...options,
    templates: options.templates ?? { database: inject("databaseTemplate"), pgliteDir: inject("pgliteTemplateDir") }
  })
  await server.ready
  return server
}

/**
 * The run's shared `callsight serve` (SharedServer.ts), once it is ready: its URL and admin key.
 * Not to be stopped, reconfigured or read from: a file that needs any of that starts its own.
 */
export const sharedServer = async (): Promise<{ readonly url: string; readonly adminKey: string }> => {
  const shared = inject("sharedServer")
  if ("unavailable" in shared) throw new Error(`no shared server: ${shared.unavailable}`)
  // a start that failed is written to `failureFile` (with the server's output): fail at once
  const failure = () =>
    existsSync(shared.failureFile) ? `the shared server did not start: ${readFileSync(shared.failureFile, "utf8")}` : undefined
  await untilReady(shared.url, Date.now() + 180_000, failure)
  return { url: shared.url, adminKey: shared.adminKey }
}

export interface RunningCli {
  readonly pid: number
  /** Resolves when the process exits. */
  readonly exited: Promise<ServeExit>
  /** What it printed so far (stdout and stderr interleaved). */
  readonly output: () => string
  /** SIGTERM, then waits for the exit (SIGKILL after `timeoutMs`). */
  readonly stop: (timeoutMs?: number) => Promise<ServeExit>
}

/** Starts a long-running `callsight ARGS...` (e.g. `worker`) with a clean environment plus `env`. */
export const startCli = (args: ReadonlyArray<string>, env: Record<string, string | undefined> = {}): RunningCli => {
  let output = ""
  const child = spawn(process.execPath, [CLI_BIN, ...args], {
    cwd: ROOT,
    env: cleanEnv({ NO_COLOR: "1", ...env }),
    stdio: ["ignore", "pipe", "pipe"]
  })
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
  let exit: ServeExit | undefined
  const exited = new Promise<ServeExit>((resolveExit) =>
    child.once("exit", (code, signal) => resolveExit((exit = { code, signal })))
  )
  const stop = async (timeoutMs = 20_000): Promise<ServeExit> => {
    if (exit !== undefined) return exit
    child.kill("SIGTERM")
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs)
    const result = await exited
    clearTimeout(timer)
    return result
  }
  return { pid: child.pid!, exited, output: () => output, stop }
}

export interface CliResult {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/**
 * Runs `callsight ARGS...` (the built executable) with a clean environment plus `env`, and
 * collects its exit code and output.
 */
export const runCli = (args: ReadonlyArray<string>, env: Record<string, string | undefined> = {}): Promise<CliResult> =>
  new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], {
      cwd: ROOT,
      env: cleanEnv({ NO_COLOR: "1", ...env }),
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    child.once("error", reject)
    child.once("close", (code) => resolveRun({ code, stdout, stderr }))
  })
