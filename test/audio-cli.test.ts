/**
 * End to end through the `callsight` command: upload (with --wait, --json, --report), status,
 * report and result against the real `callsight serve` and its analysis workers, on the fixture
 * calls; exit codes 0, 1 (a failed analysis), 2 (usage) and 3 (service). The commands run in this
 * process (`cliInProcess`, test/utils/CliInProcess.ts, which keeps what they write to stdout and
 * stderr themselves too: the report, the stages), but where the process is what is checked
 * (`runCli`): stdout holding the JSON alone after a wait, the whole report reaching a pipe before
 * the process exits, the exit code 1 a shell sees; and `serve --no-worker` beside `worker`.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { existsSync } from "node:fs"
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { FIXTURE_FILES, writeWavClip } from "./utils/Audio.js"
import { cliInProcess } from "./utils/CliInProcess.js"
import { runCli, sharedServer, startCli, startServer } from "./utils/Server.js"

const CREDITS = 10
const WAIT_MS = 240_000

let server: { readonly url: string; readonly adminKey: string }
let scratch: string
let clientId = ""
let tenantEnv: Record<string, string> = {}

beforeAll(async () => {
  server = await sharedServer()
  scratch = await mkdtemp(join(tmpdir(), "callsight-audio-cli-"))
  const created = await cliInProcess(["admin", "create-tenant", "--name", "CLI Audio", "--credits", String(CREDITS), "--json"], {
    CALLSIGHT_URL: server.url,
    CALLSIGHT_ADMIN_KEY: server.adminKey
  })
  expect(created.code).toBe(0)
  const tenant = JSON.parse(created.stdout) as { client_id: string; api_key: string }
  clientId = tenant.client_id
  tenantEnv = { CALLSIGHT_URL: server.url, CALLSIGHT_API_KEY: tenant.api_key }
})

afterAll(async () => {
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true })
})

const completed: Record<"wav" | "mp3" | "m4a" | "stereo", string> = { wav: "", mp3: "", m4a: "", stereo: "" }

const statusJson = (stdout: string) =>
  JSON.parse(stdout) as {
    call_id: string
    status: string
    stage: string
    credits_charged: number
    external_call_id: string | null
    error: { code: string } | null
  }

describe("callsight upload / status / report / result", () => {
  it("analyses the four fixture calls to completed", { timeout: WAIT_MS + 30_000 }, async () => {
    const reportFile = join(scratch, "m4a-report.html")
    const [wav, mp3, m4a, stereo] = await Promise.all([
      // no --wait: the 202 answer in words, then `status --wait --json`
      cliInProcess(["upload", FIXTURE_FILES.wav, "--external-id", "cli-wav"], tenantEnv),
      // --wait --json: only the final status on stdout (a process of its own: nothing else reaches it)
      runCli(["upload", FIXTURE_FILES.mp3, "--external-id", "cli-mp3", "--wait", "--json"], tenantEnv),
      // --report: waits, then writes the report
      cliInProcess(["upload", FIXTURE_FILES.m4a, "--report", reportFile], tenantEnv),
      // --json without --wait: the 202 answer as JSON
      cliInProcess(["upload", FIXTURE_FILES.stereo, "--idempotency-key", "stereo-1", "--json"], tenantEnv)
    ])

    expect(wav.code, wav.stderr).toBe(0)
    const wavId = /call (\S+) \(queued\)/.exec(wav.stdout)?.[1]
    expect(wavId, wav.stdout).toBeDefined()
    expect(wav.stdout).toContain(`/reports/${wavId}/html`)
    const wavFinal = await cliInProcess(["status", wavId!, "--wait", "--json"], tenantEnv)
    expect(wavFinal.code, wavFinal.stderr).toBe(0)
    expect(statusJson(wavFinal.stdout)).toMatchObject({ call_id: wavId, status: "completed", external_call_id: "cli-wav" })
    completed.wav = wavId!

    expect(mp3.code, mp3.stderr).toBe(0)
    const mp3Final = statusJson(mp3.stdout)
    expect(mp3Final).toMatchObject({ status: "completed", stage: "done", credits_charged: 1, external_call_id: "cli-mp3" })
    completed.mp3 = mp3Final.call_id

    expect(m4a.code, m4a.stderr).toBe(0)
    expect(m4a.stdout).toMatch(/: completed/)
    const m4aId = /call (\S+)\./.exec(m4a.stdout)?.[1]
    expect(m4aId).toBeDefined()
    // not a terminal: no progress bar; the stages are lines on stderr
    expect(m4a.stderr).not.toContain("\r")
    expect(m4a.stderr).toMatch(new RegExp(`^${m4aId}: (queued|processing)`, "m"))
    expect(m4a.stderr).toContain(`Wrote the report of ${m4aId} to ${reportFile}`)
    const m4aReport = await readFile(reportFile, "utf8")
    expect(m4aReport).toContain(m4aId)
    expect(m4aReport).toMatch(/<svg[\s>]/)
    completed.m4a = m4aId!

    expect(stereo.code, stereo.stderr).toBe(0)
    expect(stereo.stderr).toBe("")
    const accepted = JSON.parse(stereo.stdout) as { call_id: string; status: string; report_url: string }
    expect(accepted.status).toBe("queued")
    const stereoFinal = await cliInProcess(["status", accepted.call_id, "--wait", "--json"], tenantEnv)
    expect(stereoFinal.code, stereoFinal.stderr).toBe(0)
    expect(statusJson(stereoFinal.stdout).status).toBe("completed")
    completed.stereo = accepted.call_id

    // the same key and file: the same call, no new analysis
    const replay = await cliInProcess(["upload", FIXTURE_FILES.stereo, "--idempotency-key", "stereo-1", "--json"], tenantEnv)
    expect(replay.code).toBe(0)
    expect(JSON.parse(replay.stdout).call_id).toBe(accepted.call_id)
  })

  it("status prints the status in words, or as JSON", async () => {
    const words = await cliInProcess(["status", completed.mp3], tenantEnv)
    expect(words.code).toBe(0)
    expect(words.stdout).toContain(`${completed.mp3}: completed`)
    expect(words.stdout).toMatch(/credits charged:\s+1/)
    // acoustic-only: 2 of 6 dimensions, a partial overall score
    expect(words.stdout).toMatch(/overall score:\s+\d+, partial \(2 of 6\)/)
    const json = await cliInProcess(["status", completed.wav, "--json"], tenantEnv)
    expect(json.code).toBe(0)
    expect(statusJson(json.stdout).status).toBe("completed")
    expect(JSON.parse(json.stdout).summary.overall_basis).toEqual({ assessed: 2, of: 6, partial: true })
  })

  it("report prints the HTML report on stdout, or writes it with -o", async () => {
    for (const [name, callId] of Object.entries(completed)) {
      // one a process of its own: the whole report reaches the pipe before the process exits
      const result = await (name === "wav" ? runCli : cliInProcess)(["report", callId], tenantEnv)
      expect(result.code, result.stderr).toBe(0)
      expect(result.stdout).toContain(callId)
      expect(result.stdout).toMatch(/<svg[\s>]/)
      expect(result.stdout.trimStart().toLowerCase()).toMatch(/^<!doctype html>/)
      expect(result.stdout.trimEnd().toLowerCase()).toMatch(/<\/html>$/)
    }
    const out = join(scratch, "stereo.html")
    const written = await cliInProcess(["report", completed.stereo, "-o", out], tenantEnv)
    expect(written.code).toBe(0)
    expect(written.stdout).toBe("")
    expect(await readFile(out, "utf8")).toContain(completed.stereo)
  })

  it("result --json prints the whole analysis", async () => {
    for (const [name, callId] of Object.entries(completed)) {
      const result = await cliInProcess(["result", callId, "--json"], tenantEnv)
      expect(result.code, result.stderr).toBe(0)
      const analysis = JSON.parse(result.stdout)
      expect(analysis.call_id).toBe(callId)
      expect(analysis.status).toBe("completed")
      expect(analysis.speaker_turns.length, name).toBeGreaterThan(0)
      expect(analysis.metrics, name).not.toBeNull()
      expect(analysis.scorecard, name).not.toBeNull()
    }
    const words = await cliInProcess(["result", completed.stereo], tenantEnv)
    expect(words.code).toBe(0)
    // acoustic-only: the overall rests on 2 of 6 dimensions and says so, with no grade
    expect(words.stdout).toMatch(/Scorecard: overall \d+, partial \(2 of 6\)\n/)
    expect(JSON.parse((await cliInProcess(["result", completed.stereo, "--json"], tenantEnv)).stdout).scorecard.overall_basis)
      .toEqual({ assessed: 2, of: 6, partial: true })
    expect(words.stdout).toMatch(/speaker turns/)
  })

  it("a failed analysis exits 1: a 1-second clip is too_short, takes no credit and has no report", { timeout: 120_000 }, async () => {
    const clip = await writeWavClip(FIXTURE_FILES.stereo, join(scratch, "one-second.wav"), 1)
    // a process of its own: the exit code a shell sees, and the final status alone on stdout
    const waited = await runCli(["upload", clip, "--wait", "--json"], tenantEnv)
    expect(waited.code, waited.stderr).toBe(1)
    const final = statusJson(waited.stdout)
    expect(final.status).toBe("failed")
    expect(final.error?.code).toBe("too_short")
    expect(final.credits_charged).toBe(0)
    expect(waited.stderr).toMatch(/too_short/)

    const words = await cliInProcess(["upload", clip, "--wait"], tenantEnv)
    expect(words.code).toBe(1)
    expect(words.stderr).toMatch(/failed: too_short/)

    const status = await cliInProcess(["status", final.call_id, "--json"], tenantEnv)
    expect(status.code).toBe(1)
    expect(statusJson(status.stdout).status).toBe("failed")

    const report = await cliInProcess(["report", final.call_id], tenantEnv)
    expect(report.code).toBe(1)
    expect(report.stdout).toBe("")
    expect(report.stderr).toMatch(/no report/)

    const result = await cliInProcess(["result", final.call_id, "--json"], tenantEnv)
    expect(result.code).toBe(1)
    expect(JSON.parse(result.stdout).error.code).toBe("too_short")
  })

  it("each completed call took exactly one credit", async () => {
    const granted = await cliInProcess(["admin", "grant-credits", clientId, "1", "--json"], {
      CALLSIGHT_URL: server.url,
      CALLSIGHT_ADMIN_KEY: server.adminKey
    })
    expect(granted.code).toBe(0)
    expect(JSON.parse(granted.stdout)).toEqual({ client_id: clientId, balance: CREDITS - Object.keys(completed).length + 1 })
  })

  it("usage errors exit 2: no file, no such file, no key, a bad --timeout", async () => {
    const noFile = await cliInProcess(["upload"], tenantEnv)
    expect(noFile.code).toBe(2)
    expect(noFile.stdout).toBe("")

    const missing = join(scratch, "does-not-exist.wav")
    const noSuchFile = await cliInProcess(["upload", missing, "--json"], tenantEnv)
    expect(noSuchFile.code).toBe(2)
    expect(noSuchFile.stdout).toBe("")
    expect(noSuchFile.stderr).toContain(missing)

    const noKey = await cliInProcess(["status", completed.wav], { CALLSIGHT_URL: server.url })
    expect(noKey.code).toBe(2)
    expect(noKey.stderr).toMatch(/API key/)

    const badTimeout = await cliInProcess(["status", completed.wav, "--wait", "--timeout", "0"], tenantEnv)
    expect(badTimeout.code).toBe(2)

    const noCallId = await cliInProcess(["report"], tenantEnv)
    expect(noCallId.code).toBe(2)

    // the parser's own check of FILE has the prefix of every other error
    const directory = await cliInProcess(["upload", scratch], tenantEnv)
    expect(directory.code).toBe(2)
    expect(directory.stderr).toBe(`callsight: Expected path '${scratch}' to be a regular file\n`)
  })

  it("a file the service refuses is the user's input: not audio (415) and empty (422) exit 2, naming the file", async () => {
    const text = join(scratch, "notes.txt")
    await writeFile(text, "these are meeting notes, not a recording\n")
    const notAudio = await cliInProcess(["upload", text, "--json"], tenantEnv)
    expect(notAudio.code).toBe(2)
    expect(notAudio.stdout).toBe("")
    expect(notAudio.stderr).toBe(`callsight: the service refused ${text}: the file is not MP3, WAV or M4A audio (415)\n`)

    const empty = join(scratch, "empty.wav")
    await writeFile(empty, "")
    const emptyFile = await cliInProcess(["upload", empty], tenantEnv)
    expect(emptyFile.code).toBe(2)
    expect(emptyFile.stdout).toBe("")
    expect(emptyFile.stderr).toBe(`callsight: the service refused ${empty}: the file is empty (422)\n`)
  })

  it("service errors exit 3: a wrong key, an unknown call", async () => {
    const wrongKey = await cliInProcess(["upload", FIXTURE_FILES.wav, "--json"], { ...tenantEnv, CALLSIGHT_API_KEY: "csk_wrong" })
    expect(wrongKey.code).toBe(3)
    expect(wrongKey.stdout).toBe("")
    expect(wrongKey.stderr).toMatch(/401/)
    expect(wrongKey.stderr).toMatch(/unauthorized/i)

    const wrongKeyStatus = await cliInProcess(["status", completed.wav], { ...tenantEnv, CALLSIGHT_API_KEY: "csk_wrong" })
    expect(wrongKeyStatus.code).toBe(3)

    const unknown = await cliInProcess(["result", "call_doesnotexist", "--json"], tenantEnv)
    expect(unknown.code).toBe(3)
    expect(unknown.stdout).toBe("")
    expect(unknown.stderr).toMatch(/404/)
  })

  it("--help lists the audio commands and the worker", async () => {
    const help = await cliInProcess(["--help"])
    expect(help.code).toBe(0)
    for (const command of ["upload", "status", "report", "result", "worker", "serve"]) expect(help.stdout).toContain(command)
    const serveHelp = await cliInProcess(["serve", "--help"])
    expect(serveHelp.stdout).toContain("--no-worker")
    expect(serveHelp.stdout).not.toMatch(/no worker yet|later release/)
    expect(existsSync(FIXTURE_FILES.wav)).toBe(true)
  })
})

describe("callsight serve --no-worker, callsight worker", () => {
  it("--no-worker leaves an upload queued; `callsight worker` on the same data analyses it", { timeout: WAIT_MS + 60_000 }, async () => {
    const httpOnly = await startServer({ args: ["serve", "--no-worker"] })
    try {
      const created = await cliInProcess(["admin", "create-tenant", "--name", "Split", "--credits", "2", "--json"], {
        CALLSIGHT_URL: httpOnly.url,
        CALLSIGHT_ADMIN_KEY: httpOnly.adminKey
      })
      const env = { CALLSIGHT_URL: httpOnly.url, CALLSIGHT_API_KEY: JSON.parse(created.stdout).api_key as string }
      const uploaded = await cliInProcess(["upload", FIXTURE_FILES.mp3, "--json"], env)
      expect(uploaded.code, uploaded.stderr).toBe(0)
      const callId = JSON.parse(uploaded.stdout).call_id as string
      await new Promise((r) => setTimeout(r, 3_000))
      const queued = await cliInProcess(["status", callId, "--json"], env)
      expect(statusJson(queued.stdout)).toMatchObject({ status: "queued", stage: "queued" })

      // The embedded database belongs to one process: a second process needs PostgreSQL.
      if (!process.env.TEST_DATABASE_URL) return
      const worker = startCli(["worker"], httpOnly.env)
      try {
        const done = await cliInProcess(["status", callId, "--wait", "--json"], env)
        expect(done.code, `${done.stderr}\n${worker.output()}`).toBe(0)
        expect(statusJson(done.stdout)).toMatchObject({ status: "completed", credits_charged: 1 })
      } finally {
        expect(await worker.stop()).toEqual({ code: 0, signal: null })
      }
    } finally {
      await httpOnly.stop()
    }
  })
})
