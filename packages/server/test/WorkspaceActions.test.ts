/**
 * Workspace session, state, actions and channel sends (spec 4.8), end to end on the in-process
 * server with its analysis workers, a local SMTP server and a local Telegram server (messenger-a),
 * on PGlite or on PostgreSQL with TEST_DATABASE_URL. Checked: a re-analysis queues the call again,
 * records the current method version and takes no credit (the balance before and after), twice at
 * once is 409, a call whose audio is gone is 409, another tenant's call is 404; pins, recent
 * searches and the session in the state; record_outcome through the portal's outcome truth; the
 * brief and a text by e-mail and to a linked chat, 409 without a link; an audit row per action;
 * bad input 422 with `detail`.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { randomBytes } from "node:crypto"
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { METHOD_VERSION } from "@callsight/analysis"
import { balanceOf, settle, upload } from "./utils/AudioRequests.js"
import { fixture } from "../../../test/utils/Fixtures.js"
import { freshChat, startTelegramServer, type TelegramServer } from "./utils/MessengerServers.js"
import { call, tenantWithUser } from "./utils/PortalRequests.js"
import { startSmtpServer } from "./utils/SmtpServer.js"
import { Smtp } from "./utils/SmtpServerLayer.js"
import { testServerLayer } from "./utils/TestServer.js"

class Telegram extends Context.Tag("test/Telegram")<Telegram, TelegramServer>() {}

const server = Layer.unwrapScoped(Effect.gen(function* () {
  const smtp = yield* startSmtpServer
  const tg = yield* startTelegramServer
  return Layer.mergeAll(
    testServerLayer({
      smtpUrl: Option.some(Redacted.make(smtp.url)),
      signInLimitPerAddress: 1000,
      messengerABotToken: Option.some(Redacted.make(tg.botToken)),
      messengerASecretToken: Option.some(Redacted.make(tg.secretToken)),
      messengerAApiUrl: tg.url
    }, { workers: true }),
    Layer.succeed(Smtp, smtp),
    Layer.succeed(Telegram, tg)
  )
}))

const rows = <A extends object>(f: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>) =>
  Effect.orDie(Effect.flatMap(SqlClient.SqlClient, f))

const action = (session: string, name: string, params?: Record<string, unknown>) =>
  call("POST", "/v1/workspace/actions/run", { session, body: params === undefined ? { action: name } : { action: name, params } })

const auditActions = (clientId: string) =>
  Effect.map(
    rows((sql) => sql<{ action: string; target_id: string | null; metadata: any }>`
      SELECT action, target_id, metadata FROM audit_logs WHERE client_id = ${clientId} AND action LIKE 'workspace.%' ORDER BY at, log_id`),
    (list) => list.map((r) => ({ action: r.action, target_id: r.target_id, metadata: r.metadata }))
  )

/** A completed call straight into the database whose audio file does not exist. */
const seedCallWithoutAudio = (clientId: string) =>
  Effect.gen(function* () {
    const callId = `call_${randomBytes(8).toString("hex")}`
    yield* rows((sql) => sql`INSERT INTO calls (call_id, client_id, status, format, blob_key, size_bytes, sha256, completed_at, method_version)
               VALUES (${callId}, ${clientId}, 'completed', 'mp3', ${`${clientId}/${callId}.mp3`}, 1, 'x', now(), 'callsight-0.1')`)
    return callId
  })

describe("workspace actions, channel, session and state", () => {
  layer(server, { excludeTestServices: true, timeout: 120_000 })("on the server with workers", (it) => {
    it.effect("reanalyze_call queues the call again, records the current method version and takes no credit", () =>
      Effect.gen(function* () {
        const acme = yield* tenantWithUser(3)
        const up = yield* upload(acme.apiKey, fixture("renewal-stereo.mp3"))
        expect(up.status, JSON.stringify(up.body)).toBe(202)
        const callId = up.body.call_id as string
        expect((yield* settle(acme.apiKey, callId)).status).toBe("completed")
        const before = yield* balanceOf(acme.clientId)
        expect(before).toBe(2)
        // as if analysed by an older method
        yield* rows((sql) => sql`UPDATE calls SET method_version = 'callsight-0.9' WHERE call_id = ${callId}`)

        const first = yield* action(acme.session, "reanalyze_call", { call_id: callId })
        expect(first.status, JSON.stringify(first.body)).toBe(200)
        expect(first.body).toMatchObject({
          action: "reanalyze_call",
          status: "queued",
          result: { call_id: callId, previous_status: "completed", previous_method_version: "callsight-0.9", credit: "none" }
        })
        const again = yield* action(acme.session, "reanalyze_call", { call_id: callId })
        expect(again.status, JSON.stringify(again.body)).toBe(409)

        const settled = yield* settle(acme.apiKey, callId)
        expect(settled.status).toBe("completed")
        const [stored] = yield* rows((sql) => sql<{ method_version: string; result_version: string }>`
          SELECT method_version, result ->> 'method_version' AS result_version FROM calls WHERE call_id = ${callId}`)
        expect(stored).toEqual({ method_version: METHOD_VERSION, result_version: METHOD_VERSION })
        expect(yield* balanceOf(acme.clientId)).toBe(before)
        const charges = yield* rows((sql) => sql<{ n: number }>`
          SELECT count(*)::int AS n FROM credit_ledger WHERE call_id = ${callId} AND reason = 'analysis'`)
        expect(charges[0]!.n).toBe(1)
        const jobs = yield* rows((sql) => sql<{ state: string; attempts: number }>`SELECT state, attempts FROM analysis_jobs WHERE call_id = ${callId}`)
        expect(jobs).toEqual([{ state: "done", attempts: 1 }])

        expect(yield* auditActions(acme.clientId)).toEqual([{
          action: "workspace.reanalyze_call",
          target_id: callId,
          metadata: { call_id: callId, previous_status: "completed", previous_method_version: "callsight-0.9", credit: "none" }
        }])

        // a re-analysis that fails (the kept audio is damaged) leaves the call completed with its analysis
        const [kept] = yield* rows((sql) => sql<{ completed_at: Date }>`SELECT completed_at FROM calls WHERE call_id = ${callId}`)
        const [{ blob_key }] = yield* rows((sql) => sql<{ blob_key: string }>`SELECT blob_key FROM calls WHERE call_id = ${callId}`)
        const blobPath = readdirSync(tmpdir()).filter((d) => d.startsWith("callsight-blobs-")).map((d) => join(tmpdir(), d, blob_key))
          .find((path) => existsSync(path))!
        const audio = readFileSync(blobPath)
        writeFileSync(blobPath, Buffer.alloc(4096))
        expect((yield* action(acme.session, "reanalyze_call", { call_id: callId })).status).toBe(200)
        const failed = yield* settle(acme.apiKey, callId)
        expect(failed).toMatchObject({ status: "completed", error: null })
        const [restored] = yield* rows((sql) => sql<{ status: string; method_version: string; has_result: boolean; completed_at: Date; started_at: Date | null }>`
          SELECT status, method_version, result IS NOT NULL AS has_result, completed_at, started_at FROM calls WHERE call_id = ${callId}`)
        expect(restored).toEqual({ status: "completed", method_version: METHOD_VERSION, has_result: true, completed_at: kept!.completed_at, started_at: null })
        expect(yield* balanceOf(acme.clientId)).toBe(before)
        const failures = yield* rows((sql) => sql<{ n: number }>`
          SELECT count(*)::int AS n FROM call_events WHERE call_id = ${callId} AND type = 'analysis_failed'`)
        expect(failures[0]!.n).toBe(1)
        writeFileSync(blobPath, audio)


        // another tenant's call: 404, nothing queued, nothing audited for either
        const other = yield* tenantWithUser(1)
        const foreign = yield* action(other.session, "reanalyze_call", { call_id: callId })
        expect(foreign.status, JSON.stringify(foreign.body)).toBe(404)
        expect(yield* auditActions(other.clientId)).toEqual([])

        // the audio is no longer kept: 409
        const gone = yield* seedCallWithoutAudio(acme.clientId)
        const noAudio = yield* action(acme.session, "reanalyze_call", { call_id: gone })
        expect(noAudio.status, JSON.stringify(noAudio.body)).toBe(409)
        expect(noAudio.body.message).toContain("no longer kept")
        const [goneRow] = yield* rows((sql) => sql<{ status: string }>`SELECT status FROM calls WHERE call_id = ${gone}`)
        expect(goneRow!.status).toBe("completed")
      }))

    it.effect("bad input is 422 with detail", () =>
      Effect.gen(function* () {
        const acme = yield* tenantWithUser(1)
        const unknown = yield* action(acme.session, "explode", { call_id: "call_x" })
        expect(unknown.status).toBe(422)
        expect(unknown.body.detail[0].loc).toEqual(["body", "action"])
        const missing = yield* action(acme.session, "reanalyze_call")
        expect(missing.status).toBe(422)
        expect(missing.body.detail).toEqual([{ loc: ["body", "params", "call_id"], msg: "Field required", type: "missing" }])
        const extra = yield* action(acme.session, "pin_call", { call_id: "call_x", colour: "red" })
        expect(extra.status).toBe(422)
        expect(extra.body.detail[0].loc).toEqual(["body", "params", "colour"])
        const badOutcome = yield* action(acme.session, "record_outcome", { call_id: "call_x", outcome: "maybe" })
        expect(badOutcome.status).toBe(422)
        expect(badOutcome.body.detail[0].loc).toEqual(["body", "params", "outcome"])
        const badChannel = yield* call("POST", "/v1/workspace/channel/send", { session: acme.session, body: { channel: "fax", text: "hi" } })
        expect(badChannel.status).toBe(422)
        const noSession = yield* call("POST", "/v1/workspace/actions/run", { body: { action: "pin_call", params: { call_id: "call_x" } } })
        expect(noSession.status).toBe(401)
        expect(yield* auditActions(acme.clientId)).toEqual([])
      }))

    it.effect("session, pins, recent searches, record_outcome and the state", () =>
      Effect.gen(function* () {
        const acme = yield* tenantWithUser(1)
        const empty = yield* call("GET", "/v1/workspace/state", { session: acme.session })
        expect(empty.status, JSON.stringify(empty.body)).toBe(200)
        expect(empty.body).toMatchObject({ session: null, pinned_calls: [], recent_searches: [], updated_at: null })
        expect(empty.body.alerts.map((a: any) => a.code)).toContain("credits_low")

        const created = yield* call("POST", "/v1/workspace/session", { session: acme.session })
        expect(created.status, JSON.stringify(created.body)).toBe(200)
        expect(created.body.client_id).toBe(acme.clientId)
        expect(Date.parse(created.body.expires_at) - Date.parse(created.body.created_at)).toBe(12 * 3600_000)

        const callId = yield* seedCallWithoutAudio(acme.clientId)
        const pinned = yield* action(acme.session, "pin_call", { call_id: callId })
        expect(pinned.status, JSON.stringify(pinned.body)).toBe(200)
        expect(pinned.body).toMatchObject({ action: "pin_call", status: "done", result: { call_id: callId, pinned: true, changed: true } })
        const twice = yield* action(acme.session, "pin_call", { call_id: callId })
        expect(twice.body.result.changed).toBe(false)

        expect((yield* call("GET", "/v1/workspace/search?q=pricing", { session: acme.session })).status).toBe(200)
        expect((yield* call("GET", "/v1/workspace/search?q=renewal%20terms", { session: acme.session })).status).toBe(200)

        const outcome = yield* action(acme.session, "record_outcome", { call_id: callId, outcome: "won", deal_value: 1200, currency: "EUR" })
        expect(outcome.status, JSON.stringify(outcome.body)).toBe(200)
        expect(outcome.body).toMatchObject({ action: "record_outcome", status: "done", result: { call_id: callId, outcome: "won", deal_value: 1200 } })
        const truth = yield* call("GET", `/v1/client-portal/calls/${callId}/outcome-truth`, { session: acme.session })
        expect(truth.body).toMatchObject({ outcome: "won", deal_value: 1200, currency: "EUR" })

        const state = yield* call("GET", "/v1/workspace/state", { session: acme.session })
        expect(state.body.session).toEqual(created.body)
        expect(state.body.pinned_calls).toEqual([{ call_id: callId, title: expect.stringContaining(callId), pinned_at: pinned.body.result.pinned_at }])
        expect(state.body.recent_searches.map((s: any) => [s.q, s.results])).toEqual([["renewal terms", 0], ["pricing", 0]])
        expect(state.body.updated_at).not.toBeNull()

        const unpinned = yield* action(acme.session, "unpin_call", { call_id: callId })
        expect(unpinned.body.result).toEqual({ call_id: callId, pinned: false, changed: true })
        expect((yield* call("GET", "/v1/workspace/state", { session: acme.session })).body.pinned_calls).toEqual([])

        // another tenant sees none of it and cannot pin or record on the call
        const other = yield* tenantWithUser(1)
        expect((yield* action(other.session, "pin_call", { call_id: callId })).status).toBe(404)
        expect((yield* action(other.session, "record_outcome", { call_id: callId, outcome: "lost" })).status).toBe(404)
        const otherState = yield* call("GET", "/v1/workspace/state", { session: other.session })
        expect(otherState.body).toMatchObject({ session: null, pinned_calls: [], recent_searches: [] })

        const audited = (yield* auditActions(acme.clientId)).map((r) => r.action)
        expect(audited).toEqual([
          "workspace.session_created",
          "workspace.pin_call",
          "workspace.pin_call",
          "workspace.record_outcome",
          "workspace.unpin_call"
        ])
        const portalRow = yield* rows((sql) => sql<{ n: number }>`
          SELECT count(*)::int AS n FROM audit_logs WHERE client_id = ${acme.clientId} AND action = 'outcome_truth.recorded'`)
        expect(portalRow[0]!.n).toBe(1)
      }))

    it.effect("channel/send and send_brief by e-mail and to a linked messenger chat; 409 without a link", () =>
      Effect.gen(function* () {
        const smtp = yield* Smtp
        const tg = yield* Telegram
        const acme = yield* tenantWithUser(1)

        const mailed = yield* call("POST", "/v1/workspace/channel/send", { session: acme.session, body: { channel: "email", text: "Call Maria back" } })
        expect(mailed.status, JSON.stringify(mailed.body)).toBe(200)
        expect(mailed.body).toMatchObject({ channel: "email", delivered: 1, message_ids: [`email:${acme.email}`] })
        const mails = smtp.to(acme.email).length
        const mail = yield* Effect.orDie(smtp.waitFor(acme.email, mails))
        expect(mail.text).toContain("Call Maria back")

        const stranger = yield* call("POST", "/v1/workspace/channel/send", {
          session: acme.session,
          body: { channel: "email", text: "hi", to: "someone@elsewhere.test" }
        })
        expect(stranger.status).toBe(422)
        expect(stranger.body.detail[0].loc).toEqual(["body", "to"])

        const unlinked = yield* call("POST", "/v1/workspace/channel/send", { session: acme.session, body: { channel: "messenger-a", text: "hi" } })
        expect(unlinked.status, JSON.stringify(unlinked.body)).toBe(409)
        const notConfigured = yield* call("POST", "/v1/workspace/channel/send", { session: acme.session, body: { channel: "messenger-b", text: "hi" } })
        expect(notConfigured.status).toBe(409)
        const briefUnlinked = yield* action(acme.session, "send_brief", { channel: "messenger-a" })
        expect(briefUnlinked.status).toBe(409)

        const chat = freshChat()
        yield* rows((sql) => sql`INSERT INTO companion_links (link_id, client_id, channel, chat_id)
                                 VALUES (${`lnk_${randomBytes(6).toString("hex")}`}, ${acme.clientId}, 'messenger-a', ${String(chat)})`)
        const sent = yield* call("POST", "/v1/workspace/channel/send", { session: acme.session, body: { channel: "messenger-a", text: "Team, great week" } })
        expect(sent.status, JSON.stringify(sent.body)).toBe(200)
        expect(sent.body).toMatchObject({ channel: "messenger-a", delivered: 1, message_ids: [`messenger-a:${chat}`] })
        expect(yield* tg.waitFor(chat, 1)).toEqual(["Team, great week"])

        const brief = yield* action(acme.session, "send_brief", { channel: "messenger-a" })
        expect(brief.status, JSON.stringify(brief.body)).toBe(200)
        expect(brief.body).toMatchObject({ action: "send_brief", status: "done", result: { channel: "messenger-a", delivered: 1 } })
        const texts = yield* tg.waitFor(chat, 2)
        expect(texts[1]).toMatch(/^Daily brief for Acme/)

        const byMail = yield* action(acme.session, "send_brief")
        expect(byMail.body).toMatchObject({ action: "send_brief", result: { channel: "email", delivered: 1 } })
        const briefMail = yield* Effect.orDie(smtp.waitFor(acme.email, mails + 1))
        expect(briefMail.subject).toMatch(/^Daily brief for Acme/)

        const audited = (yield* auditActions(acme.clientId)).map((r) => [r.action, r.metadata.channel, r.metadata.delivered])
        expect(audited).toEqual([
          ["workspace.channel_sent", "email", 1],
          ["workspace.channel_sent", "messenger-a", 1],
          ["workspace.send_brief", "messenger-a", 1],
          ["workspace.send_brief", "email", 1]
        ])
      }))
  })
})
