/**
 * Completion webhooks (docs/webhooks.md): endpoints created with their secret shown once, bad
 * input 422, tenant isolation; then, with the workers and the sender running against a local
 * receiver, messages signed as Standard Webhooks say (checked with the `standardwebhooks` verifier
 * and the SDK's `verifyWebhook`), retries with a stable `webhook-id`, the uploads' `callback_url`,
 * redelivery, an endpoint disabled after 3 days of failures; and a server stopped between the
 * status change and the delivery that still delivers after a restart on the same database.
 */
import { verifyWebhook, WebhookVerificationError } from "@callsight/client"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { SqlClient } from "@effect/sql"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel, Option, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Webhook } from "standardwebhooks"
import { AppConfig } from "../src/config.js"
import { layerPglite, layerPostgres } from "../src/db/Database.js"
import { webhookUrlProblem } from "../src/events/WebhookOutbox.js"
import { makeServerLayer } from "../src/main.js"
import { retryDelayMs, RETRY_SCHEDULE_SECONDS } from "../src/webhooks/WebhookSender.js"
import { createTenant, settle } from "./utils/AudioRequests.js"
import { fixture, wavOf, wavSamples } from "../../../test/utils/Fixtures.js"
import { copyPgliteTemplate, TestDatabase } from "./utils/TestDatabase.js"
import { ADMIN_KEY, ASSISTANT_KEY, testServerLayer } from "./utils/TestServer.js"
import { type ReceivedRequest, startReceiver } from "./utils/WebhookReceiver.js"

const send = (apiKey: string, method: "GET" | "POST" | "DELETE", path: string, body?: unknown) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    let request = HttpClientRequest.make(method)(path).pipe(HttpClientRequest.setHeader("x-api-key", apiKey))
    if (body !== undefined) request = HttpClientRequest.bodyUnsafeJson(request, body)
    const response = yield* client.execute(request)
    const text = yield* response.text
    return { status: response.status, body: (text === "" ? null : JSON.parse(text)) as any }
  })

const addWebhook = (apiKey: string, body: unknown) =>
  Effect.map(send(apiKey, "POST", "/v1/teams/webhooks", body), (response) => {
    expect(response.status, JSON.stringify(response.body)).toBe(201)
    return response.body as { webhook_id: string; secret: string; events: Array<string> }
  })

/** An upload with the form fields given (`callback_url` among them). */
const uploadWith = (apiKey: string, bytes: Uint8Array, fields: Record<string, string> = {}) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const form = new FormData()
    form.append("audio", new Blob([bytes]), "call.wav")
    for (const [key, value] of Object.entries(fields)) form.append(key, value)
    const response = yield* client.execute(
      HttpClientRequest.post("/v1/teams/audio").pipe(HttpClientRequest.setHeader("x-api-key", apiKey), HttpClientRequest.bodyFormData(form))
    )
    return { status: response.status, body: (yield* response.json) as any }
  })

/** A call of one second: its analysis fails at once (`too_short`), which is all a failure webhook needs. */
const oneSecond = () => wavOf(wavSamples("discovery-short.wav").subarray(16_000, 32_000))

/** The request's headers as the verifiers take them. */
const headersOf = (request: ReceivedRequest) => ({
  "webhook-id": String(request.headers["webhook-id"]),
  "webhook-timestamp": String(request.headers["webhook-timestamp"]),
  "webhook-signature": String(request.headers["webhook-signature"])
})

/** Checks the signature with the Standard Webhooks library and with the SDK; answers the payload. */
const verified = (request: ReceivedRequest, secret: string) =>
  Effect.promise(async () => {
    const byLibrary = new Webhook(secret).verify(request.body, headersOf(request))
    const bySdk = await verifyWebhook(request.body, request.headers as Record<string, string>, secret)
    expect(bySdk).toEqual(byLibrary)
    return bySdk as any
  })

describe("webhook URLs and schedule", () => {
  it("accepts https, and http to this machine only outside production", () => {
    expect(webhookUrlProblem("https://hooks.example.com/x", true)).toBeUndefined()
    expect(webhookUrlProblem("http://localhost:3000/x", false)).toBeUndefined()
    expect(webhookUrlProblem("http://127.0.0.5:3000/x", false)).toBeUndefined()
    expect(webhookUrlProblem("http://[::1]:3000/x", false)).toBeUndefined()
    expect(webhookUrlProblem("http://localhost:3000/x", true)).toMatch(/https in production/)
    expect(webhookUrlProblem("http://10.0.0.1/x", false)).toMatch(/must be https/)
    expect(webhookUrlProblem("http://example.com/x", false)).toMatch(/must be https/)
    expect(webhookUrlProblem("ftp://example.com/x", false)).toMatch(/https/)
    expect(webhookUrlProblem("https://user:pw@example.com/x", false)).toMatch(/user name/)
    expect(webhookUrlProblem("example.com", false)).toMatch(/absolute/)
  })

  it("retries for more than 24 hours: 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, ...", () => {
    expect(RETRY_SCHEDULE_SECONDS.slice(0, 9)).toEqual([5, 30, 120, 600, 1800, 3600, 7200, 14400, 28800])
    expect(RETRY_SCHEDULE_SECONDS.reduce((a, b) => a + b, 0)).toBeGreaterThan(24 * 3600)
    expect(retryDelayMs(1, 5000)).toBe(5000)
    expect(retryDelayMs(3, 5000)).toBe(120_000)
    expect(retryDelayMs(2, 50)).toBe(300)
    expect(retryDelayMs(RETRY_SCHEDULE_SECONDS.length + 1, 5000)).toBeNull()
  })
})

describe("webhooks", () => {
  const logs: Array<string> = []
  layer(testServerLayer({}, { workers: false, logs }), { excludeTestServices: true })("endpoints", (it) => {
    it.effect("an endpoint is created with its secret shown once and listed without it; the callback secret is shown once", () =>
      Effect.gen(function* () {
        const tenant = yield* createTenant(1)
        const created = yield* addWebhook(tenant.api_key, {
          url: "https://hooks.example.com/callsight?tenant=acme",
          events: ["analysis.completed"],
          description: "CRM sync"
        })
        expect(created).toMatchObject({
          webhook_id: expect.stringMatching(/^whk_[0-9a-f]{20}$/),
          url: "https://hooks.example.com/callsight?tenant=acme",
          events: ["analysis.completed"],
          description: "CRM sync",
          status: "active",
          failing_since: null,
          disabled_at: null
        })
        expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/)
        expect(Buffer.from(created.secret.slice("whsec_".length), "base64").length).toBeGreaterThanOrEqual(24)

        const first = yield* send(tenant.api_key, "GET", "/v1/teams/webhooks")
        expect(first.status).toBe(200)
        const { secret: _, ...shown } = created
        expect(first.body.webhooks).toEqual([shown])
        expect(JSON.stringify(first.body)).not.toContain(created.secret)
        // the callback secret: made on first use, shown in this first list, never again
        expect(first.body.callback_secret).toMatch(/^whsec_/)
        const again = yield* send(tenant.api_key, "GET", "/v1/teams/webhooks")
        expect(again.body.callback_secret).toBeNull()
        expect(again.body.callback_secret_created_at).toBe(first.body.callback_secret_created_at)

        // default events: both
        const both = yield* addWebhook(tenant.api_key, { url: "http://localhost:9/hook" })
        expect(both.events).toEqual(["analysis.completed", "analysis.failed"])

        // neither secret is in the log, the database holds them sealed, the audit row names the host only
        const everything = logs.join("\n")
        for (const secret of [created.secret, both.secret, first.body.callback_secret]) {
          expect(everything).not.toContain(secret)
          expect(everything).not.toContain(secret.slice("whsec_".length))
        }
        const sql = yield* SqlClient.SqlClient
        const stored = yield* sql<{ secret_sealed: string }>`SELECT secret_sealed FROM webhook_endpoints WHERE client_id = ${tenant.client_id}`
        for (const row of stored) expect(row.secret_sealed).toMatch(/^v1\./)
        const audit = yield* sql<{ action: string; metadata: any }>`
          SELECT action, metadata FROM audit_logs WHERE client_id = ${tenant.client_id} AND target_id = ${created.webhook_id}`
        expect(audit).toEqual([{ action: "webhook.created", metadata: { host: "hooks.example.com", events: ["analysis.completed"] } }])
      }))

    it.effect("bad input is 422: not https, not a URL, unknown or no events, unknown fields; a bad callback_url too", () =>
      Effect.gen(function* () {
        const tenant = yield* createTenant(1)
        const cases: Array<[unknown, string]> = [
          [{ url: "http://hooks.example.com/x" }, "url"],
          [{ url: "ftp://hooks.example.com/x" }, "url"],
          [{ url: "not a url" }, "url"],
          [{ url: "https://hooks.example.com/x", events: ["analysis.started"] }, "events"],
          [{ url: "https://hooks.example.com/x", events: [] }, "events"],
          [{ url: "https://hooks.example.com/x", secret: "mine" }, "secret"],
          [{}, "url"]
        ]
        for (const [body, field] of cases) {
          const response = yield* send(tenant.api_key, "POST", "/v1/teams/webhooks", body)
          expect(response.status, JSON.stringify(body)).toBe(422)
          expect(response.body.detail.map((d: any) => d.loc.join("."))).toContainEqual(expect.stringContaining(field))
        }
        const badCallback = yield* uploadWith(tenant.api_key, fixture("demo-objection.mp3"), { callback_url: "http://example.com/cb" })
        expect(badCallback.status).toBe(422)
        expect(badCallback.body.detail[0]).toMatchObject({ loc: ["body", "callback_url"] })
        expect((yield* send(tenant.api_key, "GET", "/v1/teams/webhooks")).body.webhooks).toEqual([])
        expect((yield* send("csk_nope", "GET", "/v1/teams/webhooks")).status).toBe(401)
      }))

    it.effect("another tenant's webhook is answered 404, like a missing one", () =>
      Effect.gen(function* () {
        const a = yield* createTenant(1)
        const b = yield* createTenant(1)
        const hook = yield* addWebhook(a.api_key, { url: "https://a.example.com/hook" })
        expect((yield* send(b.api_key, "GET", "/v1/teams/webhooks")).body.webhooks).toEqual([])
        expect((yield* send(b.api_key, "DELETE", `/v1/teams/webhooks/${hook.webhook_id}`)).status).toBe(404)
        expect((yield* send(b.api_key, "GET", `/v1/teams/webhooks/${hook.webhook_id}/deliveries`)).status).toBe(404)
        expect((yield* send(b.api_key, "POST", `/v1/teams/webhooks/${hook.webhook_id}/deliveries/msg_x/redeliver`)).status).toBe(404)
        expect((yield* send(a.api_key, "GET", `/v1/teams/webhooks/${hook.webhook_id}/deliveries`)).body).toEqual({ deliveries: [] })

        const removed = yield* send(a.api_key, "DELETE", `/v1/teams/webhooks/${hook.webhook_id}`)
        expect(removed.status).toBe(200)
        expect(removed.body).toMatchObject({ webhook_id: hook.webhook_id, url: "https://a.example.com/hook" })
        expect(removed.body.secret).toBeUndefined()
        expect((yield* send(a.api_key, "GET", "/v1/teams/webhooks")).body.webhooks).toEqual([])
        expect((yield* send(a.api_key, "DELETE", `/v1/teams/webhooks/${hook.webhook_id}`)).status).toBe(404)
      }))
  })

  layer(testServerLayer({ webhookRetryBaseMs: 50, webhookPollMs: 100 }, { workers: true }), { excludeTestServices: true, timeout: 120_000 })(
    "delivery",
    (it) => {
      it.scoped("a completed analysis is delivered once, signed, and verifies with the library's verifier and the SDK's", () =>
        Effect.gen(function* () {
          const receiver = yield* startReceiver(() => 204)
          const other = yield* startReceiver(() => 204)
          const tenant = yield* createTenant(2)
          const hook = yield* addWebhook(tenant.api_key, { url: `${receiver.url}/hooks` })
          // another tenant's endpoint hears nothing of this tenant's calls
          const stranger = yield* createTenant(1)
          yield* addWebhook(stranger.api_key, { url: `${other.url}/hooks` })

          const call = yield* uploadWith(tenant.api_key, fixture("discovery-short.wav"), { external_call_id: "crm-7" })
          expect(call.status).toBe(202)
          const done = yield* settle(tenant.api_key, call.body.call_id)
          expect(done.status).toBe("completed")
          const [request] = yield* receiver.waitFor(1)
          expect(request.path).toBe("/hooks")
          expect(request.headers["content-type"]).toMatch(/^application\/json/)
          expect(request.headers["webhook-id"]).toMatch(/^msg_[0-9a-f]{20}$/)
          expect(Math.abs(Number(request.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(60)
          expect(request.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/)
          const payload = yield* verified(request, hook.secret)
          expect(payload).toEqual({
            type: "analysis.completed",
            timestamp: expect.any(String),
            data: {
              call_id: call.body.call_id,
              external_call_id: "crm-7",
              status: "completed",
              report_url: `http://localhost:8080/reports/${call.body.call_id}/html`,
              overall_score: done.summary.overall_score,
              method_version: expect.any(String)
            }
          })
          // a wrong secret, or an altered body, does not verify
          const wrong = `whsec_${randomBytes(32).toString("base64")}`
          expect(() => new Webhook(wrong).verify(request.body, headersOf(request))).toThrow()
          yield* Effect.promise(() =>
            expect(verifyWebhook(request.body, headersOf(request), wrong)).rejects.toBeInstanceOf(WebhookVerificationError)
          )
          yield* Effect.promise(() =>
            expect(verifyWebhook(request.body.replace("crm-7", "crm-8"), headersOf(request), hook.secret)).rejects.toThrow(/signature/)
          )

          yield* Effect.sleep("500 millis")
          expect(receiver.received).toHaveLength(1)
          expect(other.received).toHaveLength(0)
          const { body } = yield* send(tenant.api_key, "GET", `/v1/teams/webhooks/${hook.webhook_id}/deliveries`)
          expect(body.deliveries).toEqual([{
            delivery_id: request.headers["webhook-id"],
            webhook_id: hook.webhook_id,
            event_type: "analysis.completed",
            call_id: call.body.call_id,
            status: "delivered",
            created_at: expect.any(String),
            delivered_at: expect.any(String),
            next_attempt_at: null,
            attempts: [{ attempted_at: expect.any(String), status_code: 204, error: null, duration_ms: expect.any(Number), manual: false }]
          }])
        }))

      it.scoped("a receiver that fails twice then succeeds gets exactly one accepted delivery, with one webhook-id throughout", () =>
        Effect.gen(function* () {
          const receiver = yield* startReceiver((n) => (n <= 2 ? 500 : 200))
          const completedOnly = yield* startReceiver(() => 204)
          const tenant = yield* createTenant(2)
          const hook = yield* addWebhook(tenant.api_key, { url: receiver.url, events: ["analysis.failed"] })
          yield* addWebhook(tenant.api_key, { url: completedOnly.url, events: ["analysis.completed"] })

          const call = yield* uploadWith(tenant.api_key, oneSecond())
          expect((yield* settle(tenant.api_key, call.body.call_id)).status).toBe("failed")
          const requests = yield* receiver.waitFor(3)
          yield* Effect.sleep("1 second")
          expect(receiver.received).toHaveLength(3)
          expect(receiver.accepted()).toHaveLength(1)
          expect(new Set(requests.map((r) => r.headers["webhook-id"])).size).toBe(1)
          for (const request of requests) {
            expect(yield* verified(request, hook.secret)).toMatchObject({
              type: "analysis.failed",
              data: { call_id: call.body.call_id, status: "failed", error: { code: "too_short" } }
            })
          }
          expect(JSON.parse(requests[0].body).data).not.toHaveProperty("overall_score")
          expect(completedOnly.received).toHaveLength(0)

          const { body } = yield* send(tenant.api_key, "GET", `/v1/teams/webhooks/${hook.webhook_id}/deliveries`)
          expect(body.deliveries).toHaveLength(1)
          expect(body.deliveries[0].status).toBe("delivered")
          expect(body.deliveries[0].attempts.map((a: any) => [a.status_code, a.error])).toEqual([
            [500, "HTTP 500"],
            [500, "HTTP 500"],
            [200, null]
          ])
          const endpoint = (yield* send(tenant.api_key, "GET", "/v1/teams/webhooks")).body.webhooks
            .find((w: any) => w.webhook_id === hook.webhook_id)
          expect(endpoint.failing_since).toBeNull()
        }))

      it.scoped("an upload's callback_url gets the call's webhook, signed with the tenant's callback secret made on first use", () =>
        Effect.gen(function* () {
          const receiver = yield* startReceiver(() => 200)
          const tenant = yield* createTenant(2)
          const call = yield* uploadWith(tenant.api_key, oneSecond(), { callback_url: `${receiver.url}/cb/42`, external_call_id: "x-1" })
          expect(call.status).toBe(202)
          const [request] = yield* receiver.waitFor(1)
          expect(request.path).toBe("/cb/42")
          const list = yield* send(tenant.api_key, "GET", "/v1/teams/webhooks")
          expect(list.body.webhooks).toEqual([])
          const secret = list.body.callback_secret as string
          expect(secret).toMatch(/^whsec_/)
          expect(yield* verified(request, secret)).toMatchObject({
            type: "analysis.failed",
            data: { call_id: call.body.call_id, external_call_id: "x-1", status: "failed" }
          })
          // the next upload's callback is signed with the same secret
          const second = yield* uploadWith(tenant.api_key, oneSecond(), { callback_url: `${receiver.url}/cb/43` })
          const requests = yield* receiver.waitFor(2)
          expect(yield* verified(requests[1], secret)).toMatchObject({ data: { call_id: second.body.call_id } })
          expect((yield* send(tenant.api_key, "GET", "/v1/teams/webhooks")).body.callback_secret).toBeNull()
        }))

      it.scoped("redeliver sends a delivery again now, with the same webhook-id and a fresh signature", () =>
        Effect.gen(function* () {
          const receiver = yield* startReceiver(() => 200)
          const tenant = yield* createTenant(2)
          const hook = yield* addWebhook(tenant.api_key, { url: receiver.url })
          yield* uploadWith(tenant.api_key, oneSecond())
          const [first] = yield* receiver.waitFor(1)
          const deliveryId = String(first.headers["webhook-id"])
          // the receiver has its answer before the sender has written the attempt down: wait for the record
          yield* Effect.gen(function* () {
            for (;;) {
              const { body } = yield* send(tenant.api_key, "GET", `/v1/teams/webhooks/${hook.webhook_id}/deliveries`)
              if (body.deliveries[0]?.status === "delivered") return
              yield* Effect.sleep("50 millis")
            }
          }).pipe(Effect.timeout("20 seconds"))
          const again = yield* send(tenant.api_key, "POST", `/v1/teams/webhooks/${hook.webhook_id}/deliveries/${deliveryId}/redeliver`)
          expect(again.status).toBe(200)
          expect(again.body).toMatchObject({ delivery_id: deliveryId, status: "delivered" })
          expect(again.body.attempts.map((a: any) => [a.status_code, a.manual])).toEqual([[200, false], [200, true]])
          expect(receiver.received).toHaveLength(2)
          expect(receiver.received[1].headers["webhook-id"]).toBe(deliveryId)
          expect(receiver.received[1].body).toBe(first.body)
          yield* verified(receiver.received[1], hook.secret)
          const missing = yield* send(tenant.api_key, "POST", `/v1/teams/webhooks/${hook.webhook_id}/deliveries/msg_none/redeliver`)
          expect(missing.status).toBe(404)
        }))

      it.scoped("an endpoint failing for 3 days is disabled: its deliveries given up, the tenant told by an event and an audit row", () =>
        Effect.gen(function* () {
          const receiver = yield* startReceiver(() => 503)
          const tenant = yield* createTenant(2)
          const hook = yield* addWebhook(tenant.api_key, { url: receiver.url })
          const sql = yield* SqlClient.SqlClient
          // it has failed every attempt for four days already
          yield* sql`UPDATE webhook_endpoints SET failing_since = now() - interval '4 days' WHERE webhook_id = ${hook.webhook_id}`
          yield* uploadWith(tenant.api_key, oneSecond())
          yield* receiver.waitFor(1)
          const disabled = yield* Effect.gen(function* () {
            for (;;) {
              const list = yield* send(tenant.api_key, "GET", "/v1/teams/webhooks")
              const endpoint = list.body.webhooks[0]
              if (endpoint.status === "disabled") return endpoint
              yield* Effect.sleep("100 millis")
            }
          }).pipe(Effect.timeout("20 seconds"))
          expect(disabled).toMatchObject({ status: "disabled", disabled_reason: "every attempt failed for 4 days" })
          yield* Effect.sleep("1 second")
          expect(receiver.received).toHaveLength(1)
          const { body } = yield* send(tenant.api_key, "GET", `/v1/teams/webhooks/${hook.webhook_id}/deliveries`)
          expect(body.deliveries[0]).toMatchObject({ status: "failed", next_attempt_at: null })
          const events = yield* sql<{ type: string; platform: string; error: string }>`
            SELECT type, platform, error FROM call_events WHERE client_id = ${tenant.client_id} AND type = 'webhook_disabled'`
          expect(events).toHaveLength(1)
          expect(events[0].error).toContain(hook.webhook_id)
          const audit = yield* sql<{ actor_type: string; metadata: any }>`
            SELECT actor_type, metadata FROM audit_logs WHERE client_id = ${tenant.client_id} AND action = 'webhook.disabled'`
          expect(audit).toEqual([{ actor_type: "system", metadata: { host: new URL(receiver.url).host, reason: "every attempt failed for 4 days" } }])
          const redeliver = yield* send(
            tenant.api_key,
            "POST",
            `/v1/teams/webhooks/${hook.webhook_id}/deliveries/${body.deliveries[0].delivery_id}/redeliver`
          )
          expect(redeliver.status).toBe(409)
        }))
    }
  )
})

describe("webhooks across a restart", () => {
  /** A server with workers on `database`; the sender on or off. Both runs share the secrets key and the blobs. */
  const serverOn = <E>(database: Layer.Layer<any, E>, settings: { secretsKey: string; blobDir: string }, delivery: boolean) =>
    makeServerLayer(NodeHttpServer.layerTest, database, { workers: true }).pipe(
      Layer.provide(
        AppConfig.layerWith({
          adminApiKey: Option.some(Redacted.make(ADMIN_KEY)),
          assistantApiKey: Option.some(Redacted.make(ASSISTANT_KEY)),
          secretsKey: Option.some(Redacted.make(settings.secretsKey)),
          blobDir: settings.blobDir,
          webhookDelivery: delivery,
          webhookRetryBaseMs: 50,
          webhookPollMs: 100
        })
      ),
      Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
    )

  it.live("a server stopped between the status change and the delivery delivers after a restart on the same database", () =>
    Effect.gen(function* () {
      const receiver = yield* startReceiver(() => 200)
      const url = yield* TestDatabase.testDatabaseUrl()
      const dataDir = mkdtempSync(join(tmpdir(), "callsight-webhooks-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
      // the embedded database in a directory of its own, from the run's migrated one
      if (url === undefined) copyPgliteTemplate(join(dataDir, "db"))
      const database = url === undefined
        ? layerPglite({ dataDir: join(dataDir, "db") })
        : layerPostgres({ url: Redacted.make(url), maxConnections: 4, applicationName: "callsight-test" })
      const settings = { secretsKey: randomBytes(32).toString("base64"), blobDir: join(dataDir, "blobs") }

      // First run: the sender is off, as if the process died right after the status change committed.
      const first = yield* Effect.gen(function* () {
        const tenant = yield* createTenant(2)
        const hook = yield* addWebhook(tenant.api_key, { url: receiver.url })
        const call = yield* uploadWith(tenant.api_key, oneSecond())
        expect((yield* settle(tenant.api_key, call.body.call_id)).status).toBe("failed")
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ state: string }>`SELECT state FROM webhook_deliveries WHERE call_id = ${call.body.call_id}`
        expect(rows).toEqual([{ state: "pending" }])
        return { tenant, hook, callId: call.body.call_id as string }
      }).pipe(Effect.provide(serverOn(database, settings, false)))
      yield* Effect.sleep("300 millis")
      expect(receiver.received).toHaveLength(0)

      // Second run on the same database: the delivery written with the status arrives.
      yield* Effect.gen(function* () {
        const [request] = yield* receiver.waitFor(1, { timeoutMs: 30_000 })
        expect(yield* verified(request, first.hook.secret)).toMatchObject({
          type: "analysis.failed",
          data: { call_id: first.callId, status: "failed" }
        })
        // the receiver answered; the sender records it just after
        const deliveries = yield* Effect.gen(function* () {
          for (;;) {
            const { body } = yield* send(first.tenant.api_key, "GET", `/v1/teams/webhooks/${first.hook.webhook_id}/deliveries`)
            if (body.deliveries[0]?.status !== "pending") return body.deliveries
            yield* Effect.sleep("100 millis")
          }
        }).pipe(Effect.timeout("10 seconds"))
        expect(deliveries).toMatchObject([{ status: "delivered", call_id: first.callId }])
      }).pipe(Effect.provide(serverOn(database, settings, true)))
      expect(receiver.received).toHaveLength(1)
    }).pipe(Effect.scoped), { timeout: 120_000 })
})
