/**
 * Retention (issue 36): the tenant's setting (read by every user, changed by owners and admins, 422
 * for a bad value, audited), and the pass with a moved clock: nothing before the setting's days, then
 * the recording removed and noted (the analysis stays), then the call deleted with its charge kept in
 * the ledger; a call still queued waits; another tenant's calls are untouched.
 */
import { describe, expect, layer } from "@effect/vitest"
import { SESSION_COOKIE } from "@callsight/api-spec"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer } from "effect"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fixture } from "../../../test/utils/Fixtures.js"
import { Retention } from "../src/account/Retention.js"
import { AppConfig, type AppConfigShape } from "../src/config.js"
import { upload } from "./utils/AudioRequests.js"
import { call, memberSession, newTenant } from "./utils/PortalRequests.js"
import { completeUploaded } from "./utils/SeedCalls.js"
import { serverWithSmtp, Smtp } from "./utils/SmtpServerLayer.js"

class Blobs extends Context.Tag("test/Blobs")<Blobs, string>() {}

const blobDir = Layer.scoped(Blobs, Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "callsight-retention-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
))

const server = Layer.unwrapEffect(Effect.map(Blobs, (dir) => serverWithSmtp({ blobDir: dir }))).pipe(Layer.provideMerge(blobDir))

/** Runs one retention pass at `now` with the service's database and blob directory. */
const passAt = (now: Date) =>
  Effect.flatMap(Blobs, (dir) =>
    Effect.provide(
      Effect.flatMap(Retention, (r) => r.pass(now)),
      Retention.Default.pipe(Layer.provide(AppConfig.layerWith({ blobDir: dir } as Partial<AppConfigShape>)))
    ))

/** The export as text (NDJSON is not one JSON document). */
const exported = (session: string) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.execute(
      HttpClientRequest.get("/v1/client-portal/export").pipe(HttpClientRequest.setHeader("cookie", `${SESSION_COOKIE}=${session}`))
    )
    return { status: response.status, headers: response.headers, text: yield* response.text }
  }).pipe(Effect.orDie)

const DAY = 86_400_000
const later = (days: number) => new Date(Date.now() + days * DAY)

/** A tenant with a key and one uploaded call, made completed and charged as the worker leaves it. */
const tenantWithCall = Effect.gen(function* () {
  const tenant = yield* newTenant()
  const key = (yield* call("POST", "/v1/client-portal/api-keys", { session: tenant.session, body: { name: "agent" } })).body.api_key as string
  const done = (yield* upload(key, fixture("renewal-stereo.mp3"))).body.call_id as string
  const queued = (yield* upload(key, fixture("renewal-stereo.mp3"))).body.call_id as string
  yield* completeUploaded(tenant.clientId, done)
  const sql = yield* SqlClient.SqlClient
  const keys = yield* sql<{ call_id: string; blob_key: string }>`SELECT call_id, blob_key FROM calls WHERE client_id = ${tenant.clientId}`
  const blobOf = (callId: string) => keys.find((k) => k.call_id === callId)!.blob_key
  return { ...tenant, key, done, queued, blobOf }
})

describe("retention", () => {
  layer(server, { excludeTestServices: true })("in the portal and in the background", (it) => {
    it.effect("every user reads the setting; owners and admins change it; bad values are 422; each tenant has its own", () =>
      Effect.gen(function* () {
        const { clientId, session } = yield* newTenant()
        expect((yield* call("GET", "/v1/client-portal/retention", { session })).body).toEqual({ audio_days: null, analysis_days: null, updated_at: null })
        const saved = yield* call("PUT", "/v1/client-portal/retention", { session, body: { audio_days: 30, analysis_days: 365 } })
        expect(saved.status).toBe(200)
        expect(saved.body).toMatchObject({ audio_days: 30, analysis_days: 365, updated_at: expect.any(String) })
        const member = yield* memberSession(yield* Smtp, clientId, `member.${Date.now()}@acme.test`)
        expect((yield* call("GET", "/v1/client-portal/retention", { session: member })).body).toMatchObject({ audio_days: 30 })
        expect((yield* call("PUT", "/v1/client-portal/retention", { session: member, body: { audio_days: null, analysis_days: null } })).status).toBe(403)
        for (const body of [{ audio_days: 0, analysis_days: null }, { audio_days: -5, analysis_days: null }, { audio_days: 1.5, analysis_days: null }, { audio_days: 30 }, { audio_days: 30, analysis_days: null, extra: 1 }]) {
          const reply = yield* call("PUT", "/v1/client-portal/retention", { session, body })
          expect(reply.status, JSON.stringify(body)).toBe(422)
          expect(reply.body.detail).toBeDefined()
        }
        const other = yield* newTenant()
        expect((yield* call("GET", "/v1/client-portal/retention", { session: other.session })).body.audio_days).toBeNull()
        const sql = yield* SqlClient.SqlClient
        const audit = yield* sql<{ metadata: any }>`SELECT metadata FROM audit_logs WHERE client_id = ${clientId} AND action = 'retention.saved'`
        expect(audit.map((a) => a.metadata)).toEqual([{ audio_days: 30, analysis_days: 365 }])
      }))

    it.effect("an owner exports the tenant's data as NDJSON: every section, the calls with their analyses, no secret; others may not", () =>
      Effect.gen(function* () {
        const t = yield* tenantWithCall
        const sql = yield* SqlClient.SqlClient
        expect((yield* call("PUT", `/v1/client-portal/calls/${t.done}/outcome-truth`, { session: t.session, body: { outcome: "won", deal_value: 4200 } })).status).toBe(200)
        expect((yield* call("PUT", "/v1/client-portal/retention", { session: t.session, body: { audio_days: null, analysis_days: 3650 } })).status).toBe(200)
        expect((yield* call("POST", "/v1/client-portal/trackers", { session: t.session, body: { name: "Pricing", kind: "pricing", terms: ["price"] } })).status).toBe(201)
        const accountId = `acc_export_${Date.now()}`
        yield* sql`INSERT INTO accounts (account_id, client_id, name, domain) VALUES (${accountId}, ${t.clientId}, 'Globex', 'globex.test')`
        yield* sql`INSERT INTO deals (deal_id, client_id, account_id, external_deal_id) VALUES (${`deal_${accountId}`}, ${t.clientId}, ${accountId}, 'CRM-7')`
        yield* sql`UPDATE calls SET account_id = ${accountId}, deal_id = ${`deal_${accountId}`}, attendees = '["ana@globex.test"]'::jsonb WHERE call_id = ${t.done}`
        const member = yield* memberSession(yield* Smtp, t.clientId, `member.${Date.now()}@acme.test`)
        const reply = yield* exported(t.session)
        expect(reply.status).toBe(200)
        expect(reply.headers["content-type"]).toContain("application/x-ndjson")
        expect(reply.headers["content-disposition"]).toContain(`callsight-${t.clientId}.ndjson`)
        const text = reply.text
        const records = text.trim().split("\n").map((l) => JSON.parse(l) as { type: string; data: any })
        const of = (type: string) => records.filter((r) => r.type === type).map((r) => r.data)
        expect(of("tenant")).toEqual([expect.objectContaining({ client_id: t.clientId, plan: "trial" })])
        expect(of("member").map((m) => m.role).sort()).toEqual(["member", "owner"])
        expect(of("call").map((c) => c.call_id).sort()).toEqual([t.done, t.queued].sort())
        expect(of("call").find((c) => c.call_id === t.done).analysis.scorecard.overall).toBe(70)
        expect(of("outcome")).toEqual([expect.objectContaining({ call_id: t.done, outcome: "won", deal_value: 4200 })])
        expect(of("setting")).toContainEqual(expect.objectContaining({ kind: "retention", audio_days: null, analysis_days: 3650 }))
        expect(of("account")).toEqual([expect.objectContaining({ account_id: accountId, name: "Globex", domain: "globex.test" })])
        expect(of("deal")).toEqual([expect.objectContaining({ deal_id: `deal_${accountId}`, account_id: accountId, external_deal_id: "CRM-7" })])
        expect(of("call").find((c) => c.call_id === t.done)).toMatchObject({ account_id: accountId, deal_id: `deal_${accountId}`, attendees: ["ana@globex.test"] })
        expect(of("tracker")).toEqual([expect.objectContaining({ name: "Pricing", kind: "pricing", terms: ["price"], source: "tenant" })])
        expect(of("ledger").map((e) => e.reason)).toEqual(["trial", "analysis"])
        expect(of("audit_log").map((a) => a.action)).toContain("account.exported")
        // no secret in any form: the key, its hash or prefix's row, the session, a sign-in token's hash
        const [keyRow] = yield* sql<{ key_hash: string }>`SELECT key_hash FROM api_keys WHERE client_id = ${t.clientId}`
        const sessions = yield* sql<{ session_hash: string }>`SELECT session_hash FROM sessions WHERE client_id = ${t.clientId}`
        const links = yield* sql<{ token_hash: string }>`SELECT token_hash FROM magic_links WHERE client_id = ${t.clientId}`
        for (const secret of [t.key, keyRow!.key_hash, t.session, member, ...sessions.map((x) => x.session_hash), ...links.map((x) => x.token_hash)]) {
          expect(text).not.toContain(secret)
        }
        expect((yield* exported(member)).status).toBe(403)
        const other = yield* newTenant()
        const theirs = (yield* exported(other.session)).text
        expect(theirs).not.toContain(t.done)
        expect(theirs).not.toContain(t.clientId)
      }), 60_000)

    it.effect("an owner closes the account, naming it: the keys stop at once, the data stays for the grace period, then all of it goes", () =>
      Effect.gen(function* () {
        const dir = yield* Blobs
        const t = yield* tenantWithCall
        const other = yield* tenantWithCall
        const member = yield* memberSession(yield* Smtp, t.clientId, `member.${Date.now()}@acme.test`)
        expect((yield* call("POST", "/v1/client-portal/close", { session: member, body: { company_name: "Acme" } })).status).toBe(403)
        expect((yield* call("POST", "/v1/client-portal/close", { session: t.session, body: { company_name: "Not Acme" } })).status).toBe(409)
        expect((yield* call("POST", "/v1/client-portal/close", { session: t.session, body: {} })).status).toBe(422)
        const closed = yield* call("POST", "/v1/client-portal/close", { session: t.session, body: { company_name: "Acme" } })
        expect(closed.status).toBe(202)
        expect(closed.body).toMatchObject({ client_id: t.clientId, api_keys_revoked: 1 })
        expect(Date.parse(closed.body.deleted_after) - Date.parse(closed.body.closing_at)).toBe(30 * DAY)
        expect((yield* call("POST", "/v1/client-portal/close", { session: t.session, body: { company_name: "Acme" } })).status).toBe(409)
        // the key stops at once; the owner still signs in and may export
        expect((yield* call("GET", `/v1/teams/calls/${t.done}`, { headers: { "x-api-key": t.key } })).status).toBe(401)
        // every user's me says the account is closing, with the dates the closing answered; another account's does not
        for (const session of [t.session, member]) {
          const me = yield* call("GET", "/v1/client-auth/me", { session })
          expect(me.status).toBe(200)
          expect(me.body.account_closing).toEqual({ closing_at: closed.body.closing_at, deleted_after: closed.body.deleted_after })
        }
        expect((yield* call("GET", "/v1/client-auth/me", { session: other.session })).body.account_closing).toBeNull()
        expect((yield* exported(t.session)).text).toContain(t.done)

        const sql = yield* SqlClient.SqlClient
        const tenantRows = sql<{ n: number }>`SELECT count(*)::int AS n FROM tenants WHERE client_id = ${t.clientId}`.pipe(Effect.map((r) => r[0]!.n))
        expect((yield* passAt(later(29))).accounts_deleted).toBe(0)
        expect(yield* tenantRows).toBe(1)
        expect((yield* passAt(later(31))).accounts_deleted).toBe(1)
        expect(yield* tenantRows).toBe(0)
        expect(yield* sql`SELECT 1 FROM calls WHERE client_id = ${t.clientId}`).toHaveLength(0)
        expect(yield* sql`SELECT 1 FROM users WHERE client_id = ${t.clientId}`).toHaveLength(0)
        expect(existsSync(join(dir, t.blobOf(t.done)))).toBe(false)
        expect(existsSync(join(dir, t.blobOf(t.queued)))).toBe(false)
        expect((yield* call("GET", "/v1/client-auth/me", { session: t.session })).status).toBe(401)
        // another account keeps all of its own
        expect((yield* call("GET", `/v1/teams/calls/${other.done}`, { headers: { "x-api-key": other.key } })).status).toBe(200)
        expect(existsSync(join(dir, other.blobOf(other.done)))).toBe(true)
      }), 60_000)

    it.effect("an owner may keep a closing account within its grace: nothing is deleted, the keys stay revoked; not closing is 409", () =>
      Effect.gen(function* () {
        const t = yield* tenantWithCall
        expect((yield* call("GET", "/v1/client-auth/me", { session: t.session })).body.account_closing).toBeNull()
        expect((yield* call("DELETE", "/v1/client-portal/close", { session: t.session })).status).toBe(409)
        const closed = yield* call("POST", "/v1/client-portal/close", { session: t.session, body: { company_name: "Acme" } })
        expect(closed.status).toBe(202)
        expect((yield* call("GET", "/v1/client-auth/me", { session: t.session })).body.account_closing).toEqual({
          closing_at: closed.body.closing_at,
          deleted_after: closed.body.deleted_after
        })
        const member = yield* memberSession(yield* Smtp, t.clientId, `member.${Date.now()}@acme.test`)
        expect((yield* call("DELETE", "/v1/client-portal/close", { session: member })).status).toBe(403)
        const kept = yield* call("DELETE", "/v1/client-portal/close", { session: t.session })
        expect(kept.status).toBe(200)
        expect(kept.body).toEqual({ client_id: t.clientId, closing: false })
        expect((yield* passAt(later(31))).accounts_deleted).toBe(0)
        expect((yield* call("GET", `/v1/teams/calls/${t.done}`, { headers: { "x-api-key": t.key } })).status).toBe(401)
        const meAfter = yield* call("GET", "/v1/client-auth/me", { session: t.session })
        expect(meAfter.status).toBe(200)
        expect(meAfter.body.account_closing).toBeNull()
        const sql = yield* SqlClient.SqlClient
        const actions = yield* sql<{ action: string }>`SELECT action FROM audit_logs WHERE client_id = ${t.clientId} AND action LIKE 'account.%' ORDER BY at, log_id`
        expect(actions.map((a) => a.action)).toEqual(["account.closing", "account.reopened"])
      }), 60_000)

    it.effect("with a moved clock: first the recording goes, then the call; a queued call waits; the ledger keeps the charge", () =>
      Effect.gen(function* () {
        const dir = yield* Blobs
        const t = yield* tenantWithCall
        const untouched = yield* tenantWithCall
        expect((yield* call("PUT", "/v1/client-portal/retention", { session: t.session, body: { audio_days: 30, analysis_days: 90 } })).status).toBe(200)
        const audio = join(dir, t.blobOf(t.done))
        expect(existsSync(audio)).toBe(true)

        expect(yield* passAt(later(29))).toEqual({ audio_removed: 0, calls_deleted: 0, accounts_deleted: 0 })
        expect(existsSync(audio)).toBe(true)

        expect(yield* passAt(later(31))).toEqual({ audio_removed: 1, calls_deleted: 0, accounts_deleted: 0 })
        expect(existsSync(audio)).toBe(false)
        const sql = yield* SqlClient.SqlClient
        const [row] = yield* sql<{ audio_removed_at: unknown }>`SELECT audio_removed_at FROM calls WHERE call_id = ${t.done}`
        expect(row?.audio_removed_at).not.toBeNull()
        // the analysis stays, its re-analysis is refused: the recording is gone
        expect((yield* call("GET", `/v1/teams/calls/${t.done}`, { headers: { "x-api-key": t.key } })).status).toBe(200)
        expect(existsSync(join(dir, t.blobOf(t.queued)))).toBe(true)
        // a second pass finds nothing more to remove
        expect(yield* passAt(later(31))).toEqual({ audio_removed: 0, calls_deleted: 0, accounts_deleted: 0 })

        expect(yield* passAt(later(91))).toEqual({ audio_removed: 0, calls_deleted: 1, accounts_deleted: 0 })
        expect((yield* call("GET", `/v1/teams/calls/${t.done}`, { headers: { "x-api-key": t.key } })).status).toBe(404)
        expect(yield* sql`SELECT delta, reason FROM credit_ledger WHERE call_id = ${t.done}`).toEqual([{ delta: -1, reason: "analysis" }])
        const [deleted] = yield* sql<{ actor: string; actor_type: string }>`
          SELECT actor, actor_type FROM audit_logs WHERE client_id = ${t.clientId} AND action = 'call.deleted'`
        expect(deleted).toEqual({ actor: "system:retention", actor_type: "system" })
        // the queued call waits until it ends; the other tenant keeps everything
        expect((yield* call("GET", `/analysis/${t.queued}`, { headers: { "x-api-key": t.key } })).status).toBe(200)
        expect((yield* call("GET", `/v1/teams/calls/${untouched.done}`, { headers: { "x-api-key": untouched.key } })).status).toBe(200)
        expect(existsSync(join(dir, untouched.blobOf(untouched.done)))).toBe(true)
      }), 60_000)
  })
})
