/**
 * The call type and the stereo rep channel through the SDK and the CLI (issue 35), end to end
 * against the real `callsight serve` (no speech-to-text provider: the analysis is acoustic-only):
 * `uploadAudio(…, { callType, repChannel })` and `callsight upload --call-type … --rep-channel …`
 * send the form fields, the status and the call's JSON show them, the analysis uses them (a type
 * given weighs the scorecard, a channel set takes the rep; `auto` with no words goes by the
 * acoustic cues and says so), and `callsight result` prints them.
 */
import { createCallsightClient } from "@callsight/client"
import { beforeAll, describe, expect, it } from "@effect/vitest"
import { FIXTURE_FILES } from "./utils/Audio.js"
import { cliInProcess } from "./utils/CliInProcess.js"
import { sharedServer } from "./utils/Server.js"

const WAIT_MS = 240_000

let tenantEnv: Record<string, string> = {}
let client: ReturnType<typeof createCallsightClient>

beforeAll(async () => {
  const server = await sharedServer()
  const admin = createCallsightClient({ baseUrl: server.url, apiKey: server.adminKey })
  const tenant = await admin.admin.createClient({ company_name: "Call Setup Co", credits: 5 })
  client = createCallsightClient({ baseUrl: server.url, apiKey: tenant.api_key })
  tenantEnv = { CALLSIGHT_URL: server.url, CALLSIGHT_API_KEY: tenant.api_key }
})

describe("call type and rep channel through the SDK and the CLI", () => {
  it("the SDK sends callType and repChannel; the status and the call show them, and the analysis uses them", { timeout: WAIT_MS }, async () => {
    const accepted = await client.uploadAudio(FIXTURE_FILES.stereo, { callType: "demo", repChannel: "right" })
    const queued = await client.getAnalysis(accepted.call_id)
    expect(queued.requested_call_type).toBe("demo")
    expect(queued.requested_rep_channel).toBe("right")
    const done = await client.waitForCompletion(accepted.call_id, { timeoutMs: WAIT_MS - 10_000 })
    expect(done.status).toBe("completed")
    const call = await client.getCall(accepted.call_id)
    expect(call.requested_call_type).toBe("demo")
    expect(call.call_type).toEqual({ type: "demo", source: "given", confidence: 1, reason: "given at upload" })
    expect(call.rep_channel).toEqual({ requested: "right", chosen: "right", reason: "set to the right channel" })
    expect(call.speakers.find((s) => s.speaker === "S2")?.role).toBe("rep")
    // acoustic-only: the two dimensions judged from who spoke when, with the demo's weights
    expect(call.scorecard?.dimensions.find((d) => d.dimension === "listening")?.weight).toBe(0.15)
    const report = await client.getReportHtml(accepted.call_id)
    expect(report).toContain("<dt>Call type</dt><dd>Demo · given</dd>")
    expect(report).toContain("<dt>Rep channel</dt><dd>right (set)</dd>")
  })

  it("callsight upload --call-type --rep-channel: stored, used, and printed by result", { timeout: WAIT_MS }, async () => {
    const up = await cliInProcess(
      ["upload", FIXTURE_FILES.stereo, "--call-type", "negotiation", "--rep-channel", "auto", "--wait", "--json"],
      tenantEnv
    )
    expect(up.code, up.stderr).toBe(0)
    const status = JSON.parse(up.stdout) as { call_id: string; status: string; requested_call_type: string; requested_rep_channel: string }
    expect(status).toMatchObject({ status: "completed", requested_call_type: "negotiation", requested_rep_channel: "auto" })
    const json = await cliInProcess(["result", status.call_id, "--json"], tenantEnv)
    const call = JSON.parse(json.stdout)
    expect(call.call_type).toEqual({ type: "negotiation", source: "given", confidence: 1, reason: "given at upload" })
    // no words: the acoustic cues decide, and the reason says so (the rep of this call is on the left and opens it)
    expect(call.rep_channel.requested).toBe("auto")
    expect(call.rep_channel.chosen).toBe("left")
    expect(call.rep_channel.reason).toMatch(/^auto, from the acoustic cues \(no words to go on\): the left channel spoke first/)
    const text = await cliInProcess(["result", status.call_id], tenantEnv)
    expect(text.code).toBe(0)
    expect(text.stdout).toContain("call type:   negotiation (given): given at upload")
    expect(text.stdout).toMatch(/rep channel: left \(auto\): auto, from the acoustic cues/)
  })

  it("a type or a channel the CLI does not know is a usage error (exit 2), and nothing is uploaded", async () => {
    const cases = [
      [["--call-type", "webinar"], "--call-type must be one of cold_call, discovery, demo, negotiation, renewal, support_upsell"],
      [["--rep-channel", "middle"], "--rep-channel must be one of left, right, auto"]
    ] as const
    for (const [args, message] of cases) {
      const out = await cliInProcess(["upload", FIXTURE_FILES.stereo, ...args], tenantEnv)
      expect(out.code).toBe(2)
      expect(out.stderr).toContain(message)
    }
    expect((await client.listCalls({ limit: 10 })).calls).toHaveLength(2)
  })
})
