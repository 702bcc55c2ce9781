/**
 * End-to-end helpers: the real `callsight serve` as a child process, and the `callsight` command
 * as a user runs it. Both use the built executable (packages/cli/bin/callsight.js importing
 * dist/): the suite runs after `npm run build` and builds nothing itself.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { existsSync } from "node:fs"
import { cp, mkdtemp, rm } from "node:fs/promises"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { inject } from "vitest"
import { acquireTestDatabaseUrl } from "../../packages/server/test/utils/TestDatabase.js"

export const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)))
export const CLI_BIN = join(ROOT, "packages/cli/bin/callsight.js")

/** Variables of the caller's environment that would change what the server or the CLI does. */
const INHERITED_CONFIG = [
  "PORT",
  "HOST",
  "DATABASE_URL",
  "DATA_DIR",
  "ADMIN_API_KEY",
  "ASSISTANT_API_KEY",
  "BLOB_DIR",
  "PUBLIC_BASE_URL",
  "CALENDAR_CLIENT_ID",
  "CALENDAR_CLIENT_SECRET",
  "CALENDAR_AUTHORIZE_URL",
  "CALENDAR_TOKEN_URL",
  "CALENDAR_REVOKE_URL",
  "CALENDAR_API_URL",
  "VIDEO_CLIENT_ID",
  "VIDEO_CLIENT_SECRET",
  "VIDEO_AUTHORIZE_URL",
  "VIDEO_TOKEN_URL",
  "VIDEO_REVOKE_URL",
  "VIDEO_API_URL",
  "OTEL_EXPORTER_OTLP_ENDPOINT",
  "SMTP_URL",
  "MAIL_FROM",
  "COOKIE_SECURE",
  "TRUST_PROXY",
  "SIGN_IN_LIMIT_PER_EMAIL",
  "SIGN_IN_LIMIT_PER_ADDRESS",
  "UPGRADE_URL_STARTER",
  "UPGRADE_URL_GROWTH",
  "UPGRADE_URL_SCALE",
  "CALLSIGHT_CONFIG_DIR",
  "TRANSCRIBER",
  "TRANSCRIBER_TIMEOUT_SECONDS",
  "SECRETS_KEY",
  "SECRETS_KEY_PREVIOUS",
  "NODE_ENV",
  "ANTHROPIC_BASE_URL",
  "CRM_A_API_URL",
  "SALESFORCE_LOGIN_URL",
  "PIPEDRIVE_API_URL",
  "CRM_SYNC_INTERVAL_SECONDS",
  "API_KEY_CACHE_SECONDS",
  "HTTP_HEADERS_TIMEOUT_SECONDS",
  "HTTP_REQUEST_TIMEOUT_SECONDS",
  "HTTP_IDLE_TIMEOUT_SECONDS",
  "DEEPGRAM_API_KEY",
  "DEEPGRAM_BASE_URL",
  "ASSEMBLYAI_API_KEY",
  "ASSEMBLYAI_BASE_URL",
  "OPENAI_API_KEY",
  "OPENAI_BASE_URL",
  "OPENAI_TRANSCRIBE_MODEL",
  "CALLSIGHT_URL",
  "CALLSIGHT_API_KEY",
  "CALLSIGHT_ADMIN_KEY"
]

const cleanEnv = (extra: Record<string, string | undefined>): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const name of INHERITED_CONFIG) delete env[name]
  // vitest's own variables would make a child Node process think it runs under vitest
  for (const name of Object.keys(env)) if (name.startsWith("VITEST")) delete env[name]
  for (const [name, value] of Object.entries(extra)) if (value !== undefined) env[name] = value
  return env
}

/** A TCP port nobody listens on right now. */
export const freePort = (): Promise<number> =>
  new Promise((resolvePort, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolvePort(port))
    })
  })

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export interface ServeExit {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

export interface RunningServer {
  /** `http://127.0.0.1:PORT` */
  readonly url: string
  /** The `ADMIN_API_KEY` it was started with (random). */
  readonly adminKey: string
  /** The process id (to send it a signal without waiting for its exit). */
  readonly pid: number
  /** Resolves when the process exits. */
  readonly exited: Promise<ServeExit>
  /** What it printed so far (stdout and stderr interleaved). */
  readonly output: () => string
  /** SIGTERM, then waits for the exit (SIGKILL after `timeoutMs`); removes its data and database. */
  readonly stop: (timeoutMs?: number) => Promise<ServeExit>
  /**
   * The environment it was started with (its `DATABASE_URL`, `DATA_DIR`, ...), for another
   * process on the same data, e.g. `callsight worker` next to `serve --no-worker`.
   */
  readonly env: Readonly<Record<string, string | undefined>>
}

export interface StartServerOptions {
  /** Extra environment for the server. */
  readonly env?: Record<string, string | undefined>
  /** How long to wait for `/ready` (default 90 s: a first PGlite start takes a few seconds). */
  readonly readyTimeoutMs?: number
  /** The command line after `callsight` (default `["serve"]`), e.g. `["serve", "--no-worker"]`. */
  readonly args?: ReadonlyArray<string>
}

/**
 * Starts `callsight serve` on a free port with a fresh `DATA_DIR`, a random `ADMIN_API_KEY` and,
 * when `TEST_DATABASE_URL` is set, a fresh PostgreSQL database on that server (embedded PGlite
 * otherwise); resolves once `GET /ready` answers 200.
 */
export const startServer = async (options: StartServerOptions = {}): Promise<RunningServer> => {
  if (!existsSync(join(ROOT, "packages/cli/dist/main.js"))) {
    throw new Error("packages/cli/dist/main.js is missing: run `npm run build` before the end-to-end tests")
  }
  const port = await freePort()
  const adminKey = `adm_${randomBytes(18).toString("base64url")}`
  const dataDir = await mkdtemp(join(tmpdir(), "callsight-e2e-"))
  const database = await acquireTestDatabaseUrl()
  // the embedded database: the run's migrated data directory (DatabaseTemplate.ts), where the server opens it
  const template = inject("pgliteTemplateDir")
  if (database.url === undefined && template !== undefined) await cp(template, join(dataDir, "db"), { recursive: true })
  const url = `http://127.0.0.1:${port}`

  let output = ""
  const serverEnv = {
    PORT: String(port),
    HOST: "127.0.0.1",
    ADMIN_API_KEY: adminKey,
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    LOG_FORMAT: "json",
    ...options.env
  }
  const child: ChildProcess = spawn(process.execPath, [CLI_BIN, ...(options.args ?? ["serve"])], {
    cwd: ROOT,
    env: cleanEnv(serverEnv),
    stdio: ["ignore", "pipe", "pipe"]
  })
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<ServeExit>((resolveExit) =>
    child.once("exit", (code, signal) => resolveExit({ code, signal }))
  )
  let exit: ServeExit | undefined
  void exited.then((e) => (exit = e))

  const cleanup = async () => {
    await database.release().catch(() => undefined)
    await rm(dataDir, { recursive: true, force: true }).catch(() => undefined)
  }

  const stop = async (timeoutMs = 20_000): Promise<ServeExit> => {
    if (exit === undefined) {
      child.kill("SIGTERM")
      const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs)
      await exited
      clearTimeout(timer)
    }
    await cleanup()
    return exit ?? (await exited)
  }

  const deadline = Date.now() + (options.readyTimeoutMs ?? 90_000)
  for (;;) {
    if (exit !== undefined) {
      await cleanup()
      throw new Error(`callsight serve exited (${exit.code ?? exit.signal}) before it was ready:\n${output}`)
    }
    // refused while the server is not listening yet; once it listens, every request is answered
    const ready = await fetch(`${url}/ready`, { signal: AbortSignal.timeout(10_000) }).then(
      (r) => r.status === 200,
      (error: Error) => (error.name === "TimeoutError" ? "unanswered" as const : false)
    )
    if (ready === "unanswered") {
      await stop(5_000)
      throw new Error(`GET /ready was accepted during start-up but never answered (10 s):\n${output}`)
    }
    if (ready) break
    if (Date.now() > deadline) {
      await stop(5_000)
      throw new Error(`callsight serve was not ready within the time limit:\n${output}`)
    }
    await sleep(200)
  }

  return { url, adminKey, pid: child.pid!, exited, output: () => output, stop, env: serverEnv }
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
