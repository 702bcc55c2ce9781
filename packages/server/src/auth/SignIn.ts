/**
 * Passwordless sign-in (spec 4.2, docs/domain.md "Who is calling"): signup creates the tenant, its
 * owner and its trial credits (`TRIAL_CREDITS`) in one transaction and e-mails a magic link; login e-mails one when the address has an
 * account and answers the same, in the same time, when it has none (the e-mail goes out on its
 * own fiber, so the answer never waits for the mail server); verify takes the link once and opens
 * a session, or takes an invitation's link once and makes its user (issue 36). Login and signup are
 * rate limited per e-mail and per client address.
 */
import {
  ClientId,
  ClientUser,
  Conflict,
  type LoginRequest,
  type SignupRequest,
  TooManyRequests,
  Unauthorized,
  UserId,
  type UserIdentity
} from "@callsight/api-spec"
import * as RateLimiter from "@effect/experimental/RateLimiter"
import { HttpApp, HttpServerResponse } from "@effect/platform"
import { Duration, Effect, Either, Option } from "effect"
import { TenantsRepo } from "../tenancy/TenantsRepo.js"
import { AppConfig } from "../config.js"
import { isUniqueViolation } from "../db/SqlErrors.js"
import { Transactions } from "../db/Transactions.js"
import { newId } from "../lib/Ids.js"
import { Mailer } from "../mail/Mailer.js"
import { signInMessage } from "../mail/Messages.js"
import { type Actor, AuditLog } from "../tenancy/AuditLog.js"
import { LedgerRepo } from "../tenancy/LedgerRepo.js"
import type { Caller } from "../tenancy/Caller.js"
import { InvitationsRepo } from "../tenancy/InvitationsRepo.js"
import { MAGIC_LINK_MINUTES, MagicLinksRepo } from "../tenancy/MagicLinksRepo.js"
import type { Origin } from "../tenancy/RequestOrigin.js"
import { SessionsRepo } from "../tenancy/SessionsRepo.js"
import { type UserRow, UsersRepo } from "./UsersRepo.js"

const SIGN_IN_WINDOW = Duration.minutes(15)
const DAY = 86_400_000

/** 429 with a `Retry-After` header (seconds) on the response. */
export const tooManyRequests = (message: string, retryAfter: Duration.Duration) => {
  const seconds = Math.max(1, Math.ceil(Duration.toSeconds(retryAfter)))
  return HttpApp.appendPreResponseHandler((_request, response) =>
    Effect.succeed(HttpServerResponse.setHeader(response, "retry-after", String(seconds)))
  ).pipe(Effect.zipRight(Effect.fail(new TooManyRequests({ message, retry_after_s: seconds }))))
}

export class SignIn extends Effect.Service<SignIn>()("SignIn", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig
    const transactions = yield* Transactions
    const tenants = yield* TenantsRepo
    const ledger = yield* LedgerRepo
    const users = yield* UsersRepo
    const links = yield* MagicLinksRepo
    const invitations = yield* InvitationsRepo
    const sessions = yield* SessionsRepo
    const audit = yield* AuditLog
    const mailer = yield* Mailer
    const limiter = yield* RateLimiter.RateLimiter

    /**
     * Counts one sign-in request against the e-mail's window and the address's, both of them even
     * when the first refuses it, then refuses it if either is full.
     */
    const limit = (email: string, origin: Origin) =>
      Effect.gen(function* () {
        const windows = [
          { key: `sign-in:email:${email.toLowerCase()}`, limit: config.signInLimitPerEmail, what: "this e-mail" },
          ...(origin.ip === null ? [] : [{ key: `sign-in:address:${origin.ip}`, limit: config.signInLimitPerAddress, what: "this address" }])
        ]
        const counted = yield* Effect.forEach(windows, (w) =>
          limiter.consume({ key: w.key, limit: w.limit, window: SIGN_IN_WINDOW, algorithm: "fixed-window", onExceeded: "fail" }).pipe(
            Effect.either,
            Effect.map((result) => ({ window: w, result }))
          ))
        for (const { window, result } of counted) {
          if (Either.isRight(result)) continue
          if (result.left.reason !== "Exceeded") return yield* Effect.die(result.left)
          return yield* tooManyRequests(`too many sign-in requests for ${window.what}; try again later`, result.left.retryAfter)
        }
      })

    /**
     * The user as verify and me answer it: with the closer they are, and while the account is
     * closing, when its data goes (the grace period `Retention.close` states).
     */
    const clientUser = (row: UserRow): ClientUser => {
      const { closer_email, closer_id, closer_name, closing_at, ...user } = row
      return new ClientUser({
        ...user,
        // the closer's columns are all set or all null (a LEFT JOIN of one closer)
        closer: closer_id === null || closer_email === null || closer_name === null ? null : { closer_id, email: closer_email, full_name: closer_name },
        account_closing: closing_at === null ? null : {
          closing_at: closing_at.toISOString(),
          deleted_after: new Date(closing_at.getTime() + config.accountCloseGraceDays * DAY).toISOString()
        }
      })
    }

    const sendLink = (to: string, token: string, companyName: string) =>
      mailer.send(signInMessage({ to, baseUrl: config.publicBaseUrl, token, companyName, validMinutes: MAGIC_LINK_MINUTES }))

    const signup = Effect.fn("SignIn.signup")(function* (req: SignupRequest, origin: Origin) {
      yield* limit(req.email, origin)
      const clientId = ClientId.make(newId("cli"))
      const userId = UserId.make(newId("usr"))
      const actor: Actor = { id: userId, type: "user", ip: origin.ip }
      const link = yield* transactions.run(
        Effect.gen(function* () {
          if (yield* tenants.emailTaken(req.email)) {
            return yield* new Conflict({ message: `an account with the e-mail ${req.email} exists: sign in instead` })
          }
          yield* tenants.insertTenant({ clientId, companyName: req.company_name, industry: req.industry ?? null, plan: "trial", isTest: false })
          yield* tenants.insertOwner({ userId, clientId, email: req.email, fullName: req.full_name ?? null })
          // the trial's credits, once: the tenant is new in this transaction
          if (config.trialCredits > 0) yield* ledger.add({ clientId, delta: config.trialCredits, reason: "trial" })
          yield* audit.record(clientId, actor, {
            action: "tenant.signed_up",
            targetType: "tenant",
            targetId: clientId,
            metadata: { company_name: req.company_name, owner_email: req.email, plan: "trial", trial_credits: config.trialCredits }
          })
          return yield* links.issue({ purpose: "sign_in", clientId, userId, email: req.email })
        })
      ).pipe(
        Effect.catchTag("SqlError", (error) =>
          isUniqueViolation(error)
            ? Effect.fail(new Conflict({ message: `an account with the e-mail ${req.email} exists: sign in instead` }))
            : Effect.die(error)
        )
      )
      // the tenant exists now; a mail server that refuses the message does not undo it: sign in again
      const sent = yield* sendLink(req.email, link.token, req.company_name).pipe(
        Effect.as(true),
        Effect.catchTag("MailFailed", (error) => Effect.as(Effect.logError("the sign-in link of a signup was not sent", error.message), false))
      )
      return { client_id: clientId, user_id: userId, email: req.email, magic_link_sent: sent }
    })

    const login = Effect.fn("SignIn.login")(function* (req: LoginRequest, origin: Origin) {
      yield* limit(req.email, origin)
      const user = yield* Effect.orDie(users.findByEmail(req.email))
      if (Option.isSome(user)) {
        const u = user.value
        yield* links.issue({ purpose: "sign_in", clientId: u.client_id, userId: u.user_id, email: u.email }).pipe(
          Effect.flatMap((link) => sendLink(u.email, link.token, u.company_name)),
          Effect.catchAll((error) => Effect.logError("a sign-in link was not sent", error.message)),
          Effect.forkDaemon
        )
      }
      return {
        magic_link_sent: true,
        message: "If an account exists for this e-mail, a sign-in link is on its way. It works once, for 15 minutes."
      }
    })

    /**
     * The user an invitation's link makes (issue 36), with its audit row; none when the token is no
     * open invitation. An e-mail that got an account since the invitation was sent is 409.
     */
    const join = (token: string, origin: Origin) =>
      Effect.gen(function* () {
        const invitation = yield* invitations.take(token)
        if (Option.isNone(invitation)) return Option.none()
        const { client_id, email, full_name, invitation_id, role } = invitation.value
        if (yield* tenants.emailTaken(email)) {
          return yield* new Conflict({ message: `the e-mail ${email} has an account already: sign in with it` })
        }
        const userId = UserId.make(newId("usr"))
        yield* tenants.insertMember({ userId, clientId: client_id, email, fullName: full_name, role })
        yield* invitations.markAccepted({ invitationId: invitation_id, userId })
        yield* audit.record(client_id, { id: userId, type: "user", ip: origin.ip }, {
          action: "member.joined",
          targetType: "user",
          targetId: userId,
          metadata: { email, role, invitation_id }
        })
        return Option.some({ client_id, user_id: userId })
      })

    const verify = Effect.fn("SignIn.verify")(function* (token: string, origin: Origin) {
      const opened = yield* transactions.run(
        Effect.gen(function* () {
          const signIn = yield* links.take("sign_in", token)
          const link = Option.isSome(signIn) && signIn.value.user_id !== null
            ? Option.some({ client_id: signIn.value.client_id, user_id: signIn.value.user_id })
            : yield* join(token, origin)
          if (Option.isNone(link)) {
            return yield* new Unauthorized({ message: "the sign-in link is unknown, used or expired: ask for a new one" })
          }
          const { client_id, user_id } = link.value
          const session = yield* sessions.create({ userId: user_id, clientId: client_id, ip: origin.ip, userAgent: origin.userAgent })
          yield* users.markSignedIn(user_id)
          yield* audit.record(client_id, { id: user_id, type: "user", ip: origin.ip }, {
            action: "user.signed_in",
            targetType: "user",
            targetId: user_id
          })
          const user = yield* users.find(client_id, user_id)
          return { session, user: clientUser(Option.getOrThrow(user)) }
        })
      ).pipe(Effect.catchTag("SqlError", Effect.die))
      return opened
    })

    /** Ends the session of this cookie value (when it is still one), with its audit row. */
    const logout = Effect.fn("SignIn.logout")(function* (caller: Caller, token: string | undefined) {
      yield* transactions.run(
        Effect.all([
          token === undefined ? Effect.void : sessions.destroy(token),
          audit.record(caller.clientId, caller.actor, {
            action: "user.signed_out",
            targetType: "user",
            targetId: caller.user.userId
          })
        ])
      ).pipe(Effect.orDie)
    })

    const me = Effect.fn("SignIn.me")(function* (user: UserIdentity) {
      const found = yield* Effect.orDie(users.find(user.clientId, user.userId))
      return yield* Option.match(found, {
        onNone: () => Effect.fail(new Unauthorized({ message: "the session's user no longer exists" })),
        onSome: (row) => Effect.succeed(clientUser(row))
      })
    })

    return { signup, login, verify, logout, me } as const
  }),
  dependencies: [
    TenantsRepo.Default,
    LedgerRepo.Default,
    UsersRepo.Default,
    MagicLinksRepo.Default,
    InvitationsRepo.Default,
    SessionsRepo.Default,
    AuditLog.Default,
    Transactions.Default
  ]
}) {}
