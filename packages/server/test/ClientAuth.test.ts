/**
 * Portal sign-in (spec 4.2) against a real SMTP server started in the test: signup, the e-mailed
 * magic link, verify and its cookie, me (with the closer the user is), logout; single use and the 15-minute expiry of links;
 * the same answer for unknown e-mails; sliding sessions; rate limits; the outbox without SMTP.
 */
import { describe, expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { createHash } from "node:crypto"
import { call, freshEmail, memberSession, sessionCookie, signUpByMail, tokenOf } from "./utils/PortalRequests.js"
import { seedCloser, seedWeekCall } from "./utils/SeedCalls.js"
import { serverWithSmtp, Smtp } from "./utils/SmtpServerLayer.js"
import { testServerLayer } from "./utils/TestServer.js"

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex")

describe("client authentication", () => {
  layer(serverWithSmtp(), { excludeTestServices: true })("with SMTP", (it) => {
    it.effect("signup creates the tenant and its owner and e-mails a link; verify opens a session; me names the user", () =>
      Effect.gen(function* () {
        const smtp = yield* Smtp
        const sql = yield* SqlClient.SqlClient
        const email = freshEmail()
        const signup = yield* call("POST", "/v1/client-auth/signup", {
          body: { email, company_name: "Acme Corp", full_name: "Ana Owner", industry: "Software" }
        })
        expect(signup.status).toBe(201)
        expect(signup.body).toEqual({ client_id: expect.stringMatching(/^cli_/), user_id: expect.stringMatching(/^usr_/), email, magic_link_sent: true })
        const [tenant] = yield* sql`SELECT company_name, industry, plan FROM tenants WHERE client_id = ${signup.body.client_id}`
        expect(tenant).toEqual({ company_name: "Acme Corp", industry: "Software", plan: "trial" })

        const mail = yield* smtp.waitFor(email)
        expect(mail.subject).toBe("Your Callsight sign-in link")
        expect(mail.from).toContain("no-reply@localhost")
        const token = tokenOf(mail)
        expect(mail.text).toContain(`http://localhost:8080/sign-in#token=${token}`)
        expect(mail.html).toContain(`href="http://localhost:8080/sign-in#token=${token}"`)
        expect(mail.text).toContain(`callsight verify ${token}`)
        // the token is stored only as its hash, for 15 minutes
        const [link] = yield* sql<{ token_hash: string; minutes: number }>`
          SELECT token_hash, extract(epoch FROM expires_at - created_at)::float8 / 60 AS minutes FROM magic_links WHERE email = ${email}`
        expect(link).toEqual({ token_hash: sha256(token), minutes: 15 })

        const verified = yield* call("POST", "/v1/client-auth/verify", { body: { token } })
        expect(verified.status).toBe(200)
        expect(verified.body.user).toMatchObject({
          user_id: signup.body.user_id,
          client_id: signup.body.client_id,
          email,
          full_name: "Ana Owner",
          role: "owner",
          company_name: "Acme Corp",
          last_login_at: expect.any(String),
          // an owner who does not sell is no closer; the account is not closing
          closer: null,
          account_closing: null
        })
        const expiresIn = Date.parse(verified.body.session_expires_at) - Date.now()
        expect(expiresIn).toBeGreaterThan(14 * 86_400_000 - 60_000)
        expect(expiresIn).toBeLessThanOrEqual(14 * 86_400_000)
        const cookie = Option.getOrThrow(sessionCookie(verified))
        expect(cookie.options).toMatchObject({ httpOnly: true, sameSite: "lax", path: "/" })
        expect(cookie.options?.secure).not.toBe(true)
        const setCookie = verified.headers["set-cookie"]!
        expect(setCookie).toMatch(/^callsight_session=[A-Za-z0-9_-]+; Max-Age=1209600; Path=\/; HttpOnly; SameSite=Lax$/)
        // the session is stored as the hash of the cookie's value
        const sessions = yield* sql<{ session_hash: string; ip: string | null }>`SELECT session_hash, ip FROM sessions WHERE user_id = ${signup.body.user_id}`
        expect(sessions).toEqual([{ session_hash: sha256(cookie.value), ip: "127.0.0.1" }])

        const me = yield* call("GET", "/v1/client-auth/me", { session: cookie.value })
        expect(me.status).toBe(200)
        expect(me.body).toEqual(verified.body.user)

        const audit = yield* sql<{ action: string; actor: string }>`
          SELECT action, actor FROM audit_logs WHERE client_id = ${signup.body.client_id} ORDER BY at`
        expect(audit).toEqual([
          { action: "tenant.signed_up", actor: signup.body.user_id },
          { action: "user.signed_in", actor: signup.body.user_id }
        ])
      }))

    it.effect("me names the closer the user is (verified, not removed, the same e-mail in any case), as the session door sees it; else null", () =>
      Effect.gen(function* () {
        const smtp = yield* Smtp
        const sql = yield* SqlClient.SqlClient
        const ownerEmail = freshEmail()
        const owner = yield* signUpByMail(smtp, ownerEmail)
        const me = (session: string) =>
          Effect.map(call("GET", "/v1/client-auth/me", { session }), (r) => {
            expect(r.status, JSON.stringify(r.body)).toBe(200)
            return r.body
          })
        expect((yield* me(owner.session)).closer).toBeNull()

        // a rep: the closer whose e-mail is theirs, whatever its case
        const repEmail = freshEmail("rep")
        const closerId = yield* seedCloser(owner.clientId, repEmail.toUpperCase(), "Rita Rep")
        const rep = yield* memberSession(smtp, owner.clientId, repEmail)
        const repMe = yield* me(rep)
        expect(repMe).toMatchObject({ email: repEmail, role: "member", closer: { closer_id: closerId, email: repEmail.toUpperCase(), full_name: "Rita Rep" } })
        // the calls the rep sees are that closer's: the door reads the same rule
        yield* seedWeekCall(owner.clientId, { closerEmail: repEmail, weeksAgo: 0, overall: 70 })
        yield* seedWeekCall(owner.clientId, { closerEmail: "someone.else@acme.test", weeksAgo: 0, overall: 70 })
        const theirCalls = yield* call("GET", "/v1/teams/calls", { session: rep })
        expect(theirCalls.body.calls.map((c: any) => c.closer_email)).toEqual([repEmail])

        // a member whose closer has not confirmed their e-mail is no closer yet
        const newEmail = freshEmail("new")
        expect((yield* call("POST", "/v1/client-portal/closers", { session: owner.session, body: { email: newEmail, full_name: "Nia New" } })).status).toBe(200)
        const newcomer = yield* memberSession(smtp, owner.clientId, newEmail)
        expect((yield* me(newcomer)).closer).toBeNull()

        // nor is a removed closer, nor another tenant's closer of the same e-mail
        const goneEmail = freshEmail("gone")
        yield* seedCloser(owner.clientId, goneEmail, "Gil Gone", "removed")
        expect((yield* me(yield* memberSession(smtp, owner.clientId, goneEmail))).closer).toBeNull()
        const other = yield* signUpByMail(smtp, freshEmail())
        const salesOpsEmail = freshEmail("ops")
        yield* seedCloser(other.clientId, salesOpsEmail, "Their Closer")
        const salesOps = yield* memberSession(smtp, owner.clientId, salesOpsEmail)
        expect((yield* me(salesOps)).closer).toBeNull()

        // once verified, the newcomer is that closer at once (no new session needed); an owner who sells is one too
        yield* sql`UPDATE closers SET email_verified_at = now(), status = 'active' WHERE client_id = ${owner.clientId} AND email = ${newEmail}`
        expect((yield* me(newcomer)).closer).toMatchObject({ email: newEmail, full_name: "Nia New" })
        const ownerCloser = yield* seedCloser(owner.clientId, ownerEmail, "Ana Owner")
        expect((yield* me(owner.session)).closer).toEqual({ closer_id: ownerCloser, email: ownerEmail, full_name: "Ana Owner" })
        // removed later: no longer
        yield* sql`UPDATE closers SET status = 'removed' WHERE closer_id = ${closerId}`
        expect((yield* me(rep)).closer).toBeNull()
      }))

    it.effect("a link works once: the second verify is 401", () =>
      Effect.gen(function* () {
        const smtp = yield* Smtp
        const email = freshEmail()
        yield* call("POST", "/v1/client-auth/signup", { body: { email, company_name: "Once" } })
        const token = tokenOf(yield* smtp.waitFor(email))
        expect((yield* call("POST", "/v1/client-auth/verify", { body: { token } })).status).toBe(200)
        const again = yield* call("POST", "/v1/client-auth/verify", { body: { token } })
        expect(again.status).toBe(401)
        expect(again.body).toEqual({ _tag: "Unauthorized", message: "the sign-in link is unknown, used or expired: ask for a new one" })
        expect(Option.isNone(sessionCookie(again))).toBe(true)
        expect((yield* call("POST", "/v1/client-auth/verify", { body: { token: "mlk_not-a-real-token" } })).status).toBe(401)
      }))

    it.effect("using a link ends the user's other sign-in links: an older one is 401 after a newer one was used", () =>
      Effect.gen(function* () {
        const smtp = yield* Smtp
        const email = freshEmail()
        const other = freshEmail()
        yield* call("POST", "/v1/client-auth/signup", { body: { email, company_name: "Two links" } })
        yield* call("POST", "/v1/client-auth/signup", { body: { email: other, company_name: "Someone else" } })
        const first = tokenOf(yield* smtp.waitFor(email))
        yield* call("POST", "/v1/client-auth/login", { body: { email } })
        const second = tokenOf(yield* smtp.waitFor(email, 2))
        const othersLink = tokenOf(yield* smtp.waitFor(other))
        expect(second).not.toBe(first)
        expect((yield* call("POST", "/v1/client-auth/verify", { body: { token: second } })).status).toBe(200)
        const older = yield* call("POST", "/v1/client-auth/verify", { body: { token: first } })
        expect(older.status).toBe(401)
        expect(Option.isNone(sessionCookie(older))).toBe(true)
        // another user's link is untouched
        expect((yield* call("POST", "/v1/client-auth/verify", { body: { token: othersLink } })).status).toBe(200)
      }))

    it.effect("a link past its 15 minutes is 401", () =>
      Effect.gen(function* () {
        const smtp = yield* Smtp
        const sql = yield* SqlClient.SqlClient
        const email = freshEmail()
        yield* call("POST", "/v1/client-auth/signup", { body: { email, company_name: "Late" } })
        const token = tokenOf(yield* smtp.waitFor(email))
        // the 15 minutes pass
        yield* sql`UPDATE magic_links SET expires_at = now() - interval '1 second' WHERE token_hash = ${sha256(token)}`
        expect((yield* call("POST", "/v1/client-auth/verify", { body: { token } })).status).toBe(401)
      }))

    it.effect("login answers the same whether or not the e-mail has an account; only an account gets a link", () =>
      Effect.gen(function* () {
        const smtp = yield* Smtp
        const known = freshEmail()
        yield* signUpByMail(smtp, known)
        const unknown = freshEmail("nobody")
        const forKnown = yield* call("POST", "/v1/client-auth/login", { body: { email: known.toUpperCase() } })
        const forUnknown = yield* call("POST", "/v1/client-auth/login", { body: { email: unknown } })
        expect(forKnown.status).toBe(200)
        expect(forUnknown.status).toBe(200)
        expect(forUnknown.body).toEqual(forKnown.body)
        expect(forKnown.body).toEqual({
          magic_link_sent: true,
          message: "If an account exists for this e-mail, a sign-in link is on its way. It works once, for 15 minutes."
        })
        // the account gets its second link (the first came with the signup); the unknown address none
        const second = yield* smtp.waitFor(known, 2)
        expect((yield* call("POST", "/v1/client-auth/verify", { body: { token: tokenOf(second) } })).status).toBe(200)
        yield* Effect.sleep("300 millis")
        expect(smtp.to(unknown)).toEqual([])
      }))

    it.effect("logout destroys the session server-side and clears the cookie", () =>
      Effect.gen(function* () {
        const smtp = yield* Smtp
        const sql = yield* SqlClient.SqlClient
        const { clientId, userId, session } = yield* signUpByMail(smtp, freshEmail())
        const out = yield* call("POST", "/v1/client-auth/logout", { session })
        expect(out.status).toBe(200)
        expect(out.body).toEqual({ logged_out: true })
        expect(out.headers["set-cookie"]).toMatch(/^callsight_session=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax$/)
        expect(yield* sql`SELECT 1 FROM sessions WHERE session_hash = ${sha256(session)}`).toEqual([])
        const me = yield* call("GET", "/v1/client-auth/me", { session })
        expect(me.status).toBe(401)
        const [last] = yield* sql<{ action: string }>`SELECT action FROM audit_logs WHERE client_id = ${clientId} AND actor = ${userId} ORDER BY at DESC LIMIT 1`
        expect(last!.action).toBe("user.signed_out")
      }))

    it.effect("without a session, or with an unknown one, me and logout are 401", () =>
      Effect.gen(function* () {
        for (const session of [undefined, "ses_forged", ""]) {
          const me = yield* call("GET", "/v1/client-auth/me", session === undefined ? {} : { session })
          expect(me.status, String(session)).toBe(401)
          expect(me.body._tag).toBe("Unauthorized")
          expect((yield* call("POST", "/v1/client-auth/logout", session === undefined ? {} : { session })).status).toBe(401)
        }
      }))

    it.effect("the session slides: used after a while, it lasts 14 days from then and the cookie is sent again", () =>
      Effect.gen(function* () {
        const smtp = yield* Smtp
        const sql = yield* SqlClient.SqlClient
        const { session } = yield* signUpByMail(smtp, freshEmail())
        // a fresh session is not written again on every request
        const first = yield* call("GET", "/v1/client-auth/me", { session })
        expect(first.headers["set-cookie"]).toBeUndefined()
        // ten days later
        yield* sql`UPDATE sessions SET last_seen_at = now() - interval '10 days', expires_at = now() + interval '4 days'
                   WHERE session_hash = ${sha256(session)}`
        const later = yield* call("GET", "/v1/client-auth/me", { session })
        expect(later.status).toBe(200)
        expect(later.headers["set-cookie"]).toMatch(new RegExp(`^callsight_session=${session}; Max-Age=1209600;`))
        const [row] = yield* sql<{ days: number }>`
          SELECT extract(epoch FROM expires_at - now())::float8 / 86400 AS days FROM sessions WHERE session_hash = ${sha256(session)}`
        expect(row!.days).toBeGreaterThan(13.99)
        // past its expiry it is gone
        yield* sql`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE session_hash = ${sha256(session)}`
        expect((yield* call("GET", "/v1/client-auth/me", { session })).status).toBe(401)
      }))

    it.effect("signup with an e-mail that has an account is 409, whatever its case", () =>
      Effect.gen(function* () {
        const email = freshEmail()
        expect((yield* call("POST", "/v1/client-auth/signup", { body: { email, company_name: "First" } })).status).toBe(201)
        const again = yield* call("POST", "/v1/client-auth/signup", { body: { email: email.toUpperCase(), company_name: "Second" } })
        expect(again.status).toBe(409)
        expect(again.body._tag).toBe("Conflict")
        const sql = yield* SqlClient.SqlClient
        expect(yield* sql`SELECT 1 FROM tenants WHERE company_name = 'Second'`).toEqual([])
      }))

    it.effect("bad input is 422 with its detail: no e-mail, not an e-mail, an empty company, an empty token", () =>
      Effect.gen(function* () {
        const cases = [
          ["/v1/client-auth/login", {}, ["body", "email"]],
          ["/v1/client-auth/login", { email: "not-an-email" }, ["body", "email"]],
          ["/v1/client-auth/signup", { email: freshEmail(), company_name: "   " }, ["body", "company_name"]],
          ["/v1/client-auth/verify", { token: "" }, ["body", "token"]]
        ] as const
        for (const [path, body, loc] of cases) {
          const reply = yield* call("POST", path, { body })
          expect(reply.status, JSON.stringify(body)).toBe(422)
          expect(reply.body.detail[0].loc).toEqual(loc)
        }
      }))
  })

  layer(serverWithSmtp({ signInLimitPerEmail: 2, signInLimitPerAddress: 4 }), { excludeTestServices: true })("rate limits", (it) => {
    it.effect("a third request for one e-mail within 15 minutes is 429 with Retry-After; so is a fifth from one address", () =>
      Effect.gen(function* () {
        const email = freshEmail()
        for (let i = 0; i < 2; i++) expect((yield* call("POST", "/v1/client-auth/login", { body: { email } })).status).toBe(200)
        const third = yield* call("POST", "/v1/client-auth/login", { body: { email } })
        expect(third.status).toBe(429)
        expect(third.body).toMatchObject({ _tag: "TooManyRequests", message: "too many sign-in requests for this e-mail; try again later" })
        const retryAfter = Number(third.headers["retry-after"])
        expect(retryAfter).toBeGreaterThan(0)
        expect(retryAfter).toBeLessThanOrEqual(15 * 60)
        expect(third.body.retry_after_s).toBe(retryAfter)
        // signup counts against the same e-mail
        expect((yield* call("POST", "/v1/client-auth/signup", { body: { email, company_name: "Busy" } })).status).toBe(429)
        // every attempt counts against the address, refused ones too: the four above fill it
        const fifth = yield* call("POST", "/v1/client-auth/login", { body: { email: freshEmail() } })
        expect(fifth.status).toBe(429)
        expect(fifth.body.message).toBe("too many sign-in requests for this address; try again later")
      }))
  })

  layer(serverWithSmtp({ publicBaseUrl: "https://app.callsight.example", cookieSecure: true }), { excludeTestServices: true })(
    "behind https",
    (it) => {
      it.effect("the cookie is Secure and the links point at PUBLIC_BASE_URL", () =>
        Effect.gen(function* () {
          const smtp = yield* Smtp
          const email = freshEmail()
          yield* call("POST", "/v1/client-auth/signup", { body: { email, company_name: "Secure" } })
          const mail = yield* smtp.waitFor(email)
          expect(mail.text).toContain("https://app.callsight.example/sign-in#token=")
          const verified = yield* call("POST", "/v1/client-auth/verify", { body: { token: tokenOf(mail) } })
          expect(verified.headers["set-cookie"]).toMatch(/; Secure;|; Secure$/)
        }))
    }
  )

  layer(testServerLayer(), { excludeTestServices: true })("without SMTP", (it) => {
    it.effect("the e-mail is kept in the outbox with its link, and the link signs in", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const email = freshEmail()
        const signup = yield* call("POST", "/v1/client-auth/signup", { body: { email, company_name: "Offline" } })
        expect(signup.body.magic_link_sent).toBe(true)
        const [kept] = yield* sql<{ subject: string; text_body: string }>`SELECT subject, text_body FROM email_outbox WHERE to_address = ${email}`
        expect(kept!.subject).toBe("Your Callsight sign-in link")
        const token = /#token=([A-Za-z0-9_-]+)/.exec(kept!.text_body)![1]!
        const verified = yield* call("POST", "/v1/client-auth/verify", { body: { token } })
        expect(verified.status).toBe(200)
        expect(verified.body.user.email).toBe(email)
      }))

    it.effect("each session is its own user's: two tenants, two sessions, two answers of me", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const sessions: Array<{ session: string; email: string }> = []
        for (const company of ["One", "Two"]) {
          const email = freshEmail()
          yield* call("POST", "/v1/client-auth/signup", { body: { email, company_name: company } })
          const [kept] = yield* sql<{ text_body: string }>`SELECT text_body FROM email_outbox WHERE to_address = ${email}`
          const token = /#token=([A-Za-z0-9_-]+)/.exec(kept!.text_body)![1]!
          const verified = yield* call("POST", "/v1/client-auth/verify", { body: { token } })
          sessions.push({ session: Option.getOrThrow(sessionCookie(verified)).value, email })
        }
        for (const s of sessions) {
          expect((yield* call("GET", "/v1/client-auth/me", { session: s.session })).body.email).toBe(s.email)
        }
      }))
  })
})
