/**
 * @callsight/client as its README shows it. The README (packages/client/README.md) carries every
 * example of packages/client/examples as it is written, and each example runs, as a user runs it
 * (`tsx`, here on the client's sources), against the real service in-process on a random port with
 * a fresh database and its analysis workers; what each prints is checked against what the service
 * answers. Also: `overall_score` is one value wherever a call is answered (status, call, list,
 * webhook), and the service's errors reach the Promise client with their tag named once.
 */
import { Api, CallsightClient, CallsightError, createCallsightClient } from "@callsight/client"
import { HttpServer } from "@effect/platform"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, ManagedRuntime } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { ADMIN_KEY, testServerLayer } from "../packages/server/test/utils/TestServer.js"
import { FIXTURE_FILES, writeWavClip } from "./utils/Audio.js"
import { freePort, ROOT } from "./utils/Server.js"

const EXAMPLES_DIR = join(ROOT, "packages/client/examples")
const EXAMPLES = ["analyze-call.ts", "effect-agent.ts", "errors.ts", "own-http-client.ts", "webhook-receiver.ts"]
const ANALYSIS_TIMEOUT_MS = 240_000

/** The environment of an example: no vitest, no inherited Callsight variables, plus `extra`. */
const exampleEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(VITEST|CALLSIGHT_|npm_)/.test(name) || ["NODE_OPTIONS", "PORT"].includes(name)) continue
    env[name] = value
  }
  return { ...env, NO_COLOR: "1", ...extra }
}

/** `node --import tsx --conditions=source examples/<name> ...args`, as `npx tsx` runs it, on the client's sources. */
const startExample = (name: string, args: ReadonlyArray<string>, env: Record<string, string>): ChildProcess =>
  spawn(
    process.execPath,
    ["--conditions=source", "--import", pathToFileURL(join(ROOT, "node_modules/tsx/dist/loader.mjs")).href, join(EXAMPLES_DIR, name), ...args],
    { cwd: scratch, env: exampleEnv(env), stdio: ["ignore", "pipe", "pipe"] }
  )

interface Run {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs an example to its end (killed after `timeoutMs`). */
const runExample = (name: string, args: ReadonlyArray<string>, env: Record<string, string>, timeoutMs: number) =>
  new Promise<Run>((resolve) => {
    const child = startExample(name, args, env)
    let stdout = ""
    let stderr = ""
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs)
    child.once("exit", (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })

const expectOk = (run: Run, what: string) =>
  expect(run.code, `${what}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`).toBe(0)

const lines = (text: string) => text.split("\n").filter((line) => line !== "")

/** Resolves when `read()` matches `pattern` (polled), with the match. */
const waitFor = async (read: () => string, pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const match = read().match(pattern)
    if (match !== null) return match
    if (Date.now() > deadline) throw new Error(`no ${pattern} within ${timeoutMs} ms in:\n${read()}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

const serverUrl = Effect.map(HttpServer.HttpServer, (server) => {
  const address = server.address
  if (address._tag !== "TcpAddress") throw new Error("not TCP")
  return `http://127.0.0.1:${address.port}`
})

const runtime = ManagedRuntime.make(testServerLayer({ webhookPollMs: 100 }, { workers: true }))
let url: string
let scratch: string
let recording: string
let tenant: { client_id: string; api_key: string }
let client: ReturnType<typeof createCallsightClient>

beforeAll(async () => {
  url = await runtime.runPromise(serverUrl)
  scratch = await mkdtemp(join(tmpdir(), "callsight-client-examples-"))
  recording = await writeWavClip(FIXTURE_FILES.wav, join(scratch, "call.wav"), 20)
  const admin = createCallsightClient({ baseUrl: url, apiKey: ADMIN_KEY })
  tenant = await admin.admin.createClient({ company_name: "Examples Co", credits: 10 })
  client = createCallsightClient({ baseUrl: url, apiKey: tenant.api_key })
}, 120_000)

afterAll(async () => {
  await runtime.dispose()
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true })
})

describe("the client's README", () => {
  it("carries every example file as it is written, in a ts block", async () => {
    const readme = await readFile(join(ROOT, "packages/client/README.md"), "utf8")
    const files = (await readdir(EXAMPLES_DIR)).filter((f) => f.endsWith(".ts")).sort()
    expect(files).toEqual(EXAMPLES)
    for (const file of files) {
      const text = await readFile(join(EXAMPLES_DIR, file), "utf8")
      expect(readme, `README.md carries examples/${file}`).toContain("```ts\n" + text + "```\n")
    }
  })

  it("names every error tag of the client in its table", async () => {
    const readme = await readFile(join(ROOT, "packages/client/README.md"), "utf8")
    const table = readme.slice(readme.indexOf("| tag |"))
    for (
      const tag of [
        "Unauthorized",
        "Forbidden",
        "NotFound",
        "Conflict",
        "PaymentRequired",
        "PayloadTooLarge",
        "UnsupportedMediaType",
        "ValidationFailed",
        "TooManyRequests",
        "InternalError",
        "NotImplemented",
        "ServiceUnavailable",
        "MissingApiKey",
        "AudioSourceError",
        "WaitTimeout",
        "TransportError",
        "Timeout",
        "UnexpectedStatus",
        "DecodeError",
        "RequestError",
        "Interrupted",
        "Defect"
      ]
    ) expect(table, tag).toMatch(new RegExp(`^\\| \`${tag}\` \\|`, "m"))
  })
})

/** The call analyze-call.ts analysed. */
let analyzed: string | undefined

describe("the examples against the running service", () => {
  it("webhook-receiver.ts verifies the signed analysis.completed of the call analyze-call.ts analyses", {
    timeout: ANALYSIS_TIMEOUT_MS + 60_000
  }, async () => {
    // the endpoint, added with the tenant key through the Effect client; its secret is shown once
    const port = await freePort()
    const endpoint = await Effect.runPromise(
      Effect.flatMap(CallsightClient, (c) =>
        c.webhooks.createWebhook({
          payload: new Api.CreateWebhookRequest({ url: `http://127.0.0.1:${port}/webhooks`, events: ["analysis.completed"] })
        })).pipe(Effect.provide(CallsightClient.layer({ baseUrl: url, apiKey: tenant.api_key })))
    )
    expect(endpoint.secret).toMatch(/^whsec_/)

    const receiver = startExample("webhook-receiver.ts", [], { PORT: String(port), CALLSIGHT_WEBHOOK_SECRET: endpoint.secret })
    let received = ""
    let refused = ""
    receiver.stdout!.on("data", (chunk: Buffer) => (received += chunk.toString()))
    receiver.stderr!.on("data", (chunk: Buffer) => (refused += chunk.toString()))
    try {
      await waitFor(() => received, new RegExp(`^listening on ${port}$`, "m"), 30_000)
      // a message without a valid signature is refused
      const forged = await fetch(`http://127.0.0.1:${port}/webhooks`, {
        method: "POST",
        headers: {
          "webhook-id": "msg_forged",
          "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
          "webhook-signature": "v1,AAAA"
        },
        body: JSON.stringify({ type: "analysis.completed", data: { call_id: "call_x" } })
      })
      expect(forged.status).toBe(401)
      await waitFor(() => refused, /^refused: no matching signature$/m, 10_000)

      const run = await runExample("analyze-call.ts", [recording], { CALLSIGHT_URL: url, CALLSIGHT_API_KEY: tenant.api_key }, ANALYSIS_TIMEOUT_MS)
      expectOk(run, "analyze-call.ts")
      const callId = /^uploaded .*call\.wav: (call_[0-9a-f]+) \(queued\)$/m.exec(run.stdout)?.[1]
      expect(callId, run.stdout).toBeDefined()
      analyzed = callId

      // what it printed is what the service answers
      const call = await client.getCall(callId!)
      expect(call.status).toBe("completed")
      expect(call.external_call_id).toBe("crm-123")
      expect(lines(run.stdout)).toEqual([
        `uploaded ${recording}: ${callId} (queued)`,
        `${callId} completed: overall_score ${call.overall_score}`,
        ...call.scorecard!.dimensions.map((d) => `  ${d.dimension}: ${d.assessed ? d.score : "not assessed"}`),
        `report: ${callId}.html`
      ])
      expect(call.scorecard!.dimensions).toHaveLength(6)
      // the progress went to stderr, ending at done
      expect(lines(run.stderr).at(-1)).toBe("  done 100%")
      const report = await readFile(join(scratch, `${callId}.html`), "utf8")
      expect(report).toBe(await client.getReportHtml(callId!))
      expect(report).toContain(callId)

      // the receiver got the completion, signed, once
      await waitFor(() => received, new RegExp(`^analysis\\.completed ${callId} `, "m"), 60_000)
      expect(lines(received)).toEqual([`listening on ${port}`, `analysis.completed ${callId} overall_score ${call.overall_score}`])
      expect(lines(refused)).toEqual(["refused: no matching signature"])
    } finally {
      receiver.kill("SIGTERM")
    }
  })

  it("effect-agent.ts analyses a call with CallsightClient.layer({ baseUrl, apiKey }) as written", {
    timeout: ANALYSIS_TIMEOUT_MS + 10_000
  }, async () => {
    const run = await runExample("effect-agent.ts", [recording], { CALLSIGHT_URL: url, CALLSIGHT_API_KEY: tenant.api_key }, ANALYSIS_TIMEOUT_MS)
    expectOk(run, "effect-agent.ts")
    expect(run.stderr).not.toMatch(/Service not found/)
    const { calls } = await client.listCalls()
    const call = calls.find((c) => c.external_call_id === "crm-456")
    expect(call?.status).toBe("completed")
    const full = await client.getCall(call!.call_id)
    expect(lines(run.stdout)).toEqual([
      `${call!.call_id} completed: overall_score ${full.overall_score}, talk_ratio ${full.metrics?.talk_ratio}`
    ])
  })

  it("own-http-client.ts lists every call, two a page, through the caller's HttpClient", async () => {
    const run = await runExample("own-http-client.ts", [], { CALLSIGHT_URL: url, CALLSIGHT_API_KEY: tenant.api_key }, 60_000)
    expectOk(run, "own-http-client.ts")
    const { calls } = await client.listCalls({ limit: 200 })
    expect(calls.length).toBeGreaterThanOrEqual(2)
    expect(lines(run.stdout)).toEqual(calls.map((c) => `${c.call_id} ${c.status} overall_score ${c.overall_score}`))
  })

  it("errors.ts shows each failure with its tag, status and a message that does not repeat the tag", async () => {
    const run = await runExample("errors.ts", [], { CALLSIGHT_URL: url, CALLSIGHT_API_KEY: tenant.api_key }, 60_000)
    expectOk(run, "errors.ts")
    const out = lines(run.stdout)
    expect(out).toHaveLength(6)
    expect(out[0]).toBe("an unknown call: NotFound 404: no call call_00000000000000000000")
    expect(out[1]).toMatch(/^a wrong key: Unauthorized 401: \S/)
    expect(out[2]).toBe(
      "no key: MissingApiKey -: no API key: pass apiKey when you create the client (extensions.listCalls sends it in the X-API-Key header)"
    )
    expect(out[3]).toBe("a file that is not there: AudioSourceError -: no such file: no-such-file.wav")
    expect(out[4]).toMatch(/^a file that is not audio: UnsupportedMediaType 415: \S/)
    expect(out[5]).toMatch(/^a host that does not exist: TransportError -: GET http:\/\/callsight\.invalid\/health: fetch failed/)
    for (const line of out) {
      const [, tag, message] = /^[^:]+: (\w+) \S+: (.*)$/.exec(line)!
      expect(message, line).not.toContain(tag)
    }
  })
})

describe("one name for the overall score", () => {
  it("overall_score is scorecard.overall in getCall, and the same number in the status, the list and the Effect client", async () => {
    expect(analyzed, "analysed by the examples above").toBeDefined()
    const callId = analyzed!
    const call = await client.getCall(callId)
    expect(call.overall_score).toEqual(expect.any(Number))
    expect(call.overall_score).toBe(call.scorecard!.overall)
    const status = await client.getAnalysis(callId)
    expect(status.summary!.overall_score).toBe(call.overall_score)
    const { calls } = await client.listCalls({ limit: 200 })
    expect(calls.find((c) => c.call_id === callId)!.overall_score).toBe(call.overall_score)
    // the wire JSON has both names, and the Effect client decodes it
    const raw = await fetch(`${url}/v1/teams/calls/${callId}`, { headers: { "x-api-key": tenant.api_key } }).then((r) => r.json() as any)
    expect(raw.overall_score).toBe(call.overall_score)
    expect(raw.scorecard.overall).toBe(call.overall_score)
    const viaEffect = await Effect.runPromise(
      Effect.flatMap(CallsightClient, (c) => c.getCall(callId)).pipe(
        Effect.provide(CallsightClient.layer({ baseUrl: url, apiKey: tenant.api_key }))
      )
    )
    expect(viaEffect.overall_score).toBe(call.overall_score)
  })
})

describe("error messages from the running service", () => {
  const failure = async (promise: Promise<unknown>): Promise<CallsightError> => {
    const error = await promise.then(() => undefined, (e: unknown) => e)
    expect(error).toBeInstanceOf(CallsightError)
    return error as CallsightError
  }

  it("say what happened once: the tag is in tag, toString() and the stack's first line, not in message", async () => {
    const cases = [
      { tag: "NotFound", status: 404, error: await failure(client.getCall("call_00000000000000000000")) },
      { tag: "Unauthorized", status: 401, error: await failure(createCallsightClient({ baseUrl: url, apiKey: "csk_wrong" }).listCalls()) },
      {
        tag: "Forbidden",
        status: 403,
        error: await failure(client.admin.createClient({ company_name: "Not Allowed Co" }))
      },
      {
        tag: "UnsupportedMediaType",
        status: 415,
        error: await failure(client.uploadAudio(new TextEncoder().encode("not audio at all"), { filename: "x.mp3" }))
      },
      {
        tag: "Conflict",
        status: 409,
        error: await failure(
          createCallsightClient({ baseUrl: url, apiKey: ADMIN_KEY }).admin.grantCredits(tenant.client_id, { amount: -1000, reason: "too much" })
        )
      },
      {
        tag: "ValidationFailed",
        status: 422,
        error: await failure(createCallsightClient({ baseUrl: url, apiKey: ADMIN_KEY }).admin.createClient({ company_name: "" }))
      }
    ]
    for (const { error, status, tag } of cases) {
      expect(error.tag).toBe(tag)
      expect(error.status).toBe(status)
      expect(error.message, tag).not.toContain(tag)
      expect(error.message.length, tag).toBeGreaterThan(0)
      const body = error.body as { message?: string }
      if (typeof body.message === "string") expect(error.message).toBe(body.message)
      expect(String(error)).toBe(`CallsightError [${tag}]: ${error.message}`)
      expect(error.stack!.split("\n")[0]).toBe(`CallsightError [${tag}]: ${error.message.split("\n")[0]}`)
    }
    expect(cases[0]!.error.message).toBe("no call call_00000000000000000000")
    expect(cases[5]!.error.message).toMatch(/^body\.company_name: /)
  })
})
