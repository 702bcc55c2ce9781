/**
 * Portal sign-in from a terminal:
 * - `callsight login EMAIL`: asks for a magic link by e-mail (the answer is the same whether or
 *   not the e-mail has an account);
 * - `callsight verify TOKEN`: takes the link's token (or the whole link) and stores the session
 *   for later portal commands (SessionStore.ts, mode 0600);
 * - `callsight me`: who the stored session signs in as;
 * - `callsight logout`: ends the session on the service and forgets it here.
 */
import { LoginRequest, SESSION_COOKIE, VerifyRequest } from "@callsight/api-spec"
import { Args, Command } from "@effect/cli"
import { Cookies } from "@effect/platform"
import { Console, Effect, Option } from "effect"
import { SessionClientApi } from "./Apis.js"
import { baseUrl, jsonOption, publicClient, sessionClient, urlOption } from "./Connection.js"
import { fromClientError, ServiceError, UsageError } from "./Errors.js"
import { printJson } from "./Output.js"
import { forgetSession, loadSession, saveSession } from "./SessionStore.js"

/** A token, or a link that carries one (`…/sign-in#token=…`). */
const tokenFrom = (input: string): string => /[#?&]token=([A-Za-z0-9_-]+)/.exec(input)?.[1] ?? input.trim()

/** The stored session of the service, or a usage error saying how to get one. */
export const storedSession = (url: string) =>
  Effect.gen(function* () {
    const base = yield* baseUrl(url)
    const stored = yield* loadSession(base)
    return yield* Option.match(stored, {
      onNone: () => Effect.fail(new UsageError({ message: `not signed in to ${base}: run \`callsight login EMAIL\`, then \`callsight verify TOKEN\`` })),
      onSome: (session) => Effect.succeed({ base, session })
    })
  })

const login = Command.make(
  "login",
  {
    email: Args.text({ name: "EMAIL" }).pipe(Args.withDescription("The e-mail address of your portal account")),
    url: urlOption
  },
  (args) =>
    Effect.gen(function* () {
      const client = yield* publicClient(SessionClientApi, args.url)
      const payload = yield* Effect.try({
        try: () => new LoginRequest({ email: args.email }),
        catch: () => new UsageError({ message: `not an e-mail address: ${JSON.stringify(args.email)}` })
      })
      yield* client.clientAuth.login({ payload }).pipe(Effect.catchAll(fromClientError))
      yield* Console.log(
        `If ${args.email} has an account, a sign-in link is on its way (it works once, for 15 minutes).\n` +
          "Then run: callsight verify TOKEN   (the token of the link, or the whole link)"
      )
    })
).pipe(Command.withDescription("Ask for a sign-in link by e-mail"))

const verify = Command.make(
  "verify",
  { token: Args.text({ name: "TOKEN" }).pipe(Args.withDescription("The token of the e-mailed link, or the whole link")), url: urlOption, json: jsonOption },
  (args) =>
    Effect.gen(function* () {
      const base = yield* baseUrl(args.url)
      const client = yield* publicClient(SessionClientApi, args.url)
      const payload = yield* Effect.try({
        try: () => new VerifyRequest({ token: tokenFrom(args.token) }),
        catch: () => new UsageError({ message: "the token is empty" })
      })
      const [verified, response] = yield* client.clientAuth
        .verifyMagicLink({ payload, withResponse: true })
        .pipe(Effect.catchAll(fromClientError))
      const cookie = Cookies.get(response.cookies, SESSION_COOKIE)
      if (Option.isNone(cookie)) {
        return yield* new ServiceError({ message: "the service signed in but set no session cookie" })
      }
      const file = yield* saveSession(base, {
        session: cookie.value.value,
        email: verified.user.email,
        user_id: verified.user.user_id,
        client_id: verified.user.client_id,
        expires_at: verified.session_expires_at,
        saved_at: new Date().toISOString()
      })
      if (args.json) return yield* printJson({ ...verified, session_file: file })
      yield* Console.log(
        `Signed in to ${base} as ${verified.user.email} (${verified.user.role} of ${verified.user.company_name}).\n` +
          `The session is saved in ${file} and lasts 14 days from its last use.`
      )
    })
).pipe(Command.withDescription("Sign in with the token of an e-mailed link; keeps the session for later commands"))

const me = Command.make(
  "me",
  { url: urlOption, json: jsonOption },
  (args) =>
    Effect.gen(function* () {
      const { session } = yield* storedSession(args.url)
      const client = yield* sessionClient(SessionClientApi, args.url, session.session)
      const user = yield* client.clientAuth.getCurrentUser().pipe(Effect.catchAll(fromClientError))
      if (args.json) return yield* printJson(user)
      yield* Console.log(
        `${user.email} (${user.full_name ?? "no name"}), ${user.role} of ${user.company_name}\n` +
          `  user id:   ${user.user_id}\n  client id: ${user.client_id}\n` +
          `  closer:    ${user.closer === null ? "none" : `${user.closer.full_name} <${user.closer.email}> (${user.closer.closer_id})`}` +
          (user.account_closing === null
            ? ""
            : `\n  closing:   since ${user.account_closing.closing_at}; its data is deleted after ${user.account_closing.deleted_after}`)
      )
    })
).pipe(Command.withDescription("Who the stored portal session signs in as"))

const logout = Command.make(
  "logout",
  { url: urlOption },
  (args) =>
    Effect.gen(function* () {
      const { base, session } = yield* storedSession(args.url)
      const client = yield* sessionClient(SessionClientApi, args.url, session.session)
      // a session the service no longer knows (401) is forgotten here all the same
      yield* client.clientAuth.logout().pipe(
        Effect.catchTag("Unauthorized", () => Effect.void),
        Effect.catchAll(fromClientError)
      )
      yield* forgetSession(base)
      yield* Console.log(`Signed out of ${base}.`)
    })
).pipe(Command.withDescription("End the stored portal session and forget it"))

export const sessionCommands = [login, verify, me, logout] as const
