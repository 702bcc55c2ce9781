/**
 * Transcripts through the `callsight` command against `callsight serve` configured as an operator
 * would (TRANSCRIBER, DEEPGRAM_API_KEY, DEEPGRAM_BASE_URL in the environment), with a local server
 * speaking Deepgram's protocol; and a server that refuses to start without the provider's key.
 * The commands run in this process (`cliInProcess`), but the upload that waits (`runCli`): its
 * exit code as a shell sees it, and stdout holding the JSON alone after the wait.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import { sha256, type SpeechProviderServer, startDeepgram } from "../packages/server/test/utils/SpeechProviders.js"
import { fixture, fixturePath } from "./utils/Fixtures.js"
import { cliInProcess } from "./utils/CliInProcess.js"
import { runCli, type RunningServer, startServer } from "./utils/Server.js"

const KEY = "dg-cli-key"
const WAIT_MS = 120_000

let scope: Scope.CloseableScope
let deepgram: SpeechProviderServer
let server: RunningServer
let tenantEnv: Record<string, string> = {}

beforeAll(async () => {
  scope = Effect.runSync(Scope.make())
  deepgram = await Effect.runPromise(Scope.extend(startDeepgram({ apiKey: KEY }), scope))
  server = await startServer({
    env: { TRANSCRIBER: "deepgram", DEEPGRAM_API_KEY: KEY, DEEPGRAM_BASE_URL: deepgram.url, WORKER_CONCURRENCY: "1" }
  })
  const created = await cliInProcess(["admin", "create-tenant", "--name", "CLI Transcripts", "--credits", "3", "--json"], {
    CALLSIGHT_URL: server.url,
    CALLSIGHT_ADMIN_KEY: server.adminKey
  })
  expect(created.code, created.stderr).toBe(0)
  tenantEnv = { CALLSIGHT_URL: server.url, CALLSIGHT_API_KEY: (JSON.parse(created.stdout) as { api_key: string }).api_key }
})

afterAll(async () => {
  await server?.stop()
  if (scope !== undefined) await Effect.runPromise(Scope.close(scope, Exit.void))
})

describe("callsight result with a speech-to-text provider", () => {
  it("shows the qualification, objections, next steps and who transcribed the call", { timeout: WAIT_MS }, async () => {
    // a process of its own: the exit code a shell sees, and the final status alone on stdout
    const uploaded = await runCli(["upload", fixturePath("discovery-short.mp3"), "--wait", "--json"], tenantEnv)
    expect(uploaded.code, uploaded.stderr).toBe(0)
    const callId = (JSON.parse(uploaded.stdout) as { call_id: string; status: string }).call_id

    // the server sent the file to DEEPGRAM_BASE_URL with DEEPGRAM_API_KEY
    const sent = deepgram.requests.filter((r) => r.bodySha256 === sha256(fixture("discovery-short.mp3")))
    expect(sent).toHaveLength(1)
    expect(sent[0]!.headers["authorization"]).toBe(`Token ${KEY}`)

    const json = await cliInProcess(["result", callId, "--json"], tenantEnv)
    expect(json.code, json.stderr).toBe(0)
    const analysis = JSON.parse(json.stdout)
    expect(analysis.transcription).toMatchObject({ provider: "deepgram", model: "nova-3" })
    expect(analysis.next_steps.map((n: { due: string }) => n.due)).toEqual(["Tuesday 14:00"])

    const words = await cliInProcess(["result", callId], tenantEnv)
    expect(words.code, words.stderr).toBe(0)
    expect(words.stdout).toMatch(/Qualification \(MEDDPICC\): \d+ of 16 points/)
    expect(words.stdout).toMatch(/economic_buyer\s+2\s+“.*VP of sales/)
    expect(words.stdout).toMatch(/Next steps:\n\s+01:0\d Tuesday 14:00, S\d/)
    // the summary: the agreed step with its quotes, as the JSON has it
    expect(analysis.summary.agreed[0].text).toBe("A next step for the rep, due Tuesday 14:00; the buyer side agreed.")
    expect(words.stdout).toMatch(/Summary:\n  needs  .+\n/)
    expect(words.stdout).toContain("  agreed A next step for the rep, due Tuesday 14:00; the buyer side agreed.\n")
    expect(words.stdout).toMatch(/\d\d:\d\d S\d  “Tuesday at two works\.”/)
    expect(words.stdout).toMatch(/competitor\s+question back/)
    expect(words.stdout).toMatch(/transcript of \d+ segments \(deepgram nova-3, its speakers agree with ours on \d+ %\)/)
  })
})

describe("configuration", () => {
  it("TRANSCRIBER=deepgram without DEEPGRAM_API_KEY stops the server at start, naming the variable", { timeout: 60_000 }, async () => {
    const refused = await startServer({ env: { TRANSCRIBER: "deepgram" } }).then(
      async (running) => {
        await running.stop()
        return "started"
      },
      (error: unknown) => String(error)
    )
    expect(refused).toMatch(/DEEPGRAM_API_KEY/)
  })
})
