/**
 * Portal sign-in through the `callsight` command against `callsight serve` sending its e-mail to
 * a real SMTP server (`SMTP_URL`): login, the link from the received e-mail, verify (the session
 * stored in the config directory with mode 0600), me, logout; and the page the link opens.
 * The commands run in this process (`cliInProcess`, CALLSIGHT_CONFIG_DIR in their configuration),
 * but `me --json` (`runCli`): a process of its own, reading the session another command stored.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { readFile, stat } from "node:fs/promises"
import { join } from "node:path"
import { cliInProcess } from "./utils/CliInProcess.js"
import { linkOf, usePortalCli } from "./utils/PortalCli.js"
import { runCli } from "./utils/Server.js"

const email = `owner.${Date.now()}@acme.test`
const cli = usePortalCli("CLI Portal", email)

describe("callsight login / verify / me / logout", () => {
  it("signs in with the e-mailed link and keeps the session, mode 0600, for later commands", { timeout: 60_000 }, async () => {
    const login = await cliInProcess(["login", email], cli().env)
    expect(login.code, login.stderr).toBe(0)
    expect(login.stdout).toContain(`If ${email} has an account, a sign-in link is on its way`)
    const mail = await Effect.runPromise(cli().smtp.waitFor(email))
    const link = linkOf(mail.text)
    expect(link.startsWith(`http://localhost:`)).toBe(true)

    // the whole link is accepted as well as the token
    const verified = await cliInProcess(["verify", link], cli().env)
    expect(verified.code, verified.stderr).toBe(0)
    expect(verified.stdout).toContain(`as ${email} (owner of CLI Portal)`)
    const file = join(cli().configDir, "callsight", "session.json")
    expect(verified.stdout).toContain(file)
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    expect((await stat(join(cli().configDir, "callsight"))).mode & 0o777).toBe(0o700)
    const stored = JSON.parse(await readFile(file, "utf8"))
    const session = stored.sessions[cli().server.url]
    expect(session).toMatchObject({ email, session: expect.stringMatching(/^ses_/), client_id: expect.stringMatching(/^cli_/) })

    // a later command, a process of its own, finds the session in CALLSIGHT_CONFIG_DIR of its
    // environment; with --json its stdout holds the JSON alone
    const me = await runCli(["me", "--json"], cli().env)
    expect(me.code, me.stderr).toBe(0)
    expect(JSON.parse(me.stdout)).toMatchObject({ email, role: "owner", company_name: "CLI Portal", client_id: session.client_id, closer: null, account_closing: null })
    const plain = await cliInProcess(["me"], cli().env)
    expect(plain.code, plain.stderr).toBe(0)
    expect(plain.stdout).toMatch(new RegExp(`^${email.replace(/\./g, "\\.")} \\(.*\\), owner of CLI Portal$`, "m"))
    expect(plain.stdout).toContain("closer:    none")
    expect(plain.stdout).not.toContain("closing:")

    const reused = await cliInProcess(["verify", link], cli().env)
    expect(reused.code).toBe(3)
    expect(reused.stderr).toMatch(/401 Unauthorized: the sign-in link is unknown, used or expired/)

    const out = await cliInProcess(["logout"], cli().env)
    expect(out.code, out.stderr).toBe(0)
    expect(out.stdout).toContain(`Signed out of ${cli().server.url}.`)
    expect(JSON.parse(await readFile(file, "utf8")).sessions).toEqual({})
    // the session is gone on the service too
    const gone = await fetch(`${cli().server.url}/v1/client-auth/me`, { headers: { cookie: `callsight_session=${session.session}` } })
    expect(gone.status).toBe(401)
    const after = await cliInProcess(["me"], cli().env)
    expect(after.code).toBe(2)
    expect(after.stderr).toMatch(/not signed in to .*: run `callsight login EMAIL`/)
  })

  it("usage errors exit 2: not an e-mail, no token", async () => {
    const bad = await cliInProcess(["login", "not-an-email"], cli().env)
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('not an e-mail address: "not-an-email"')
    expect((await cliInProcess(["verify"], cli().env)).code).toBe(2)
  })

  it("the link's page is served: no external resources, the token posted to verify", async () => {
    const page = await fetch(`${cli().server.url}/sign-in`)
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toContain("text/html")
    const html = await page.text()
    expect(html).toContain('fetch("/v1/client-auth/verify"')
    expect(html).not.toMatch(/(src|href)="https?:/)
    const confirm = await (await fetch(`${cli().server.url}/verify-email`)).text()
    expect(confirm).toContain('fetch("/v1/client-portal/closers/verify-email"')
  })
})
