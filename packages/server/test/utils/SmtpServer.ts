/**
 * A real SMTP server for the tests (`smtp-server`, on 127.0.0.1 and a random port, no TLS, no
 * authentication), keeping every message it receives parsed by `mailparser`. Scoped: it closes
 * with the scope. `waitFor` polls until a message for an address arrives.
 */
import { Data, Effect, Schedule, type Scope } from "effect"
import { simpleParser } from "mailparser"
import type { AddressInfo } from "node:net"
import { SMTPServer } from "smtp-server"

export interface ReceivedMail {
  readonly from: string
  readonly to: ReadonlyArray<string>
  readonly subject: string
  readonly text: string
  readonly html: string
}

export interface TestSmtpServer {
  /** `smtp://127.0.0.1:PORT`, the `SMTP_URL` to give the service. */
  readonly url: string
  readonly received: Array<ReceivedMail>
  /** Messages to this address so far. */
  readonly to: (address: string) => ReadonlyArray<ReceivedMail>
  /** The `n`th message (1-based) to this address, once it has arrived (within 10 s). */
  readonly waitFor: (address: string, n?: number) => Effect.Effect<ReceivedMail, NoMail>
}

export class NoMail extends Data.TaggedError("NoMail")<{ readonly address: string }> {}

export const startSmtpServer: Effect.Effect<TestSmtpServer, never, Scope.Scope> = Effect.acquireRelease(
  Effect.promise(async () => {
    const received: Array<ReceivedMail> = []
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      onData(stream, session, callback) {
        simpleParser(stream).then(
          (mail) => {
            received.push({
              from: mail.from?.text ?? "",
              to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
              subject: mail.subject ?? "",
              text: mail.text ?? "",
              html: typeof mail.html === "string" ? mail.html : ""
            })
            callback()
          },
          (error: Error) => callback(error)
        )
      }
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const port = (server.server.address() as AddressInfo).port
    return { server, received, url: `smtp://127.0.0.1:${port}` }
  }),
  ({ server }) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
).pipe(
  Effect.map(({ received, url }): TestSmtpServer => {
    const to = (address: string) => received.filter((m) => m.to.includes(address.toLowerCase()))
    const waitFor = (address: string, n = 1) =>
      Effect.suspend(() => {
        const mail = to(address)[n - 1]
        return mail === undefined ? Effect.fail(new NoMail({ address })) : Effect.succeed(mail)
      }).pipe(
        Effect.retry({ schedule: Schedule.spaced("50 millis"), times: 200 }),
        Effect.catchAll(() => Effect.fail(new NoMail({ address })))
      )
    return { url, received, to, waitFor }
  })
)
