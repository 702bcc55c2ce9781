/**
 * The real `callsight serve` as a child process, free of vitest's runtime so that a global setup
 * (SharedServer.ts) can start one too; test files start theirs through Server.ts (`startServer`),
 * which passes the run's database templates.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { existsSync } from "node:fs"
import { cp, mkdtemp, rm } from "node:fs/promises"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { acquireFreshDatabaseUrl } from "../../packages/server/test/utils/FreshDatabase.js"

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

export const cleanEnv = (extra: Record<string, string | undefined>): NodeJS.ProcessEnv => {
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

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

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
  /** The run's migrated databases (DatabaseTemplate.ts); without them, empty ones. */
  readonly templates?: { readonly database: string | undefined; readonly pgliteDir: string | undefined }
}

/** Polls `GET {url}/ready` until it answers 200; fails when `failed()` says why not, or at `deadline`. */
export const untilReady = async (url: string, deadline: number, failed: () => string | undefined = () => undefined) => {
  for (;;) {
    const reason = failed()
    if (reason !== undefined) throw new Error(reason)
    // refused while the server is not listening yet; once it listens, every request is answered
    const ready = await fetch(`${url}/ready`, { signal: AbortSignal.timeout(10_000) }).then(
      (r) => r.status === 200,
      (error: Error) => (error.name === "TimeoutError" ? "unanswered" as const : false)
    )
    if (ready === "unanswered") throw new Error(`GET ${url}/ready was accepted during start-up but never answered (10 s)`)
    if (ready) return
    if (Date.now() > deadline) throw new Error(`${url} was not ready within the time limit`)
    await sleep(200)
  }
}

/** Starts `callsight serve` without waiting: `ready` resolves once `GET /ready` answers 200 (the server is stopped if it never does). */
export const launchServer = async (options: StartServerOptions = {}): Promise<RunningServer & { readonly ready: Promise<void> }> => {
  if (!existsSync(join(ROOT, "packages/cli/dist/main.js"))) {
    throw new Error("packages/cli/dist/main.js is missing: run `npm run build` before the end-to-end tests")
  }
  const port = await freePort()
  const adminKey = `adm_${randomBytes(18).toString("base64url")}`
  const dataDir = await mkdtemp(join(tmpdir(), "callsight-e2e-"))
  const database = await acquireFreshDatabaseUrl(options.templates?.database)
  // the embedded database: the run's migrated data directory (DatabaseTemplate.ts), where the server opens it
  const template = options.templates?.pgliteDir
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

  const ready = untilReady(
    url,
    Date.now() + (options.readyTimeoutMs ?? 90_000),
    () => (exit === undefined ? undefined : `callsight serve exited (${exit.code ?? exit.signal}) before it was ready`)
  ).catch(async (error: Error) => {
    await stop(5_000)
    throw new Error(`${error.message}:\n${output}`)
  })

  return { url, adminKey, pid: child.pid!, exited, output: () => output, stop, env: serverEnv, ready }
}
