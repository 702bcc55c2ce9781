/**
 * Sign-in links and production (issue 32, finding 5), as the attack: a production server without
 * a mail transport wrote every sign-in link to its log at INFO, and kept it in `email_outbox`, so
 * whoever read either could sign in as anyone.
 *
 * - production without SMTP_URL does not start, and says what to set (SMTP_URL, or SIGN_IN_LINKS=log);
 * - production with SIGN_IN_LINKS=log starts with a loud warning, logs the links (the operator's
 *   explicit choice) and keeps nothing in the outbox;
 * - production with SMTP_URL mails the links; no log line and no outbox row holds a token, and rows
 *   an earlier run without SMTP left in the outbox are gone once it starts;
 * - development without SMTP_URL keeps the whole message in the outbox and logs the link (documented).
 */
import { NodeHttpServer } from "@effect/platform-node"
import { SqlClient } from "@effect/sql"
import { describe, expect, it, layer } from "@effect/vitest"
import { Cause, Effect, Exit, Layer, Logger, LogLevel, Option, Redacted, Schedule } from "effect"
import { createHash, randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { AppConfig, type AppConfigShape } from "../src/config.js"
import { makeServerLayer } from "../src/main.js"
import { call, freshEmail, sessionCookie, tokenOf } from "./utils/PortalRequests.js"
import { startSmtpServer } from "./utils/SmtpServer.js"
import { Smtp, serverWithSmtp } from "./utils/SmtpServerLayer.js"
import { TestDatabase } from "./utils/TestDatabase.js"
import { ADMIN_KEY, testServerLayer } from "./utils/TestServer.js"

/** Production without a mail server (serverWithSmtp sets SMTP_URL on top of it). */
const PRODUCTION = { production: true, smtpUrl: Option.none(), signInLinksLog: false } satisfies Partial<AppConfigShape>
const { smtpUrl: _none, ...PRODUCTION_SMTP } = PRODUCTION

/** Every form a token could take in a log line: itself, and its SHA-256 as stored (hex) or base64. */
const formsOf = (token: string) => {
  const digest = createHash("sha256").update(token).digest()
  return [token, digest.toString("hex"), digest.toString("base64"), digest.toString("base64url")]
}

const expectNowhereIn = (logs: ReadonlyArray<string>, token: string) => {
  for (const form of formsOf(token)) {
    expect(logs.filter((line) => line.includes(form))).toEqual([])
  }
}

const outboxRows = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql<{ to_address: string; text_body: string; html_body: string }>`SELECT to_address, text_body, html_body FROM email_outbox`
).pipe(Effect.orDie)

/** The token in the `link=` of a log line (logfmt) about a message to `to`, if one was logged. */
const loggedToken = (logs: ReadonlyArray<string>, to: string) =>
  logs
    .filter((line) => line.includes(`to=${to}`))
    .map((line) => /link=\S*#token=([A-Za-z0-9_-]+)/.exec(line)?.[1])
    .find((token) => token !== undefined)

const waitFor = <A>(what: string, get: () => A | undefined) =>
  Effect.suspend(() => {
    const value = get()
    return value === undefined ? Effect.fail(what) : Effect.succeed(value)
  }).pipe(Effect.retry({ times: 200, schedule: Schedule.spaced("50 millis") }), Effect.orDie)

describe("sign-in links in production", () => {
  it.effect("production without SMTP_URL does not start, and names SMTP_URL and SIGN_IN_LINKS=log", () =>
    Effect.gen(function* () {
      const logs: Array<string> = []
      const exit = yield* Effect.exit(Effect.scoped(Layer.build(testServerLayer(PRODUCTION, { logs }))))
      expect(Exit.isFailure(exit)).toBe(true)
      const failure = Exit.isFailure(exit) ? Option.getOrUndefined(Cause.failureOption(exit.cause)) : undefined
      expect(failure).toMatchObject({ _tag: "MailTransportMissing" })
      const message = (failure as { message: string }).message
      expect(message).toContain("SMTP_URL must be set when NODE_ENV=production")
      expect(message).toContain("SIGN_IN_LINKS=log")
      expect(message).toMatch(/unsafe/i)
    }))

  describe("production with SIGN_IN_LINKS=log", () => {
    const logs: Array<string> = []
    layer(testServerLayer({ ...PRODUCTION, signInLinksLog: true }, { logs }), { excludeTestServices: true })("", (it) => {
      it.effect("starts with a loud warning that it is unsafe", () =>
        Effect.sync(() => {
          const warning = logs.filter((line) => line.includes("level=WARN") && line.includes("SIGN_IN_LINKS=log"))
          expect(warning.length).toBeGreaterThanOrEqual(1)
          expect(warning[0]).toMatch(/UNSAFE/)
          expect(warning[0]).toContain("can sign in as any user")
        }))

      it.effect("logs the link (the operator's choice), which signs in, and keeps nothing in the outbox", () =>
        Effect.gen(function* () {
          const email = freshEmail()
          const signup = yield* call("POST", "/v1/client-auth/signup", { body: { email, company_name: "Logged" } })
          expect(signup.status).toBe(201)
          const token = yield* waitFor("the link in the log", () => loggedToken(logs, email))
          const verified = yield* call("POST", "/v1/client-auth/verify", { body: { token } })
          expect(verified.status).toBe(200)
          expect(yield* outboxRows).toEqual([])
        }))
    })
  })

  describe("production with SMTP_URL", () => {
    const logs: Array<string> = []
    layer(serverWithSmtp(PRODUCTION_SMTP, { logs }), { excludeTestServices: true })("", (it) => {
      it.effect("signup, login and a closer's verification are mailed; no log line and no outbox row holds a token", () =>
        Effect.gen(function* () {
          const smtp = yield* Smtp
          const owner = freshEmail()
          const signup = yield* call("POST", "/v1/client-auth/signup", { body: { email: owner, company_name: "Mailed" } })
          expect(signup.status).toBe(201)
          const first = tokenOf(yield* Effect.orDie(smtp.waitFor(owner, 1)))
          yield* call("POST", "/v1/client-auth/login", { body: { email: owner } })
          const second = tokenOf(yield* Effect.orDie(smtp.waitFor(owner, 2)))
          const verified = yield* call("POST", "/v1/client-auth/verify", { body: { token: second } })
          expect(verified.status).toBe(200)
          const session = Option.getOrThrow(sessionCookie(verified)).value
          const closer = freshEmail("closer")
          const added = yield* call("POST", "/v1/client-portal/closers", { session, body: { email: closer, full_name: "Cleo Closer" } })
          expect(added.status).toBe(200)
          const third = /#token=([A-Za-z0-9_-]+)/.exec((yield* Effect.orDie(smtp.waitFor(closer, 1))).text)![1]!

          expect(logs.length).toBeGreaterThan(0) // the capture works: the server did log
          for (const token of [first, second, third]) expectNowhereIn(logs, token)
          expect(logs.filter((line) => line.includes("#token=") || line.includes("link="))).toEqual([])
          expect(yield* outboxRows).toEqual([])
        }))
    })
  })

  it.effect("production with SMTP_URL and SIGN_IN_LINKS=log: SMTP wins, the switch is ignored, and said so", () =>
    Effect.gen(function* () {
      const logs: Array<string> = []
      yield* Effect.gen(function* () {
        const smtp = yield* Smtp
        const email = freshEmail()
        yield* call("POST", "/v1/client-auth/signup", { body: { email, company_name: "Both" } })
        const token = tokenOf(yield* Effect.orDie(smtp.waitFor(email, 1)))
        expectNowhereIn(logs, token)
        expect(yield* outboxRows).toEqual([])
        expect(logs.some((line) => line.includes("level=WARN") && line.includes("SIGN_IN_LINKS=log is ignored"))).toBe(true)
      }).pipe(Effect.provide(serverWithSmtp({ ...PRODUCTION_SMTP, signInLinksLog: true }, { logs })))
    }))

  it.effect("e-mails an earlier run without SMTP left in the outbox are gone once production starts", () =>
    Effect.gen(function* () {
      const database = Layer.succeedContext(yield* Layer.build(TestDatabase.layer))
      const email = freshEmail()
      // an earlier run on this database, in development: the sign-in link is kept
      yield* Effect.gen(function* () {
        yield* call("POST", "/v1/client-auth/signup", { body: { email, company_name: "Earlier" } })
        expect((yield* outboxRows).map((row) => row.to_address)).toEqual([email])
      }).pipe(Effect.provide(serverOn(database, { production: false, smtpUrl: Option.none() }, [])))
      // then production, with SMTP: the row, and its link, are gone
      const logs: Array<string> = []
      yield* Effect.gen(function* () {
        expect(yield* outboxRows).toEqual([])
        expect(logs.some((line) => line.includes("level=WARN") && line.includes("removed 1 e-mail(s) kept in email_outbox"))).toBe(true)
      }).pipe(
        Effect.provide(Layer.unwrapScoped(Effect.map(startSmtpServer, (smtp) =>
          serverOn(database, { production: true, smtpUrl: Option.some(Redacted.make(smtp.url)) }, logs))))
      )
    }).pipe(Effect.scoped))

  describe("development without SMTP_URL (documented: a developer's own machine)", () => {
    const logs: Array<string> = []
    layer(testServerLayer({ smtpUrl: Option.none(), production: false }, { logs }), { excludeTestServices: true })("", (it) => {
      it.effect("says at start where e-mails go", () =>
        Effect.sync(() => {
          expect(logs.some((line) => line.includes("no SMTP_URL: e-mails are kept in the email_outbox table"))).toBe(true)
        }))

      it.effect("keeps the whole message in the outbox and logs its link; the link signs in", () =>
        Effect.gen(function* () {
          const email = freshEmail()
          yield* call("POST", "/v1/client-auth/signup", { body: { email, company_name: "Local" } })
          const [kept] = (yield* outboxRows).filter((row) => row.to_address === email)
          const token = /#token=([A-Za-z0-9_-]+)/.exec(kept!.text_body)![1]!
          expect(kept!.html_body).toContain(`#token=${token}`)
          expect(loggedToken(logs, email)).toBe(token)
          expect(logs.find((line) => line.includes(`to=${email}`))).toMatch(/level=INFO/)
          const verified = yield* call("POST", "/v1/client-auth/verify", { body: { token } })
          expect(verified.status).toBe(200)
        }))
    })
  })
})

/** The test server (as utils/TestServer.ts makes it) on a given database, every log line kept in `logs`. */
const serverOn = (
  database: Layer.Layer<TestDatabaseServices>,
  overrides: Partial<AppConfigShape>,
  logs: Array<string>
) =>
  makeServerLayer(NodeHttpServer.layerTest, database).pipe(
    Layer.provide(
      Layer.unwrapScoped(Effect.map(
        Effect.acquireRelease(
          Effect.sync(() => mkdtempSync(join(tmpdir(), "callsight-blobs-"))),
          (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
        ),
        (blobDir) =>
          AppConfig.layerWith({
            adminApiKey: Option.some(Redacted.make(ADMIN_KEY)),
            secretsKey: Option.some(Redacted.make(randomBytes(32).toString("base64"))),
            blobDir,
            ...overrides
          })
      ))
    ),
    Layer.provide(Layer.merge(
      Logger.replace(Logger.defaultLogger, Logger.map(Logger.logfmtLogger, (line) => void logs.push(line))),
      Logger.minimumLogLevel(LogLevel.All)
    ))
  )

type TestDatabaseServices = Layer.Layer.Success<typeof TestDatabase.layer>
