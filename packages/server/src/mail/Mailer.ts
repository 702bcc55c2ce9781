/**
 * Outgoing e-mail. With `SMTP_URL` (e.g. `smtp://user:pass@mail.example.com:587`,
 * `smtps://…:465`) messages go out through nodemailer's SMTP transport. Without it they are kept
 * in the `email_outbox` table and logged with their link, so the embedded quick start can sign in
 * without a mail server; the outbox is never used when SMTP is configured (it holds live links).
 */
import { Context, Data, Effect, Layer, Option, Redacted } from "effect"
import { createTransport } from "nodemailer"
import { AppConfig } from "../config.js"
import { OutboxRepo } from "./OutboxRepo.js"

export interface MailMessage {
  readonly to: string
  readonly subject: string
  readonly text: string
  readonly html: string
  /** The link the message carries, written in the log line when the message goes to the outbox. */
  readonly link?: string | undefined
}

/** The message could not be handed to the mail server. */
export class MailFailed extends Data.TaggedError("MailFailed")<{ readonly message: string }> {}

export interface MailerShape {
  /** `smtp` or `outbox`: where messages go. */
  readonly transport: "smtp" | "outbox"
  readonly send: (message: MailMessage) => Effect.Effect<void, MailFailed>
}

export class Mailer extends Context.Tag("@callsight/Mailer")<Mailer, MailerShape>() {
  static readonly layer = Layer.scoped(
    Mailer,
    Effect.gen(function* () {
      const config = yield* AppConfig
      return yield* Option.match(config.smtpUrl, {
        onSome: (url) => smtpMailer(Redacted.value(url), config.mailFrom),
        onNone: () => Effect.map(OutboxRepo, outboxMailer)
      })
    })
  ).pipe(Layer.provide(OutboxRepo.Default))
}

const smtpMailer = (url: string, from: string) =>
  Effect.acquireRelease(
    Effect.sync(() => createTransport(url)),
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
