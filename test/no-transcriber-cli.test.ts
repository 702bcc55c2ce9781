/**
 * `callsight upload` and `callsight status` print the notices of their answers, run in process
 * (test/utils/CliInProcess.ts) against the real service in process (no workers: the call stays
 * queued): a tenant without a speech-to-text provider reads that the content dimensions need one
 * and how to configure it; a tenant whose flag names a provider reads no such note.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { createTenant, setFlags } from "../packages/server/test/utils/AudioRequests.js"
import { testServerLayer } from "../packages/server/test/utils/TestServer.js"
import { runCli, serverUrl } from "./utils/CliInProcess.js"
import { fixturePath } from "./utils/Fixtures.js"

const NOTE = /^Note \(no_transcriber\): No speech-to-text provider is configured for this tenant: the call will be analysed from its audio alone\. Discovery, Objection handling, Value and Next steps need a speech-to-text provider/

describe("callsight upload and status without a speech-to-text provider", () => {
  layer(testServerLayer({ deepgramApiKey: Option.some(Redacted.make("dg-cli-key")) }, { workers: false }), { excludeTestServices: true })(
    "a server with TRANSCRIBER=none",
    (it) => {
      it.effect("upload and status print the note and how to configure a provider; --json carries the notices", () =>
        Effect.gen(function* () {
          const url = yield* serverUrl
          const tenant = yield* createTenant(5)
          const env = { CALLSIGHT_URL: url, CALLSIGHT_API_KEY: tenant.api_key }

          const uploaded = yield* runCli(["upload", fixturePath("demo-objection.mp3")], env)
          expect(uploaded.code, uploaded.stderr.join("\n")).toBe(0)
          const callId = /call (call_[0-9a-f]+) \(queued\)/.exec(uploaded.stdout[0]!)![1]!
          const note = uploaded.stdout.findIndex((line) => line.startsWith("Note (no_transcriber)"))
          expect(uploaded.stdout[note]).toMatch(NOTE)
          expect(uploaded.stdout[note + 1]).toMatch(/^ {2}How: Save a speech-to-text key in the portal's integrations \(PUT \/v1\/client-portal\/integrations\/llm/)
          expect(uploaded.stdout[note + 1]).toContain("set TRANSCRIBER (deepgram, assemblyai or openai)")
          expect(uploaded.stdout.at(-1)).toBe(`Wait for it with: callsight status ${callId} --wait`)

          const status = yield* runCli(["status", callId], env)
          expect(status.code, status.stderr.join("\n")).toBe(0)
          expect(status.stdout[0]).toMatch(new RegExp(`^${callId}: queued`))
          expect(status.stdout.find((line) => line.startsWith("Note ("))).toMatch(NOTE)

          const json = yield* runCli(["upload", fixturePath("demo-objection.mp3"), "--json"], env)
          expect(json.code).toBe(0)
          const accepted = JSON.parse(json.stdout.join("\n"))
          expect(accepted.notices).toEqual([
            expect.objectContaining({ code: "no_transcriber", decided_from: "configuration", dimensions: ["discovery", "objection_handling", "value", "next_steps"] })
          ])
        }))

      it.effect("a tenant with a provider reads no note", () =>
        Effect.gen(function* () {
          const url = yield* serverUrl
          const tenant = yield* createTenant(5)
          yield* setFlags(tenant.client_id, { transcriber: "deepgram" })
          const env = { CALLSIGHT_URL: url, CALLSIGHT_API_KEY: tenant.api_key }
          const uploaded = yield* runCli(["upload", fixturePath("demo-objection.mp3")], env)
          expect(uploaded.code, uploaded.stderr.join("\n")).toBe(0)
          expect(uploaded.stdout.some((line) => line.startsWith("Note ("))).toBe(false)
          const callId = /call (call_[0-9a-f]+) \(queued\)/.exec(uploaded.stdout[0]!)![1]!
          const status = yield* runCli(["status", callId, "--json"], env)
          expect(JSON.parse(status.stdout.join("\n"))).not.toHaveProperty("notices")
        }))
    }
  )
})
