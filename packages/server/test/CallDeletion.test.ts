/**
 * Deleting a call (issue 36): with the tenant key or a manager's session, the call's audio leaves
 * the blob store, its analysis, transcript, search hits, outcome record and webhook deliveries go,
 * every view answers 404, and the ledger keeps its charge with the call id only; a member's session
 * is 403 and another tenant's key 404. On a local directory here; on S3 in S3Uploads' layer below.
 */
import { describe, expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { existsSync, readdirSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fixture } from "../../../test/utils/Fixtures.js"
import { upload } from "./utils/AudioRequests.js"
import { call, memberSession, newTenant } from "./utils/PortalRequests.js"
import { type S3TestServer, startS3Server } from "./utils/S3Server.js"
import { completeUploaded } from "./utils/SeedCalls.js"
import { serverWithSmtp, Smtp } from "./utils/SmtpServerLayer.js"

const WORD = "heliotrope"

/** A tenant with a key and a completed, charged call whose transcript says WORD, its audio uploaded. */
const completedCall = Effect.gen(function* () {
  const tenant = yield* newTenant()
  const key = (yield* call("POST", "/v1/client-portal/api-keys", { session: tenant.session, body: { name: "agent" } })).body.api_key as string
  const uploaded = yield* upload(key, fixture("renewal-stereo.mp3"))
  expect(uploaded.status).toBe(202)
  const callId = uploaded.body.call_id as string
  yield* completeUploaded(tenant.clientId, callId, [[0, `We talked about the ${WORD} pricing.`]])
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO webhook_deliveries (delivery_id, client_id, url, event_type, call_id, payload)
             VALUES (${`dlv_${callId}`}, ${tenant.clientId}, 'https://hooks.example.test/x', 'analysis.completed', ${callId}, '{}')`
  const [{ blob_key }] = yield* sql<{ blob_key: string }>`SELECT blob_key FROM calls WHERE call_id = ${callId}`
  return { ...tenant, key, callId, blobKey: blob_key }
})

const searchHits = (session: string) =>
  Effect.map(call("GET", `/v1/workspace/search?q=${WORD}`, { session }), (r) => r.body.results.filter((h: any) => h.kind === "transcript").length)

describe("deleting a call", () => {
  layer(serverWithSmtp(), { excludeTestServices: true })("on a local blob directory", (it) => {
    it.effect("the call and all of it go; every view is 404; the ledger keeps its charge; the audio file is gone", () =>
      Effect.gen(function* () {
        const t = yield* completedCall
        const blobDirs = readdirSync(tmpdir()).filter((d) => d.startsWith("callsight-blobs-")).map((d) => join(tmpdir(), d))
        const audioPath = blobDirs.map((d) => join(d, t.blobKey)).find(existsSync)
        expect(audioPath).toBeDefined()
        expect((yield* call("PUT", `/v1/client-portal/calls/${t.callId}/outcome-truth`, { session: t.session, body: { outcome: "won", deal_value: 900 } })).status).toBe(200)
        expect(yield* searchHits(t.session)).toBe(1)
        expect((yield* call("GET", `/v1/teams/calls/${t.callId}`, { headers: { "x-api-key": t.key } })).status).toBe(200)
        expect((yield* call("GET", `/analysis/${t.callId}`, { headers: { "x-api-key": t.key } })).status).toBe(200)
        expect((yield* call("GET", `/reports/${t.callId}/html`, { headers: { "x-api-key": t.key } })).status).toBe(200)

        // another tenant's key, and a member of this tenant, may not
        const other = yield* newTenant()
        const otherKey = (yield* call("POST", "/v1/client-portal/api-keys", { session: other.session, body: { name: "x" } })).body.api_key
        expect((yield* call("DELETE", `/v1/teams/calls/${t.callId}`, { headers: { "x-api-key": otherKey } })).status).toBe(404)
        const member = yield* memberSession(yield* Smtp, t.clientId, `member.${Date.now()}@acme.test`)
        expect((yield* call("DELETE", `/v1/teams/calls/${t.callId}`, { session: member })).status).toBe(403)

        // a chat answer that quoted the call, and one that did not
        const sql0 = yield* SqlClient.SqlClient
        const conversation = `conv_${t.callId}`
        yield* sql0`INSERT INTO conversations (conversation_id, client_id, user_id, door) VALUES (${conversation}, ${t.clientId}, ${t.userId}, 'workspace')`
        yield* sql0`INSERT INTO conversation_messages (conversation_id, seq, role, text, sources) VALUES
          (${conversation}, 1, 'user', 'what did they say about price?', '[]'::jsonb),
          (${conversation}, 2, 'assistant', ${`They said the ${WORD} pricing was fine.`}, ${JSON.stringify([{ kind: "call", id: t.callId, label: "the call" }])}::jsonb),
          (${conversation}, 3, 'assistant', 'Your plan has 5 credits.', ${JSON.stringify([{ kind: "plan_usage", id: null, label: "plan" }])}::jsonb)`

        const deleted = yield* call("DELETE", `/v1/teams/calls/${t.callId}`, { headers: { "x-api-key": t.key } })
        expect(deleted.status).toBe(200)
        expect(deleted.body).toEqual({ call_id: t.callId, deleted: true, credits_charged: 1 })
        const messages = yield* sql0<{ seq: number; text: string; sources: unknown }>`
          SELECT seq, text, sources FROM conversation_messages WHERE conversation_id = ${conversation} ORDER BY seq`
        expect(messages.map((m) => m.text)).toEqual([
          "what did they say about price?", "(This answer quoted a call that has since been deleted.)", "Your plan has 5 credits."
        ])
        expect(messages[1]!.sources).toEqual([])

        for (const [path, options] of [
          [`/v1/teams/calls/${t.callId}`, { headers: { "x-api-key": t.key } }],
          [`/analysis/${t.callId}`, { headers: { "x-api-key": t.key } }],
          [`/reports/${t.callId}/html`, { headers: { "x-api-key": t.key } }],
          [`/v1/client-portal/calls/${t.callId}/report`, { session: t.session }],
          [`/v1/client-portal/calls/${t.callId}/outcome-truth`, { session: t.session }]
        ] as const) {
          expect((yield* call("GET", path, options)).status, path).toBe(404)
        }
        const listed = yield* call("GET", "/v1/teams/calls", { headers: { "x-api-key": t.key } })
        expect(listed.body.calls.map((c: any) => c.call_id)).not.toContain(t.callId)
        expect(yield* searchHits(t.session)).toBe(0)
        expect(existsSync(audioPath!)).toBe(false)
        // a second delete is 404; the ledger keeps the charge with the call id only
        expect((yield* call("DELETE", `/v1/teams/calls/${t.callId}`, { headers: { "x-api-key": t.key } })).status).toBe(404)
        const sql = yield* SqlClient.SqlClient
        expect(yield* sql`SELECT delta, reason FROM credit_ledger WHERE call_id = ${t.callId}`).toEqual([{ delta: -1, reason: "analysis" }])
        expect(yield* sql`SELECT 1 FROM webhook_deliveries WHERE call_id = ${t.callId}`).toHaveLength(0)
        expect(yield* sql`SELECT 1 FROM outcome_truth WHERE call_id = ${t.callId}`).toHaveLength(0)
        const audit = yield* sql<{ action: string; actor: string; metadata: any }>`
          SELECT action, actor, metadata FROM audit_logs WHERE client_id = ${t.clientId} AND action = 'call.deleted'`
        expect(audit).toHaveLength(1)
        expect(audit[0]!.metadata).toEqual({ status: "completed", credits_charged: 1 })
      }), 60_000)

    it.effect("an owner's session deletes too", () =>
      Effect.gen(function* () {
        const t = yield* completedCall
        const deleted = yield* call("DELETE", `/v1/teams/calls/${t.callId}`, { session: t.session })
        expect(deleted.status).toBe(200)
        expect((yield* call("GET", `/v1/client-portal/calls/${t.callId}/report`, { session: t.session })).status).toBe(404)
      }), 60_000)
  })

  class S3 extends Context.Tag("test/S3")<S3, S3TestServer>() {}
  const onS3 = Layer.unwrapEffect(
    Effect.map(S3, (s3) => serverWithSmtp({ s3: Option.some(s3.config({ secretAccessKey: Option.some(Redacted.make("s3-secret-deletion")) })) }))
  ).pipe(Layer.provideMerge(Layer.scoped(S3, startS3Server())))

  layer(onS3, { excludeTestServices: true })("on S3", (it) => {
    it.effect("the audio object leaves the bucket", () =>
      Effect.gen(function* () {
        const s3 = yield* S3
        const t = yield* completedCall
        const holds = Effect.map(s3.list(), (objects) => objects.some((o) => o.Key?.endsWith(t.blobKey) === true))
        expect(yield* holds).toBe(true)
        expect((yield* call("DELETE", `/v1/teams/calls/${t.callId}`, { headers: { "x-api-key": t.key } })).status).toBe(200)
        expect(yield* holds).toBe(false)
      }), 60_000)
  })
})
