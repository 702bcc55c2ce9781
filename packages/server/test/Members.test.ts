/**
 * A team, not a login (issue 36, members): invitations by e-mail through a real SMTP server, the
 * link that makes the user once, resend and revoke, roles changed at once for open sessions,
 * removal that ends sessions, the last owner kept, who may do what, and another tenant's members
 * and invitations out of reach (404).
 */
import { describe, expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { admin } from "./utils/AudioRequests.js"
import { call, freshEmail, newTenant, sessionCookie, tokenOf } from "./utils/PortalRequests.js"
import { serverWithSmtp, Smtp } from "./utils/SmtpServerLayer.js"

/** Invites `email` as `role`; the invitation's answer and the token of the e-mail that came. */
const invite = (session: string, email: string, role: string) =>
  Effect.gen(function* () {
    const smtp = yield* Smtp
    const before = smtp.to(email).length
    const reply = yield* call("POST", "/v1/client-portal/members/invitations", { session, body: { email, role } })
    if (reply.status !== 201) return { reply, token: null as string | null, mail: null as any }
    const mail = yield* Effect.orDie(smtp.waitFor(email, before + 1))
    return { reply, token: tokenOf(mail), mail }
  })

/** Takes an invitation's (or a sign-in) link: the answer, and the session it opened. */
const accept = (token: string) =>
  Effect.map(call("POST", "/v1/client-auth/verify", { body: { token } }), (r) => ({ reply: r, session: Option.getOrUndefined(Option.map(sessionCookie(r), (c) => c.value)) }))

const auditOf = (clientId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ action: string; metadata: any }>`SELECT action, metadata FROM audit_logs WHERE client_id = ${clientId} AND action LIKE 'member.%' ORDER BY at, log_id`)

describe("members", () => {
  layer(serverWithSmtp(), { excludeTestServices: true })("with SMTP", (it) => {
    it.effect("an owner invites by e-mail; the link makes the user once, with the role; the list and me show it", () =>
      Effect.gen(function* () {
        const owner = yield* newTenant("Team Co")
        const email = freshEmail()
        const { mail, reply, token } = yield* invite(owner.session, email, "member")
        expect(reply.status).toBe(201)
        expect(reply.body).toMatchObject({ invitation_id: expect.stringMatching(/^inv_/), email, role: "member", invited_by: owner.userId, status: "pending" })
        const days = (Date.parse(reply.body.expires_at) - Date.parse(reply.body.created_at)) / 86_400_000
        expect(days).toBeCloseTo(7, 3)
        expect(mail.subject).toBe("You are invited to Team Co on Callsight")
        expect(mail.text).toContain(`/sign-in#token=${token}`)
        // the token is stored only as its hash
        const sql = yield* SqlClient.SqlClient
        expect((yield* sql`SELECT 1 FROM invitations WHERE token_hash = ${token!}`)).toHaveLength(0)

        const listed = yield* call("GET", "/v1/client-portal/members", { session: owner.session })
        expect(listed.body.members.map((m: any) => [m.email, m.role])).toHaveLength(1)
        expect(listed.body.invitations.map((i: any) => [i.email, i.status])).toEqual([[email, "pending"]])

        const joined = yield* accept(token!)
        expect(joined.reply.status).toBe(200)
        expect(joined.reply.body.user).toMatchObject({ email, role: "member", client_id: owner.clientId, company_name: "Team Co" })
        const me = yield* call("GET", "/v1/client-auth/me", { session: joined.session })
        expect(me.body).toMatchObject({ email, role: "member" })
        // once: the second use is refused, and no second user is made
        expect((yield* accept(token!)).reply.status).toBe(401)
        const after = yield* call("GET", "/v1/client-portal/members", { session: owner.session })
        expect(after.body.members.map((m: any) => [m.email, m.role])).toContainEqual([email, "member"])
        expect(after.body.members).toHaveLength(2)
        expect(after.body.invitations).toEqual([])
        // the new member signs in like anyone else afterwards
        expect((yield* call("POST", "/v1/client-auth/login", { body: { email } })).status).toBe(200)
        expect((yield* auditOf(owner.clientId)).map((a) => a.action)).toEqual(["member.invited", "member.joined"])
      }))

    it.effect("409 for an e-mail with an account or an open invitation; resend replaces the link; revoke ends it", () =>
      Effect.gen(function* () {
        const smtp = yield* Smtp
        const owner = yield* newTenant()
        const other = yield* newTenant()
        const theirEmail = (yield* call("GET", "/v1/client-auth/me", { session: other.session })).body.email
        expect((yield* invite(owner.session, theirEmail, "member")).reply.status).toBe(409)

        const email = freshEmail()
        const first = yield* invite(owner.session, email, "admin")
        expect((yield* invite(owner.session, email.toUpperCase(), "member")).reply.status).toBe(409)
        const id = first.reply.body.invitation_id
        const resent = yield* call("POST", `/v1/client-portal/members/invitations/${id}/resend`, { session: owner.session })
        expect(resent.status).toBe(200)
        const second = tokenOf(yield* Effect.orDie(smtp.waitFor(email, 2)))
        expect(second).not.toBe(first.token)
        expect((yield* accept(first.token!)).reply.status).toBe(401)

        const revoked = yield* call("DELETE", `/v1/client-portal/members/invitations/${id}`, { session: owner.session })
        expect(revoked.status).toBe(200)
        expect(revoked.body.status).toBe("revoked")
        expect((yield* accept(second)).reply.status).toBe(401)
        expect((yield* call("DELETE", `/v1/client-portal/members/invitations/${id}`, { session: owner.session })).status).toBe(409)
        // revoked, the e-mail may be invited again; an expired link is refused
        const again = yield* invite(owner.session, email, "member")
        expect(again.reply.status).toBe(201)
        const sql = yield* SqlClient.SqlClient
        yield* sql`UPDATE invitations SET expires_at = now() - interval '1 second' WHERE invitation_id = ${again.reply.body.invitation_id}`
        expect((yield* accept(again.token!)).reply.status).toBe(401)
        expect((yield* auditOf(owner.clientId)).map((a) => a.action)).toEqual([
          "member.invited", "member.invitation_resent", "member.invitation_revoked", "member.invited"
        ])
        // another tenant's invitation is out of reach
        expect((yield* call("POST", `/v1/client-portal/members/invitations/${again.reply.body.invitation_id}/resend`, { session: other.session })).status).toBe(404)
        expect((yield* call("DELETE", `/v1/client-portal/members/invitations/${again.reply.body.invitation_id}`, { session: other.session })).status).toBe(404)
      }))

    it.effect("roles: a member manages nothing; an admin manages members but no owner; a change applies to open sessions at once", () =>
      Effect.gen(function* () {
        const owner = yield* newTenant()
        const joinAs = (role: string) =>
          Effect.gen(function* () {
            const email = freshEmail()
            const { token } = yield* invite(owner.session, email, role)
            const { reply, session } = yield* accept(token!)
            return { email, userId: reply.body.user.user_id as string, session: session! }
          })
        const member = yield* joinAs("member")
        const admin = yield* joinAs("admin")

        const asMember = yield* invite(member.session, freshEmail(), "member")
        expect(asMember.reply.status).toBe(403)
        const seen = yield* call("GET", "/v1/client-portal/members", { session: member.session })
        expect(seen.status).toBe(200)
        expect(seen.body.members).toHaveLength(3)
        expect(seen.body.invitations).toEqual([])
        expect((yield* call("PATCH", `/v1/client-portal/members/${member.userId}`, { session: member.session, body: { role: "admin" } })).status).toBe(403)

        expect((yield* invite(admin.session, freshEmail(), "owner")).reply.status).toBe(403)
        expect((yield* call("PATCH", `/v1/client-portal/members/${owner.userId}`, { session: admin.session, body: { role: "member" } })).status).toBe(403)
        expect((yield* call("DELETE", `/v1/client-portal/members/${owner.userId}`, { session: admin.session })).status).toBe(403)

        // the member cannot list API keys; made an admin, the same session can
        expect((yield* call("GET", "/v1/client-portal/api-keys", { session: member.session })).status).toBe(403)
        const promoted = yield* call("PATCH", `/v1/client-portal/members/${member.userId}`, { session: admin.session, body: { role: "admin" } })
        expect(promoted.status).toBe(200)
        expect(promoted.body).toMatchObject({ user_id: member.userId, role: "admin" })
        expect((yield* call("GET", "/v1/client-portal/api-keys", { session: member.session })).status).toBe(200)
        expect((yield* call("GET", "/v1/client-auth/me", { session: member.session })).body.role).toBe("admin")
        const changes = (yield* auditOf(owner.clientId)).filter((a) => a.action === "member.role_changed")
        expect(changes.map((a) => a.metadata)).toEqual([{ email: member.email, from: "member", to: "admin" }])
      }))

    it.effect("the last owner cannot be demoted or removed (409); a removed member's sessions end at once", () =>
      Effect.gen(function* () {
        const owner = yield* newTenant()
        expect((yield* call("PATCH", `/v1/client-portal/members/${owner.userId}`, { session: owner.session, body: { role: "admin" } })).status).toBe(409)
        expect((yield* call("DELETE", `/v1/client-portal/members/${owner.userId}`, { session: owner.session })).status).toBe(409)

        const email = freshEmail()
        const { token } = yield* invite(owner.session, email, "owner")
        const second = yield* accept(token!)
        expect(second.reply.body.user.role).toBe("owner")
        // two owners: one may step down; then the other is the last again
        expect((yield* call("PATCH", `/v1/client-portal/members/${owner.userId}`, { session: owner.session, body: { role: "member" } })).status).toBe(200)
        const lastId = second.reply.body.user.user_id
        expect((yield* call("DELETE", `/v1/client-portal/members/${lastId}`, { session: second.session! })).status).toBe(409)

        const removed = yield* call("DELETE", `/v1/client-portal/members/${owner.userId}`, { session: second.session! })
        expect(removed.status).toBe(200)
        expect(removed.body).toMatchObject({ user_id: owner.userId, role: "member" })
        expect((yield* call("GET", "/v1/client-auth/me", { session: owner.session })).status).toBe(401)
        expect((yield* call("GET", "/v1/client-portal/members", { session: second.session! })).body.members.map((m: any) => m.email)).toEqual([email])
        expect((yield* call("DELETE", `/v1/client-portal/members/${owner.userId}`, { session: second.session! })).status).toBe(404)
        const actions = (yield* auditOf(owner.clientId)).map((a) => a.action)
        expect(actions).toEqual(["member.invited", "member.joined", "member.role_changed", "member.removed"])
      }))

    it.effect("staff do the same for a named tenant with the admin key, as an owner; an unknown tenant is 404", () =>
      Effect.gen(function* () {
        const owner = yield* newTenant("Staffed Co")
        const base = `/v1/internal/admin/clients/${owner.clientId}/members`
        const listed = yield* call("GET", base, { headers: admin })
        expect(listed.status).toBe(200)
        expect(listed.body.members.map((m: any) => [m.user_id, m.role])).toEqual([[owner.userId, "owner"]])
        expect((yield* call("GET", base)).status).toBe(401)
        expect((yield* call("GET", base, { session: owner.session })).status).toBe(401)
        expect((yield* call("GET", "/v1/internal/admin/clients/cli_missing/members", { headers: admin })).status).toBe(404)

        const smtp = yield* Smtp
        const email = freshEmail()
        const invited = yield* call("POST", `${base}/invitations`, { headers: admin, body: { email, role: "owner", full_name: "Second Owner" } })
        expect(invited.status).toBe(201)
        expect(invited.body).toMatchObject({ email, role: "owner", invited_by: "staff:admin", full_name: "Second Owner" })
        const mail = yield* Effect.orDie(smtp.waitFor(email))
        expect(mail.text).toContain("Callsight staff invited you to join Staffed Co on Callsight as an owner")
        const joined = yield* accept(tokenOf(mail))
        expect(joined.reply.body.user).toMatchObject({ email, role: "owner", full_name: "Second Owner" })
        // with two owners staff may demote one; the last is kept
        expect((yield* call("PATCH", `${base}/${owner.userId}`, { headers: admin, body: { role: "admin" } })).status).toBe(200)
        expect((yield* call("DELETE", `${base}/${joined.reply.body.user.user_id}`, { headers: admin })).status).toBe(409)
        const audit = yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
          sql<{ action: string; actor: string }>`SELECT action, actor FROM audit_logs WHERE client_id = ${owner.clientId} AND action LIKE 'member.%' ORDER BY at, log_id`)
        expect(audit.map((a) => [a.action, a.actor])).toEqual([
          ["member.invited", "staff:admin"],
          ["member.joined", joined.reply.body.user.user_id],
          ["member.role_changed", "staff:admin"]
        ])
        // another tenant's member through this tenant's path is 404
        const other = yield* newTenant()
        expect((yield* call("DELETE", `${base}/${other.userId}`, { headers: admin })).status).toBe(404)
      }))

    it.effect("another tenant's member is 404; bad input is 422 with its detail", () =>
      Effect.gen(function* () {
        const one = yield* newTenant()
        const two = yield* newTenant()
        expect((yield* call("PATCH", `/v1/client-portal/members/${two.userId}`, { session: one.session, body: { role: "member" } })).status).toBe(404)
        expect((yield* call("DELETE", `/v1/client-portal/members/${two.userId}`, { session: one.session })).status).toBe(404)
        const listed = yield* call("GET", "/v1/client-portal/members", { session: one.session })
        expect(listed.body.members.map((m: any) => m.user_id)).toEqual([one.userId])
        for (const [body, loc] of [
          [{ email: "not-an-email", role: "member" }, ["body", "email"]],
          [{ email: freshEmail(), role: "boss" }, ["body", "role"]],
          [{ email: freshEmail() }, ["body", "role"]],
          [{ email: freshEmail(), role: "member", extra: 1 }, ["body", "extra"]]
        ] as const) {
          const reply = yield* call("POST", "/v1/client-portal/members/invitations", { session: one.session, body })
          expect(reply.status, JSON.stringify(body)).toBe(422)
          expect(reply.body.detail[0].loc).toEqual(loc)
        }
        expect((yield* call("PATCH", `/v1/client-portal/members/${one.userId}`, { session: one.session, body: { role: "" } })).status).toBe(422)
        expect((yield* call("GET", "/v1/client-portal/members")).status).toBe(401)
      }))
  })
})
