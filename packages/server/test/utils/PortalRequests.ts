/**
 * Requests of the portal tests: JSON in and out with the session cookie carried by hand (as a
 * browser would), and the whole sign-in through the mail: login, the e-mail the SMTP server got,
 * the token out of its link, verify, the cookie.
 */
import { CallsightApi, CreateClientRequest, SESSION_COOKIE } from "@callsight/api-spec"
import { Cookies, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Effect, Option, Schedule } from "effect"
import type { ReceivedMail, TestSmtpServer } from "./SmtpServer.js"
import { admin, createTenant } from "./AudioRequests.js"
import { seedCloser } from "./SeedCalls.js"
import { Smtp } from "./SmtpServerLayer.js"

export interface Reply {
  readonly status: number
  readonly body: any
  readonly headers: Readonly<Record<string, string>>
  readonly cookies: Cookies.Cookies
}

export interface CallOptions {
  readonly body?: unknown
  /** The session cookie's value. */
  readonly session?: string
  readonly headers?: Readonly<Record<string, string>>
}

export const call = (method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE", path: string, options: CallOptions = {}) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    let request = HttpClientRequest.make(method)(path).pipe(HttpClientRequest.setHeaders(options.headers ?? {}))
    if (options.session !== undefined) request = HttpClientRequest.setHeader(request, "cookie", `${SESSION_COOKIE}=${options.session}`)
    if (options.body !== undefined) request = HttpClientRequest.bodyUnsafeJson(request, options.body)
    const response = yield* client.execute(request)
    const text = yield* response.text
    const isJson = (response.headers["content-type"] ?? "").includes("json")
    return {
      status: response.status,
      body: isJson && text !== "" ? JSON.parse(text) : text,
      headers: response.headers,
      cookies: response.cookies
    } satisfies Reply
  }).pipe(Effect.orDie)

let emails = 0
/** An e-mail address no other test uses. */
export const freshEmail = (name = "owner") => `${name}.${Date.now()}.${emails++}@acme.test`

/** The session cookie a reply sets, if it sets one. */
export const sessionCookie = (reply: Reply) => Cookies.get(reply.cookies, SESSION_COOKIE)

/** The token of the magic link in an e-mail (`…#token=…`). */
export const tokenOf = (mail: ReceivedMail): string => {
  const match = /#token=([A-Za-z0-9_-]+)/.exec(mail.text)
  if (match === null) throw new Error(`no magic link in the e-mail: ${mail.text}`)
  return match[1]!
}

/** Login, the link from the mail, verify: the session cookie's value. */
export const signInByMail = (smtp: TestSmtpServer, email: string) =>
  Effect.gen(function* () {
    const before = smtp.to(email).length
    const login = yield* call("POST", "/v1/client-auth/login", { body: { email } })
    if (login.status !== 200) throw new Error(`login answered ${login.status}: ${JSON.stringify(login.body)}`)
    const mail = yield* Effect.orDie(smtp.waitFor(email, before + 1))
    const verified = yield* call("POST", "/v1/client-auth/verify", { body: { token: tokenOf(mail) } })
    if (verified.status !== 200) throw new Error(`verify answered ${verified.status}: ${JSON.stringify(verified.body)}`)
    return Option.getOrThrow(sessionCookie(verified)).value
  })

/** A tenant signed up through the portal (its owner's e-mail fresh), with the owner's session. */
export const newTenant = (companyName = "Acme") => Effect.flatMap(Smtp, (smtp) => signUpByMail(smtp, freshEmail(), companyName))

/** Signup, then the sign-in link of its e-mail: the new tenant and a session of its owner. */
export const signUpByMail = (smtp: TestSmtpServer, email: string, companyName = "Acme") =>
  Effect.gen(function* () {
    const before = smtp.to(email).length
    const signup = yield* call("POST", "/v1/client-auth/signup", { body: { email, company_name: companyName } })
    if (signup.status !== 201) throw new Error(`signup answered ${signup.status}: ${JSON.stringify(signup.body)}`)
    const mail = yield* Effect.orDie(smtp.waitFor(email, before + 1))
    const verified = yield* call("POST", "/v1/client-auth/verify", { body: { token: tokenOf(mail) } })
    if (verified.status !== 200) throw new Error(`verify answered ${verified.status}: ${JSON.stringify(verified.body)}`)
    return {
      clientId: signup.body.client_id as string,
      userId: signup.body.user_id as string,
      session: Option.getOrThrow(sessionCookie(verified)).value
    }
  })

/**
 * A user of the tenant written straight into its users (the tests of other features; Members.test.ts
 * invites), signed in by mail: a member unless `role` says otherwise.
 */
export const memberSession = (smtp: TestSmtpServer, clientId: string, email: string, role: "member" | "admin" = "member") =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* Effect.orDie(sql`INSERT INTO users (user_id, client_id, email, full_name, role)
                            VALUES (${`usr_member_${email}`}, ${clientId}, ${email}, 'Mo Member', ${role})`)
    return yield* signInByMail(smtp, email)
  })

/**
 * A rep (issue 36): a verified closer of the tenant with this e-mail (`seedCloser`) and a member
 * with the same e-mail, signed in. Where the policy says "self", this session sees only the calls
 * whose `closer_email` is `email`.
 */
export const repSession = (smtp: TestSmtpServer, clientId: string, email: string, fullName = "Rita Rep") =>
  Effect.zipRight(seedCloser(clientId, email, fullName), memberSession(smtp, clientId, email))

/**
 * The token of the `n`th e-mail kept in the outbox for this address (a server without SMTP_URL);
 * login mails it on its own fiber, so this waits for it.
 */
export const outboxToken = (to: string, n: number) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ text_body: string }>`SELECT text_body FROM email_outbox WHERE to_address = ${to} ORDER BY created_at`
  ).pipe(
    Effect.flatMap((rows) =>
      rows.length < n ? Effect.fail("not yet" as const) : Effect.succeed(/#token=([A-Za-z0-9_-]+)/.exec(rows[n - 1]!.text_body)![1]!)
    ),
    Effect.retry(Schedule.spaced("50 millis").pipe(Schedule.upTo("10 seconds"))),
    Effect.orDie
  )

/**
 * A tenant with credits and an API key (made by the admin), and a signed-in admin of it: a manager,
 * who sees the whole team (a member sees only their own calls where the policy says so).
 */
export const tenantWithUser = (credits: number) =>
  Effect.gen(function* () {
    const smtp = yield* Smtp
    const tenant = yield* createTenant(credits)
    const email = freshEmail("user")
    const session = yield* memberSession(smtp, tenant.client_id, email, "admin")
    return { clientId: tenant.client_id as string, apiKey: tenant.api_key as string, session, email }
  })

/** A tenant made by the admin with credits, an API key and an owner, the owner signed in to the portal. */
export const tenantWithOwner = Effect.gen(function* () {
  const api = yield* HttpApiClient.make(CallsightApi)
  const email = freshEmail()
  const created = yield* api.extensions.createClient({
    headers: admin,
    payload: CreateClientRequest.make({ company_name: "Acme", credits: 5, plan: "growth", owner_email: email })
  })
  const session = yield* signInByMail(yield* Smtp, email)
  return { clientId: created.client_id, apiKey: created.api_key, session }
})
