/**
 * A worker killed (SIGKILL) in the middle of an analysis: its lease expires, the restarted
 * service claims the job again, the call completes, and exactly one credit is used.
 */
import { afterAll, describe, expect, inject, it } from "vitest"
import { type ChildProcess, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { cp, mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { wavOf, wavSamples } from "./utils/Fixtures.js"
import { acquireTestDatabaseUrl } from "../packages/server/test/utils/TestDatabase.js"
import { CLI_BIN, freePort, ROOT } from "./utils/Server.js"

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const cleanups: Array<() => Promise<unknown>> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined)
})

interface Service {
  readonly child: ChildProcess
  readonly exited: Promise<number | null>
  readonly output: () => string
}

const serve = async (env: Record<string, string | undefined>, url: string): Promise<Service> => {
  const childEnv: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("VITEST") && v !== undefined) childEnv[k] = v
  delete childEnv.DATABASE_URL
  for (const [k, v] of Object.entries(env)) if (v !== undefined) childEnv[k] = v
  let output = ""
  const child = spawn(process.execPath, [CLI_BIN, "serve"], { cwd: ROOT, env: childEnv, stdio: ["ignore", "pipe", "pipe"] })
  child.stdout?.on("data", (c: Buffer) => (output += c.toString()))
  child.stderr?.on("data", (c: Buffer) => (output += c.toString()))
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
  })
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`serve exited early:\n${output}`)
    if (await fetch(`${url}/ready`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false)) return { child, exited, output: () => output }
    await sleep(100)
  }
  throw new Error(`serve not ready:\n${output}`)
}

describe("a worker killed mid-job", () => {
  it("is replaced: the job completes after the lease expires, with one credit", async () => {
    const port = await freePort()
    const url = `http://127.0.0.1:${port}`
    const adminKey = `adm_${randomBytes(16).toString("hex")}`
    const dataDir = await mkdtemp(join(tmpdir(), "callsight-crash-"))
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
    const database = await acquireTestDatabaseUrl()
    cleanups.push(() => database.release())
    // the embedded database: the run's migrated data directory (as startServer in utils/Server.ts
    // does), so the first start runs no migrations
    const template = inject("pgliteTemplateDir")
    if (database.url === undefined && template !== undefined) await cp(template, join(dataDir, "db"), { recursive: true })
    const env = {
      PORT: String(port),
      HOST: "127.0.0.1",
      ADMIN_API_KEY: adminKey,
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      WORKER_CONCURRENCY: "1",
      WORKER_LEASE_SECONDS: "3",
      LOG_FORMAT: "json"
    }

    // A long call (about 12 minutes), so the analysis is still running when the worker dies. Built
    // before the service starts: the upload follows the tenant's creation at once, and a pause
    // between them (23 MB built on a loaded machine) let the client reuse a keep-alive connection the
    // server was closing (EPIPE in the middle of the body).
    const samples = wavSamples("discovery-short.wav")
    const long = new Int16Array(samples.length * 10)
    for (let i = 0; i < 10; i++) long.set(samples, i * samples.length)
    const form = new FormData()
    form.append("audio", new Blob([wavOf(long)]), "long.wav")

    const first = await serve(env, url)
    const tenant = await fetch(`${url}/v1/internal/admin/clients`, {
      method: "POST",
      headers: { "x-api-key": adminKey, "content-type": "application/json" },
      body: JSON.stringify({ company_name: "Crash Test", credits: 3 })
    }).then(async (r) => {
      expect(r.status, first.output().slice(-3000)).toBe(201)
      return r.json() as Promise<{ client_id: string; api_key: string }>
    })

    const accepted = await fetch(`${url}/v1/teams/audio`, {
      method: "POST",
      headers: { "x-api-key": tenant.api_key },
      body: form
    }).then(async (r) => {
      expect(r.status, first.output().slice(-3000)).toBe(202)
      return r.json() as Promise<{ call_id: string }>
    })
    const statusUrl = `${url}/analysis/${accepted.call_id}`
    const status = () =>
      fetch(statusUrl, { headers: { "x-api-key": tenant.api_key }, signal: AbortSignal.timeout(10_000) }).then((r) => r.json() as Promise<any>)

    let seen = await status()
    for (let i = 0; i < 600 && seen.status !== "processing"; i++) {
      await sleep(25)
      seen = await status()
    }
    expect(seen.status).toBe("processing")
    first.child.kill("SIGKILL")
    await first.exited

    // A new port: the test's HTTP client must not reuse a connection to the killed process.
    const port2 = await freePort()
    const url2 = `http://127.0.0.1:${port2}`
    const second = await serve({ ...env, PORT: String(port2) }, url2)
    const status2 = () =>
      fetch(`${url2}/analysis/${accepted.call_id}`, {
        headers: { "x-api-key": tenant.api_key },
        signal: AbortSignal.timeout(10_000)
      }).then((r) => r.json() as Promise<any>)
    let done = await status2()
    for (let i = 0; i < 1200 && done.status !== "completed" && done.status !== "failed"; i++) {
      await sleep(100)
      done = await status2()
    }
    expect(done.status, second.output().slice(-3000)).toBe("completed")
    expect(done.credits_charged).toBe(1)
    expect(done.duration_s).toBeGreaterThan(700)

    const balance = await fetch(`${url2}/v1/internal/admin/clients/${tenant.client_id}/credits`, {
      method: "POST",
      headers: { "x-api-key": adminKey, "content-type": "application/json" },
      body: JSON.stringify({ amount: 1, reason: "probe" })
    }).then((r) => r.json() as Promise<{ balance: number }>)
    expect(balance.balance).toBe(3 - 1 + 1)

    second.child.kill("SIGTERM")
    expect(await second.exited).toBe(0)
  }, 240_000)
})
