/**
 * End to end: the real `callsight serve` (the run's shared one, test/utils/SharedServer.ts: PGlite or the
 * PostgreSQL server of TEST_DATABASE_URL) driven by the `callsight` command and by the Promise
 * facade of @callsight/client, as a user would. The command runs in this process
 * (`cliInProcess`, test/utils/CliInProcess.ts), and as a process of its own (`runCli`) where the
 * process is what is checked: `--json` leaving its stdout to the JSON alone; no colours on its
 * streams, pipes, with NO_COLOR unset; the exit code a shell sees.
 */
import { CreateClientRequest, GrantCreditsRequest } from "@callsight/api-spec"
import { colourOn } from "@callsight/cli"
import { CallsightClient, CallsightError, createCallsightClient } from "@callsight/client"
import { VERSION } from "@callsight/server"
import { beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { cliInProcess } from "./utils/CliInProcess.js"
import { freePort, runCli, sharedServer } from "./utils/Server.js"

let server: { readonly url: string; readonly adminKey: string }

beforeAll(async () => {
  // the run's shared server (its SIGTERM is shutdown.test.ts's)
  server = await sharedServer()
})

/** The rejection of `promise`, which must be a `CallsightError`. */
const failure = async (promise: Promise<unknown>): Promise<CallsightError> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e
  )
  expect(error).toBeInstanceOf(CallsightError)
  return error as CallsightError
}

describe("callsight (CLI)", () => {
  const admin = () => ({ CALLSIGHT_URL: server.url, CALLSIGHT_ADMIN_KEY: server.adminKey })
  let clientId = ""
  let apiKey = ""

  it("--version prints the version", async () => {
    const result = await cliInProcess(["--version"])
    expect(result.code).toBe(0)
    expect(result.stdout.trim()).toBe(VERSION)
  })

  it("admin create-tenant --json prints only the created tenant as JSON", async () => {
    // a process of its own: nothing but the JSON reaches its stdout
    const result = await runCli(
      ["admin", "create-tenant", "--name", "Acme", "--owner-email", "o@acme.test", "--credits", "5", "--json"],
      admin()
    )
    expect(result.stderr).toBe("")
    expect(result.code).toBe(0)
    const created = JSON.parse(result.stdout)
    expect(created.client_id).toMatch(/^cli_/)
    expect(created.api_key).toMatch(/^csk_/)
    expect(created.company_name).toBe("Acme")
    expect(created.credits_balance).toBe(5)
    expect(created.owner_user_id).toEqual(expect.any(String))
    clientId = created.client_id
    apiKey = created.api_key
  })

  it("admin create-tenant prints the client id and the key once, in words", async () => {
    const result = await cliInProcess(["admin", "create-tenant", "--name", "Beta Corp", "--plan", "growth", "--url", server.url], {
      CALLSIGHT_ADMIN_KEY: server.adminKey
    })
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/client id:\s+cli_\w+/)
    expect(result.stdout).toMatch(/API key:\s+csk_\S+/)
    expect(result.stdout).toMatch(/shown once/)
    expect(result.stdout).toMatch(/plan growth/)
  })

  it("the created key is a real tenant key: the admin path refuses it with 403 Forbidden", async () => {
    // The audio operations answer 501 today; the admin path tells a known tenant key (403) from an unknown one (401).
    const asTenant = await cliInProcess(["admin", "create-tenant", "--name", "X"], { ...admin(), CALLSIGHT_ADMIN_KEY: apiKey })
    expect(asTenant.code).toBe(3)
    expect(asTenant.stderr).toMatch(/403/)
    expect(asTenant.stderr).toMatch(/forbidden/i)
  })

  it("admin create-tenant with a wrong admin key exits 3 and says 401 Unauthorized on stderr", async () => {
    const result = await cliInProcess(["admin", "create-tenant", "--name", "Acme", "--json"], {
      ...admin(),
      CALLSIGHT_ADMIN_KEY: "not-the-admin-key"
    })
    expect(result.code).toBe(3)
    expect(result.stdout).toBe("")
    expect(result.stderr).toMatch(/401/)
    expect(result.stderr).toMatch(/unauthorized/i)
  })

  it("admin grant-credits adds to the balance", async () => {
    const result = await cliInProcess(["admin", "grant-credits", clientId, "7"], admin())
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/balance 12\b/)

    const json = await cliInProcess(["admin", "grant-credits", clientId, "3", "--reason", "goodwill", "--json"], admin())
    expect(json.code).toBe(0)
    expect(JSON.parse(json.stdout)).toEqual({ client_id: clientId, balance: 15 })
  })

  it("admin members: list, invite, set-role, revoke; the last owner stays (exit 3, 409)", async () => {
    const listed = await cliInProcess(["admin", "members", "list", clientId, "--json"], admin())
    expect(listed.code).toBe(0)
    const { members } = JSON.parse(listed.stdout)
    expect(members.map((m: any) => [m.email, m.role])).toEqual([["o@acme.test", "owner"]])
    const ownerId = members[0].user_id

    const invited = await cliInProcess(["admin", "members", "invite", clientId, "rep@acme.test", "--role", "member", "--name", "Rita Rep"], admin())
    expect(invited.code).toBe(0)
    expect(invited.stdout).toMatch(/^Invited rep@acme\.test as member \(inv_\w+\)/)
    const words = await cliInProcess(["admin", "members", "list", clientId], admin())
    expect(words.stdout).toMatch(/inv_\w+\s+member\s+rep@acme\.test \(Rita Rep\)\s+invited, until/)
    const invitationId = /inv_\w+/.exec(invited.stdout)![0]
    const revoked = await cliInProcess(["admin", "members", "revoke", clientId, invitationId, "--json"], admin())
    expect(JSON.parse(revoked.stdout)).toMatchObject({ invitation_id: invitationId, status: "revoked" })

    const demoted = await cliInProcess(["admin", "members", "set-role", clientId, ownerId, "admin"], admin())
    expect(demoted.code).toBe(3)
    expect(demoted.stderr).toMatch(/409/)
    expect(demoted.stderr).toMatch(/last owner/)
    const bad = await cliInProcess(["admin", "members", "invite", clientId, "not-an-email", "--role", "member"], admin())
    expect(bad.code).toBe(2)
  })

  it("admin grant-credits for an unknown client exits 3 (404)", async () => {
    const result = await cliInProcess(["admin", "grant-credits", "cli_doesnotexist", "7"], admin())
    expect(result.code).toBe(3)
    expect(result.stderr).toMatch(/404/)
  })

  it("usage errors exit 2: no --name, no admin key", async () => {
    const noName = await cliInProcess(["admin", "create-tenant", "--credits", "5"], admin())
    expect(noName.code).toBe(2)
    expect(noName.stdout).toBe("")
    expect(noName.stderr).toMatch(/^callsight: .*--name/)

    const noKey = await cliInProcess(["admin", "create-tenant", "--name", "Acme"], { CALLSIGHT_URL: server.url })
    expect(noKey.code).toBe(2)
    expect(noKey.stderr).toMatch(/admin key/)
  })

  it("a service that cannot be reached is a service error (3)", async () => {
    const port = await freePort()
    const result = await cliInProcess(["admin", "grant-credits", clientId, "1"], {
      ...admin(),
      CALLSIGHT_URL: `http://127.0.0.1:${port}`
    })
    expect(result.code).toBe(3)
    expect(result.stderr).toMatch(/could not reach/)
  })

  it("openapi prints the document the server publishes, without a server", async () => {
    const result = await cliInProcess(["openapi"])
    expect(result.code).toBe(0)
    const document = JSON.parse(result.stdout)
    expect(document.openapi).toBe("3.1.0")
    const served = (await fetch(`${server.url}/openapi.json`).then((r) => r.json())) as { paths: Record<string, unknown> }
    expect(Object.keys(document.paths).sort()).toEqual(Object.keys(served.paths).sort())
  })
})

describe("createCallsightClient (Promise facade)", () => {
  const admin = () => createCallsightClient({ baseUrl: server.url, apiKey: server.adminKey })

  it("probes", async () => {
    const client = createCallsightClient({ baseUrl: `${server.url}/` })
    const health = await client.health()
    expect(health.status).toBe("ok")
    expect(health.version).toBe(VERSION)
    expect(health.database.connected).toBe(true)
    expect(health.database.backend).toBe(process.env.TEST_DATABASE_URL ? "postgres" : "pglite")
    expect(await client.ready()).toEqual({ status: "ready", database: "ok", migrations: "ok" })
    const db = await client.dbHealth()
    expect(db.cap).toBeGreaterThan(0)
    const metrics = await client.metrics()
    expect(metrics.total.count).toBeGreaterThan(0)
    const document = await client.openapi()
    expect(document.openapi).toBe("3.1.0")
  })

  it("creates a tenant and grants credits", async () => {
    const created = await admin().admin.createClient({ company_name: "Facade Inc", credits: 2, plan: "starter" })
    expect(created.client_id).toMatch(/^cli_/)
    expect(created.api_key).toMatch(/^csk_/)
    expect(created.plan).toBe("starter")
    expect(created.credits_balance).toBe(2)
    expect(created.owner_user_id).toBeNull()

    const granted = await admin().admin.grantCredits(created.client_id, { amount: 10, reason: "pilot" })
    expect(granted).toEqual({ client_id: created.client_id, balance: 12 })
    const withdrawn = await admin().admin.grantCredits(created.client_id, { amount: -4, reason: "correction" })
    expect(withdrawn.balance).toBe(8)
  })

  it("an empty company_name is ValidationFailed 422, checked by the server", async () => {
    const error = await failure(admin().admin.createClient({ company_name: "" }))
    expect(error.tag).toBe("ValidationFailed")
    expect(error.status).toBe(422)
    const body = error.body as { detail: ReadonlyArray<{ loc: ReadonlyArray<string | number> }> }
    expect(body.detail.some((d) => d.loc.includes("company_name"))).toBe(true)
  })

  it("a wrong key is Unauthorized 401", async () => {
    const client = createCallsightClient({ baseUrl: server.url, apiKey: "wrong" })
    const error = await failure(client.admin.createClient({ company_name: "Nope" }))
    expect(error.tag).toBe("Unauthorized")
    expect(error.status).toBe(401)
    expect(error.body).toMatchObject({ _tag: "Unauthorized" })
  })

  it("a tenant key on the admin path is Forbidden 403", async () => {
    const created = await admin().admin.createClient({ company_name: "Tenant Key Co" })
    const asTenant = createCallsightClient({ baseUrl: server.url, apiKey: created.api_key })
    const error = await failure(asTenant.admin.grantCredits(created.client_id, { amount: 1, reason: "self-service" }))
    expect(error.tag).toBe("Forbidden")
    expect(error.status).toBe(403)
  })

  it("an unknown client is NotFound 404; a balance below 0 is Conflict 409", async () => {
    const missing = await failure(admin().admin.grantCredits("cli_doesnotexist", { amount: 1, reason: "x" }))
    expect(missing.tag).toBe("NotFound")
    expect(missing.status).toBe(404)

    const created = await admin().admin.createClient({ company_name: "Overdraft Ltd", credits: 1 })
    const overdraft = await failure(admin().admin.grantCredits(created.client_id, { amount: -2, reason: "x" }))
    expect(overdraft.tag).toBe("Conflict")
    expect(overdraft.status).toBe(409)
  })

  it("no answer is a TransportError", async () => {
    const port = await freePort()
    const error = await failure(createCallsightClient({ baseUrl: `http://127.0.0.1:${port}` }).health())
    expect(error.tag).toBe("TransportError")
    expect(error.status).toBeUndefined()
  })

  it("uses the fetch it is given", async () => {
    const seen: Array<string> = []
    const client = createCallsightClient({
      baseUrl: server.url,
      fetch: (input, init) => {
        seen.push(String(input instanceof Request ? input.url : input))
        return fetch(input, init)
      }
    })
    await client.ready()
    expect(seen).toEqual([`${server.url}/ready`])
  })
})

describe("CallsightClient (Effect)", () => {
  it.effect("fills X-API-Key from the layer; typed errors come back as the declaration's classes", () =>
    Effect.gen(function* () {
      const callsight = yield* CallsightClient
      const created = yield* callsight.extensions.createClient({
        payload: new CreateClientRequest({ company_name: "Effect Ltd", credits: 1 })
      })
      expect(created.credits_balance).toBe(1)
      const balance = yield* callsight.extensions.grantCredits({
        path: { client_id: created.client_id },
        payload: new GrantCreditsRequest({ amount: 4, reason: "test" })
      })
      expect(balance.balance).toBe(5)

      const asTenant = callsight.withApiKey(created.api_key)
      const forbidden = yield* asTenant.extensions.grantCredits({
        path: { client_id: created.client_id },
        payload: new GrantCreditsRequest({ amount: 1, reason: "test" })
      }).pipe(Effect.flip)
      expect(forbidden._tag).toBe("Forbidden")
    }).pipe(Effect.provide(CallsightClient.layerFetch({ baseUrl: server.url, apiKey: server.adminKey }))))
})

describe("callsight output", () => {
  // https://no-color.org: colour only on a terminal, and never with NO_COLOR set (and not empty)
  const ANSI = /\x1b\[/

  it("--help and the parser's errors have no colour codes when stdout and stderr are not terminals", async () => {
    // processes of their own, on pipes, without NO_COLOR (runCli sets NO_COLOR=1 unless told
    // otherwise; "" means unset): what decides the colours, and the exit code a shell sees
    const help = await runCli(["--help"], { NO_COLOR: "" })
    expect(help.code).toBe(0)
    expect(help.stdout).toContain("USAGE")
    expect(help.stdout).not.toMatch(ANSI)
    const missing = await runCli(["upload"], { NO_COLOR: "" })
    expect(missing.code).toBe(2)
    expect(missing.stderr).toBe("callsight: Missing argument <FILE>\n")
    // in this process, whose stdout and stderr are pipes too (Vitest's workers)
    const subcommandHelp = await cliInProcess(["upload", "--help"])
    expect(subcommandHelp.stdout).toContain("--idempotency-key")
    expect(subcommandHelp.stdout).not.toMatch(ANSI)
    const unknown = await cliInProcess(["uplaod"])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatch(/^callsight: Invalid subcommand/)
    expect(unknown.stderr).not.toMatch(ANSI)
  })

  it("colour only on a terminal without NO_COLOR", () => {
    expect(colourOn({ isTTY: true }, {})).toBe(true)
    expect(colourOn({ isTTY: true }, { NO_COLOR: "" })).toBe(true)
    expect(colourOn({ isTTY: true }, { NO_COLOR: "1" })).toBe(false)
    expect(colourOn({ isTTY: false }, {})).toBe(false)
    expect(colourOn({}, {})).toBe(false)
  })
})

