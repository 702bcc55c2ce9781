/**
 * Closers (spec 4.3): add with a verification e-mail (read from a real SMTP server), the public
 * verify-email by token, status changes and their rules, resending, another tenant's closers.
 */
import { describe, expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { call, freshEmail, newTenant, tokenOf } from "./utils/PortalRequests.js"
import { serverWithSmtp, Smtp } from "./utils/SmtpServerLayer.js"




describe("closers", () => {
  layer(serverWithSmtp(), { excludeTestServices: true })("signed in", (it) => {
    it.effect("adding a closer e-mails a link; the closer's click (no session) verifies the e-mail and activates the closer", () =>
      Effect.gen(function* () {
        const smtp = yield* Smtp
        const { clientId, session } = yield* newTenant("Closer Co")
        const email = freshEmail("cleo")
        const added = yield* call("POST", "/v1/client-portal/closers", { session, body: { email, full_name: "Cleo Closer", team: "EMEA" } })
        expect(added.status).toBe(200)
        expect(added.body).toEqual({
          closer_id: expect.stringMatching(/^clo_/),
          email,
          full_name: "Cleo Closer",
          team: "EMEA",
          status: "pending_verification",
          email_verified_at: null,
          calendar: { connected: false, connected_at: null, token_expires_at: null },
          video: { connected: false, connected_at: null, token_expires_at: null },
          created_at: expect.any(String),
          updated_at: expect.any(String)
        })
        const mail = yield* smtp.waitFor(email)
        expect(mail.subject).toBe("Confirm your e-mail for Closer Co on Callsight")
        expect(mail.text).toContain("Hello Cleo Closer,")
        expect(mail.text).toContain(`http://localhost:8080/verify-email#token=${tokenOf(mail)}`)

        // before verification, the closer cannot be made active
        const early = yield* call("PATCH", `/v1/client-portal/closers/${added.body.closer_id}`, { session, body: { status: "active" } })
        expect(early.status).toBe(409)
        expect(early.body.message).toMatch(/not verified/)

        const verified = yield* call("POST", "/v1/client-portal/closers/verify-email", { body: { token: tokenOf(mail) } })
        expect(verified.status).toBe(200)
        expect(verified.body).toEqual({ closer_id: added.body.closer_id, email, status: "active", email_verified_at: expect.any(String) })
        const again = yield* call("POST", "/v1/client-portal/closers/verify-email", { body: { token: tokenOf(mail) } })
        expect(again.status).toBe(401)
        expect((yield* call("POST", "/v1/client-portal/closers/verify-email", { body: { token: "nope" } })).status).toBe(401)

        const list = yield* call("GET", "/v1/client-portal/closers", { session })
        expect(list.body.closers).toEqual([{ ...added.body, status: "active", email_verified_at: verified.body.email_verified_at, updated_at: expect.any(String) }])

        const sql = yield* SqlClient.SqlClient
        const audit = yield* sql<{ action: string; target_id: string }>`
          SELECT action, target_id FROM audit_logs WHERE client_id = ${clientId} AND target_type = 'closer' ORDER BY at`
        expect(audit).toEqual([
          { action: "closer.added", target_id: added.body.closer_id },
          { action: "closer.email_verified", target_id: added.body.closer_id }
        ])
      }))

    it.effect("status changes: paused, active again once verified, removed; each with its audit row", () =>
      Effect.gen(function* () {
        const smtp = yield* Smtp
        const { clientId, session } = yield* newTenant()
        const email = freshEmail("pat")
        const closer = (yield* call("POST", "/v1/client-portal/closers", { session, body: { email, full_name: "Pat" } })).body
        yield* call("POST", "/v1/client-portal/closers/verify-email", { body: { token: tokenOf(yield* smtp.waitFor(email)) } })
        const path = `/v1/client-portal/closers/${closer.closer_id}`
        for (const status of ["paused", "active", "removed"] as const) {
          const reply = yield* call("PATCH", path, { session, body: { status } })
          expect(reply.status, status).toBe(200)
          expect(reply.body.status).toBe(status)
        }
        // the service's own status cannot be set, nor an unknown one
        for (const status of ["pending_verification", "fired"]) {
          const reply = yield* call("PATCH", path, { session, body: { status } })
          expect(reply.status, status).toBe(422)
          expect(reply.body.detail[0].loc).toEqual(["body", "status"])
        }
        const sql = yield* SqlClient.SqlClient
        const changes = yield* sql<{ metadata: { from: string; to: string } }>`
          SELECT metadata FROM audit_logs WHERE client_id = ${clientId} AND action = 'closer.status_changed' ORDER BY at`
        expect(changes.map((c) => [c.metadata.from, c.metadata.to])).toEqual([["active", "paused"], ["paused", "active"], ["active", "removed"]])
      }))

    it.effect("the same e-mail twice is 409; a removed closer added again is pending verification again", () =>
      Effect.gen(function* () {
        const smtp = yield* Smtp
        const { session } = yield* newTenant()
        const email = freshEmail("dup")
        const first = (yield* call("POST", "/v1/client-portal/closers", { session, body: { email, full_name: "Dee" } })).body
        const dup = yield* call("POST", "/v1/client-portal/closers", { session, body: { email: email.toUpperCase(), full_name: "Dee Again" } })
        expect(dup.status).toBe(409)
        expect(dup.body._tag).toBe("Conflict")
        yield* call("POST", "/v1/client-portal/closers/verify-email", { body: { token: tokenOf(yield* smtp.waitFor(email)) } })
        yield* call("PATCH", `/v1/client-portal/closers/${first.closer_id}`, { session, body: { status: "removed" } })
        const back = yield* call("POST", "/v1/client-portal/closers", { session, body: { email, full_name: "Dee Returns" } })
        expect(back.status).toBe(200)
        expect(back.body).toMatchObject({ closer_id: first.closer_id, full_name: "Dee Returns", status: "pending_verification", email_verified_at: null })
        // a new verification e-mail went out
        expect(tokenOf(yield* smtp.waitFor(email, 2))).not.toBe(tokenOf((yield* smtp.waitFor(email, 1))))
      }))

    it.effect("send-verification e-mails a new link, valid 15 minutes, that verifies; 409 once verified", () =>
      Effect.gen(function* () {
        const smtp = yield* Smtp
        const { session } = yield* newTenant()
        const email = freshEmail("rex")
        const closer = (yield* call("POST", "/v1/client-portal/closers", { session, body: { email, full_name: "Rex" } })).body
        const resent = yield* call("POST", `/v1/client-portal/closers/${closer.closer_id}/send-verification`, { session })
        expect(resent.status).toBe(200)
        expect(resent.body).toEqual({ closer_id: closer.closer_id, email, verification_sent: true, expires_at: expect.any(String) })
        const minutes = (Date.parse(resent.body.expires_at) - Date.now()) / 60_000
        expect(minutes).toBeGreaterThan(14.5)
        expect(minutes).toBeLessThanOrEqual(15)
        const second = yield* smtp.waitFor(email, 2)
        expect((yield* call("POST", "/v1/client-portal/closers/verify-email", { body: { token: tokenOf(second) } })).status).toBe(200)
        const done = yield* call("POST", `/v1/client-portal/closers/${closer.closer_id}/send-verification`, { session })
        expect(done.status).toBe(409)
        expect(done.body.message).toMatch(/already verified/)
      }))

    it.effect("another tenant's closers: absent from its list, 404 on change and resend", () =>
      Effect.gen(function* () {
        const { session } = yield* newTenant()
        const closer = (yield* call("POST", "/v1/client-portal/closers", { session, body: { email: freshEmail("own"), full_name: "Own" } })).body
        const other = yield* newTenant("Other")
        expect((yield* call("GET", "/v1/client-portal/closers", { session: other.session })).body.closers).toEqual([])
        const patch = yield* call("PATCH", `/v1/client-portal/closers/${closer.closer_id}`, { session: other.session, body: { status: "paused" } })
        expect(patch.status).toBe(404)
        expect(patch.body).toEqual({ _tag: "NotFound", message: `no closer ${closer.closer_id}` })
        const resend = yield* call("POST", `/v1/client-portal/closers/${closer.closer_id}/send-verification`, { session: other.session })
        expect(resend.status).toBe(404)
        expect((yield* call("GET", "/v1/client-portal/closers", { session })).body.closers[0].status).toBe("pending_verification")
      }))

    it.effect("bad closers are 422: no e-mail, not an e-mail, no name", () =>
      Effect.gen(function* () {
        const { session } = yield* newTenant()
        for (const [body, field] of [
          [{ full_name: "No Mail" }, "email"],
          [{ email: "nope", full_name: "Bad" }, "email"],
          [{ email: freshEmail("x"), full_name: "  " }, "full_name"]
        ] as const) {
          const reply = yield* call("POST", "/v1/client-portal/closers", { session, body })
          expect(reply.status, JSON.stringify(body)).toBe(422)
          expect(reply.body.detail[0].loc).toEqual(["body", field])
        }
        expect((yield* call("GET", "/v1/client-portal/closers", { session })).body.closers).toEqual([])
      }))
  })
})
