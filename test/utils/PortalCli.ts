/**
 * The setting of the CLI's portal tests: `callsight serve` sending its e-mail to a real SMTP server,
 * a tenant whose owner is `email`, and a config directory of its own for the session `login` and
 * `verify` store. `usePortalCli` registers the file's `beforeAll` and `afterAll`; `signIn` does the
 * whole sign-in through the commands (login, the link from the e-mail, verify).
 */
import { afterAll, beforeAll, expect } from "@effect/vitest"
import { Effect, Exit, Scope } from "effect"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startSmtpServer, type TestSmtpServer } from "../../packages/server/test/utils/SmtpServer.js"
import { cliInProcess } from "./CliInProcess.js"
import { type RunningServer, startServer } from "./Server.js"

export interface PortalCli {
  readonly smtp: TestSmtpServer
  readonly server: RunningServer
  readonly configDir: string
  /** CALLSIGHT_URL and CALLSIGHT_CONFIG_DIR for the commands. */
  readonly env: Record<string, string>
}

/** The sign-in link of an e-mail. */
export const linkOf = (text: string) => /(http\S+\/sign-in#token=[A-Za-z0-9_-]+)/.exec(text)![1]!

/** Starts the server and makes the tenant before the file's tests; stops and removes them after. */
export const usePortalCli = (company: string, email: string): (() => PortalCli) => {
  let scope: Scope.CloseableScope | undefined
  let state: PortalCli | undefined
  beforeAll(async () => {
    scope = Effect.runSync(Scope.make())
    const smtp = await Effect.runPromise(Scope.extend(startSmtpServer, scope))
    const server = await startServer({ env: { SMTP_URL: smtp.url, WORKER_CONCURRENCY: "1" } })
    const configDir = await mkdtemp(join(tmpdir(), "callsight-config-"))
    state = { smtp, server, configDir, env: { CALLSIGHT_URL: server.url, CALLSIGHT_CONFIG_DIR: join(configDir, "callsight") } }
    const created = await cliInProcess(["admin", "create-tenant", "--name", company, "--owner-email", email, "--json"], {
      CALLSIGHT_URL: server.url,
      CALLSIGHT_ADMIN_KEY: server.adminKey
    })
    expect(created.code, created.stderr).toBe(0)
  }, 120_000)
  afterAll(async () => {
    await state?.server.stop()
    if (scope !== undefined) await Effect.runPromise(Scope.close(scope, Exit.void))
    if (state !== undefined) await rm(state.configDir, { recursive: true, force: true })
  })
  return () => state!
}

/** Signs `email` in through the commands: login, the link of the e-mail it gets, verify. */
export const signIn = async (cli: PortalCli, email: string) => {
  expect((await cliInProcess(["login", email], cli.env)).code).toBe(0)
  const mail = await Effect.runPromise(cli.smtp.waitFor(email))
  expect((await cliInProcess(["verify", linkOf(mail.text)], cli.env)).code).toBe(0)
}
