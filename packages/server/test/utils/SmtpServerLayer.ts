/** The in-process server with its e-mail going to a real SMTP server started for the test. */
import { Context, Effect, Layer, Option, Redacted } from "effect"
import type { AppConfigShape } from "../../src/config.js"
import { startSmtpServer, type TestSmtpServer } from "./SmtpServer.js"
import { testServerLayer, type TestServerOptions } from "./TestServer.js"

export class Smtp extends Context.Tag("test/Smtp")<Smtp, TestSmtpServer>() {}

export const serverWithSmtp = (config: Partial<AppConfigShape> = {}, options: TestServerOptions = {}) =>
  Layer.unwrapScoped(Effect.gen(function* () {
    const smtp = yield* startSmtpServer
    return Layer.merge(
      testServerLayer({ smtpUrl: Option.some(Redacted.make(smtp.url)), signInLimitPerAddress: 1000, ...config }, options),
      Layer.succeed(Smtp, smtp)
    )
  }))
