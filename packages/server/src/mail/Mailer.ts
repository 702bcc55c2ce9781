/**
 * Outgoing e-mail, by one of three transports chosen at start-up:
 *
 * - `smtp`: with `SMTP_URL` (e.g. `smtp://user:pass@mail.example.com:587`, `smtps://…:465`)
 *   messages go out through nodemailer's SMTP transport. Nothing of a message is logged or kept.
 * - `outbox` (development only: `NODE_ENV` is not `production`, no `SMTP_URL`): messages are kept
 *   whole in the `email_outbox` table and logged with their link, so the embedded quick start can
 *   sign in without a mail server. The rows and the log lines hold live sign-in links: whoever
 *   reads them can sign in as the addressee. That is what a developer needs on their own machine,
 *   and why production never uses it.
 * - `log` (production without `SMTP_URL`, only with `SIGN_IN_LINKS=log`): nothing is sent and
 *   nothing kept; each message's link is written to the log, with a loud warning at start-up.
 *   Unsafe, and the operator's explicit choice.
 *
 * Production without `SMTP_URL` and without `SIGN_IN_LINKS=log` refuses to start
 * (`MailTransportMissing`, naming both variables), as it does without `SECRETS_KEY`. Production
 * keeps nothing in `email_outbox`: rows left from an earlier run without SMTP are deleted at start.
 */
import { Context, Data, Effect, Layer, Option, Redacted } from "effect"
import { AppConfig } from "../config.js"
import { OutboxRepo } from "./OutboxRepo.js"

export interface MailMessage {
  readonly to: string
  readonly subject: string
  readonly text: string
  readonly html: string
  /**
   * The link the message carries (it holds a token: it signs in, or verifies an address). Written
   * to the log only by the development outbox and by production's `SIGN_IN_LINKS=log`; the message's
   * text and HTML, which hold it too, are never logged.
   */
  readonly link?: string | undefined
}

/** The message could not be handed to the mail server. */
export class MailFailed extends Data.TaggedError("MailFailed")<{ readonly message: string }> {}

/** Production has no way to deliver sign-in links but the log, and was not told it may use it. */
export class MailTransportMissing extends Data.TaggedError("MailTransportMissing")<{ readonly message: string }> {}

export const MAIL_TRANSPORT_MISSING =
  "SMTP_URL must be set when NODE_ENV=production: sign-in links are sent by e-mail. " +
  "To write them to the log instead, set SIGN_IN_LINKS=log (unsafe: whoever reads the log can sign in as anyone)"

export const SIGN_IN_LINKS_LOG_WARNING =
  "UNSAFE: SIGN_IN_LINKS=log and no SMTP_URL: no e-mail is sent; every sign-in and verification link is written " +
  "to this log instead, and whoever reads the log can sign in as any user. Set SMTP_URL and remove SIGN_IN_LINKS"

export interface MailerShape {
  /** `smtp`, `outbox` (development) or `log` (production with `SIGN_IN_LINKS=log`): where messages go. */
  readonly transport: "smtp" | "outbox" | "log"
  readonly send: (message: MailMessage) => Effect.Effect<void, MailFailed>
}

export class Mailer extends Context.Tag("@callsight/Mailer")<Mailer, MailerShape>() {
  static readonly layer = Layer.scoped(
    Mailer,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const outbox = yield* OutboxRepo
      if (config.production) yield* emptyOutbox(outbox)
      if (Option.isSome(config.smtpUrl)) {
        if (config.signInLinksLog) {
          yield* Effect.logWarning("SIGN_IN_LINKS=log is ignored: SMTP_URL is set, links are only sent by e-mail")
        }
        return yield* smtpMailer(Redacted.value(config.smtpUrl.value), config.mailFrom)
      }
      if (!config.production) {
        yield* Effect.logInfo(
          "no SMTP_URL: e-mails are kept in the email_outbox table and logged with their link (development only; " +
            "production does not start without SMTP_URL)"
        )
        return outboxMailer(outbox)
      }
      if (!config.signInLinksLog) return yield* new MailTransportMissing({ message: MAIL_TRANSPORT_MISSING })
      yield* Effect.logWarning(SIGN_IN_LINKS_LOG_WARNING)
      return logMailer
    })
  ).pipe(Layer.provide(OutboxRepo.Default))
}

/** Production keeps nothing in the outbox: rows an earlier run without SMTP left (live links) go. */
const emptyOutbox = (outbox: OutboxRepo) =>
  outbox.clear.pipe(
    Effect.flatMap((removed) =>
      removed === 0
        ? Effect.void
        : Effect.logWarning(`removed ${removed} e-mail(s) kept in email_outbox: production keeps none (they hold sign-in links)`)
    ),
    Effect.orDie
  )

const smtpMailer = (url: string, from: string) =>
  Effect.acquireRelease(
    // nodemailer is loaded only by a server that sends through SMTP
    Effect.map(Effect.promise(() => import("nodemailer")), ({ createTransport }) => createTransport(url)),
    (transport) => Effect.sync(() => transport.close())
  ).pipe(
    Effect.map((transport): MailerShape => ({
      transport: "smtp",
      send: (message) =>
        Effect.tryPromise({
          try: () => transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text, html: message.html }),
          catch: (cause) => new MailFailed({ message: `the mail server refused the message: ${String((cause as Error)?.message ?? cause)}` })
        }).pipe(
          Effect.asVoid,
          Effect.withSpan("Mailer.send", { attributes: { transport: "smtp" } })
        )
    }))
  )

/** Development: the whole message in `email_outbox`, its link in the log line. */
const outboxMailer = (outbox: OutboxRepo): MailerShape => ({
  transport: "outbox",
  send: (message) =>
    outbox.insert(message).pipe(
      Effect.zipRight(
        Effect.logInfo("e-mail kept in the outbox (no SMTP_URL)").pipe(
          Effect.annotateLogs({ to: message.to, subject: message.subject, ...(message.link ? { link: message.link } : {}) })
        )
      ),
      Effect.mapError((error) => new MailFailed({ message: `the outbox could not keep the message: ${error.message}` })),
      Effect.withSpan("Mailer.send", { attributes: { transport: "outbox" } })
    )
})

/** Production with `SIGN_IN_LINKS=log`: nothing sent or kept; the link alone goes to the log. */
const logMailer: MailerShape = {
  transport: "log",
  send: (message) =>
    Effect.logWarning("e-mail not sent (no SMTP_URL): its link is in this log line because SIGN_IN_LINKS=log (unsafe)").pipe(
      Effect.annotateLogs({ to: message.to, subject: message.subject, ...(message.link ? { link: message.link } : {}) }),
      Effect.withSpan("Mailer.send", { attributes: { transport: "log" } })
    )
}
