/**
 * The tenant's CRM connections (`/v1/client-portal/integrations/crm-a`, `/crm/*`) and the crm-a
 * outcome sync, against one local server speaking each provider's documented API:
 *
 * - HubSpot CRM API v3 (crm-a), one account per private-app token (a bearer token): the deals list
 *   (the token check), deal and contact search (`hs_object_id`, `associations.contact`,
 *   `dealstage` IN, `hs_lastmodifieddate` GTE, sorts, paging), v4 deal→contact associations,
 *   contacts batch read, notes created with an association to a deal (type 214). A refused token is
 *   echoed in HubSpot's error message, so that a leak would show.
 * - Salesforce's OAuth 2 token endpoint, client-credentials grant (`invalid_client` when refused).
 * - Pipedrive's `GET /v1/users/me` with `x-api-token`.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Logger, Option, Redacted, type Scope } from "effect"
import { randomBytes } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { AppConfig } from "../src/config.js"
import { CrmSync } from "../src/integrations/CrmSync.js"
import { analysedFixture, insertAnalysed } from "./utils/AnalysedCalls.js"
import { call, freshEmail, memberSession, newTenant } from "./utils/PortalRequests.js"
import { serverWithSmtp, Smtp } from "./utils/SmtpServerLayer.js"

// ---------------------------------------------------------------------------------------------
// The providers
// ---------------------------------------------------------------------------------------------

interface HubDeal {
  readonly id: string
  properties: Record<string, string | null>
  contacts: Array<string>
}
interface HubNote {
  readonly id: string
  readonly body: string
  readonly dealIds: ReadonlyArray<string>
  readonly typeIds: ReadonlyArray<number>
}
interface HubAccount {
  readonly deals: Map<string, HubDeal>
  readonly contacts: Map<string, { readonly id: string; readonly email: string }>
  readonly notes: Array<HubNote>
  revoked: boolean
}

let ids = 1000
const nextId = () => String(ids++)

const SF_CLIENT_ID = "3MVG9sfClientId"
const SF_SECRET = "sf-secret-000000000000000000000000sfab"
const PD_TOKEN = "pd-token-0000000000000000000000000000pdcd"
/** A HubSpot token the fake account answers 503 for: the provider down. */
const HUB_DOWN = "pat-na1-down-000000000000000000000000dddd"

const hubToken = () => `pat-na1-${randomBytes(12).toString("hex")}wxyz`

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
  })

interface Providers {
  readonly url: string
  readonly seen: Array<string>
  /** The HubSpot account of a private-app token (made on first use). */
  readonly hubspot: (token: string) => HubAccount
}

const dealView = (deal: HubDeal, properties: ReadonlyArray<string>) => ({
  id: deal.id,
  properties: Object.fromEntries([...properties, "hs_object_id"].map((p) => [p, p === "hs_object_id" ? deal.id : deal.properties[p] ?? null])),
  createdAt: "2024-01-01T00:00:00.000Z",
  updatedAt: deal.properties["hs_lastmodifieddate"] ?? "2024-01-01T00:00:00.000Z",
  archived: false
})

type Filter = { propertyName: string; operator: string; value?: string; values?: Array<string> }

const matches = (deal: HubDeal, filter: Filter): boolean => {
  switch (filter.propertyName) {
    case "hs_object_id":
      return filter.operator === "EQ" && deal.id === filter.value
    case "associations.contact":
      return filter.operator === "EQ" && deal.contacts.includes(filter.value!)
    case "dealstage":
      return filter.operator === "IN" && (filter.values ?? []).includes(deal.properties["dealstage"] ?? "")
    case "hs_lastmodifieddate":
      return filter.operator === "GTE" && Date.parse(deal.properties["hs_lastmodifieddate"] ?? "") >= Number(filter.value)
    default:
      throw new Error(`the fake HubSpot does not filter on ${filter.propertyName}`)
  }
}

const hubspotAnswer = async (account: HubAccount, req: IncomingMessage, url: URL): Promise<readonly [number, unknown]> => {
  const body = req.method === "POST" ? JSON.parse(await readBody(req)) : undefined
  const path = url.pathname
  if (req.method === "GET" && path === "/crm/v3/objects/deals") {
    const limit = Number(url.searchParams.get("limit") ?? "10")
    return [200, { results: [...account.deals.values()].slice(0, limit).map((d) => dealView(d, ["dealname"])) }]
  }
  if (req.method === "POST" && path === "/crm/v3/objects/deals/search") {
    const groups: Array<{ filters: Array<Filter> }> = body.filterGroups ?? []
    let found = [...account.deals.values()].filter((d) => groups.length === 0 || groups.some((g) => g.filters.every((f) => matches(d, f))))
    const sort = body.sorts?.[0]
    if (sort !== undefined) {
      const key = (d: HubDeal) => Date.parse(d.properties[sort.propertyName] ?? "") || 0
      found = found.sort((a, b) => (sort.direction === "DESCENDING" ? key(b) - key(a) : key(a) - key(b)))
    }
    const offset = Number(body.after ?? "0")
    const limit = Number(body.limit ?? 10)
    const page = found.slice(offset, offset + limit)
    const next = offset + limit < found.length ? { paging: { next: { after: String(offset + limit), link: "…" } } } : {}
    return [200, { total: found.length, results: page.map((d) => dealView(d, body.properties ?? [])), ...next }]
  }
  if (req.method === "POST" && path === "/crm/v3/objects/contacts/search") {
    const email = body.filterGroups?.[0]?.filters?.find((f: Filter) => f.propertyName === "email")?.value
    const found = [...account.contacts.values()].filter((c) => c.email === email)
    return [200, { total: found.length, results: found.map((c) => ({ id: c.id, properties: { email: c.email, hs_object_id: c.id }, archived: false })) }]
  }
  if (req.method === "POST" && path === "/crm/v4/associations/deals/contacts/batch/read") {
    const results = (body.inputs as Array<{ id: string }>).flatMap(({ id }) => {
      const deal = account.deals.get(id)
      return deal === undefined || deal.contacts.length === 0
        ? []
        : [{ from: { id }, to: deal.contacts.map((c) => ({ toObjectId: Number(c), associationTypes: [{ category: "HUBSPOT_DEFINED", typeId: 3, label: null }] })) }]
    })
    return [200, { status: "COMPLETE", results, startedAt: new Date().toISOString(), completedAt: new Date().toISOString() }]
  }
  if (req.method === "POST" && path === "/crm/v3/objects/contacts/batch/read") {
    const results = (body.inputs as Array<{ id: string }>).flatMap(({ id }) => {
      const contact = account.contacts.get(id)
      return contact === undefined ? [] : [{ id, properties: { email: contact.email, hs_object_id: id }, archived: false }]
    })
    return [200, { status: "COMPLETE", results }]
  }
  if (req.method === "POST" && path === "/crm/v3/objects/notes") {
    const associations: Array<{ to: { id: string }; types: Array<{ associationCategory: string; associationTypeId: number }> }> = body.associations ?? []
    const dealIds = associations.map((a) => a.to.id)
    if (dealIds.some((id) => !account.deals.has(id))) return [400, { status: "error", message: "One or more associations are invalid", category: "VALIDATION_ERROR" }]
    const note = { id: nextId(), body: body.properties.hs_note_body, dealIds, typeIds: associations.flatMap((a) => a.types.map((t) => t.associationTypeId)) }
    account.notes.push(note)
    return [201, { id: note.id, properties: body.properties, createdAt: new Date().toISOString(), archived: false }]
  }
  return [404, { status: "error", message: `no route ${req.method} ${path}`, category: "OBJECT_NOT_FOUND" }]
}

const startProviders: Effect.Effect<Providers, never, Scope.Scope> = Effect.acquireRelease(
  Effect.async<Providers & { readonly close: () => void }>((resume) => {
    const seen: Array<string> = []
    const accounts = new Map<string, HubAccount>()
    const hubspot = (token: string) => {
      let account = accounts.get(token)
      if (account === undefined) {
        account = { deals: new Map(), contacts: new Map(), notes: [], revoked: false }
        accounts.set(token, account)
      }
      return account
    }
    const answer = async (req: IncomingMessage): Promise<readonly [number, unknown]> => {
      const url = new URL(req.url ?? "/", "http://localhost")
      seen.push(`${req.method} ${url.pathname}${url.search}`)
      if (url.pathname.startsWith("/crm/")) {
        const token = (req.headers.authorization ?? "").replace(/^Bearer /, "")
        if (token === HUB_DOWN) return [503, { status: "error", message: "Service unavailable" }]
        const account = accounts.get(token)
        if (account === undefined || account.revoked) {
          return [401, {
            status: "error",
            message: `Authentication credentials not found: the token ${token} is not valid for this account`,
            correlationId: "0c1a2b3c",
            category: "INVALID_AUTHENTICATION"
          }]
        }
        return hubspotAnswer(account, req, url)
      }
      if (req.method === "POST" && url.pathname === "/services/oauth2/token") {
        const form = new URLSearchParams(await readBody(req))
        if (form.get("grant_type") !== "client_credentials") return [400, { error: "unsupported_grant_type", error_description: "grant type not supported" }]
        if (form.get("client_id") !== SF_CLIENT_ID) return [400, { error: "invalid_client_id", error_description: "client identifier invalid" }]
        if (form.get("client_secret") !== SF_SECRET) return [400, { error: "invalid_client", error_description: "invalid client credentials" }]
        return [200, {
          access_token: "00Dxx0000001gPL!AQ4AQfake.access.token",
          signature: "sig",
          scope: "api",
          instance_url: "https://acme.my.salesforce.com",
          id: "https://login.salesforce.com/id/00Dxx0000001gPLEAY/005xx000001Sv6eAAC",
          token_type: "Bearer",
          issued_at: String(Date.now())
        }]
      }
      if (req.method === "GET" && url.pathname === "/v1/users/me") {
        return req.headers["x-api-token"] === PD_TOKEN
          ? [200, { success: true, data: { id: 1, name: "Pat Pipe", email: "pat@acme.test", company_id: 42, company_domain: "acme" } }]
          : [401, { success: false, error: "unauthorized access", errorCode: 401, error_info: "Please check developers.pipedrive.com" }]
      }
      return [404, { error: "not found" }]
    }
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      answer(req).then(
        ([status, body]) => {
          res.writeHead(status, { "content-type": "application/json" })
          res.end(JSON.stringify(body))
        },
        (error) => {
          res.writeHead(500, { "content-type": "application/json" })
          res.end(JSON.stringify({ message: String(error) }))
        }
      )
    })
    server.listen(0, "127.0.0.1", () =>
      resume(Effect.succeed({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, hubspot, close: () => server.close() })))
  }),
  (s) => Effect.sync(s.close)
)

class ProvidersTag extends Context.Tag("test/CrmProviders")<ProvidersTag, Providers>() {}
class Logs extends Context.Tag("test/Logs")<Logs, Array<string>>() {}

const TestLayer = Layer.unwrapScoped(
  Effect.gen(function* () {
    const providers = yield* startProviders
    const logs: Array<string> = []
    const config = {
      crmAApiUrl: providers.url,
      salesforceLoginUrl: providers.url,
      pipedriveApiUrl: providers.url,
      secretsKey: Option.some(Redacted.make(randomBytes(32).toString("base64")))
    }
    // The sync as the background layer runs it, on the same database and secrets key.
    const sync = CrmSync.Default.pipe(Layer.provide(AppConfig.layerWith(config)))
    return Layer.mergeAll(
      sync.pipe(Layer.provideMerge(serverWithSmtp(config))),
      Layer.succeed(ProvidersTag, providers),
      Layer.succeed(Logs, logs)
    )
  })
)

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const CRM_A = "/v1/client-portal/integrations/crm-a"
const CRM = "/v1/client-portal/crm"

/** Every place a secret could leak to: answers, the stored rows, the audit rows, the events, the sync's log. */
const leaks = (secret: string, ...answers: ReadonlyArray<unknown>) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const logs = yield* Logs
    const rows = yield* Effect.all([
      sql`SELECT * FROM crm_connections`,
      sql`SELECT * FROM crm_outcome_notes`,
      sql`SELECT * FROM audit_logs`,
      sql`SELECT * FROM call_events`,
      sql`SELECT * FROM outcome_truth`
    ])
    return JSON.stringify([answers, rows, logs]).includes(secret)
  }).pipe(Effect.orDie)

/** One sync pass now, its log lines kept. */
const syncNow = Effect.gen(function* () {
  const logs = yield* Logs
  const sync = yield* CrmSync
  return yield* sync.runOnce.pipe(Effect.provide(Logger.add(Logger.map(Logger.logfmtLogger, (line) => void logs.push(line)))))
})

/** A completed call of the tenant with that external id (as an upload would leave it). */
const insertCall = (clientId: string, externalId: string | null) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const callId = `call_crm_${nextId()}`
    yield* sql`INSERT INTO calls (call_id, client_id, external_call_id, status, format, blob_key, size_bytes, sha256, completed_at)
               VALUES (${callId}, ${clientId}, ${externalId}, 'completed', 'wav', ${`blob/${callId}`}, 1, 'x', now())`
    return callId
  }).pipe(Effect.orDie)

const auditRows = (clientId: string, prefix: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ action: string; actor: string; actor_type: string; target_id: string | null; metadata: any }>`
      SELECT action, actor, actor_type, target_id, metadata FROM audit_logs
      WHERE client_id = ${clientId} AND action LIKE ${`${prefix}%`} ORDER BY at, log_id`).pipe(Effect.orDie)

const deal = (account: HubAccount, properties: Record<string, string | null>, contacts: Array<string> = []) => {
  const d: HubDeal = {
    id: nextId(),
    properties: { dealname: "Acme renewal", dealstage: "appointmentscheduled", hs_lastmodifieddate: new Date().toISOString(), ...properties },
    contacts
  }
  account.deals.set(d.id, d)
  return d
}

const contact = (account: HubAccount, email: string) => {
  const c = { id: nextId(), email }
  account.contacts.set(c.id, c)
  return c.id
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

layer(TestLayer, { excludeTestServices: true })("CRM integrations", (it) => {
  describe("connections", () => {
    it.effect("the providers are crm-a (HubSpot), Salesforce and Pipedrive, with their fields", () =>
      Effect.gen(function* () {
        const { session } = yield* newTenant()
        const reply = yield* call("GET", `${CRM}/providers`, { session })
        expect(reply.status).toBe(200)
        const providers = reply.body.providers as Array<any>
        expect(providers.map((p) => [p.provider, p.auth_type, p.supports_outcome_sync])).toEqual([
          ["crm-a", "access_token", true],
          ["salesforce", "oauth", false],
          ["pipedrive", "api_key", false]
        ])
        const fields = (p: string) => providers.find((x) => x.provider === p).fields.map((f: any) => [f.name, f.type, f.required])
        expect(fields("crm-a")).toEqual([["access_token", "secret", true], ["account_id", "string", false]])
        expect(fields("salesforce")).toEqual([["client_id", "string", true], ["client_secret", "secret", true], ["login_url", "url", false]])
        expect(fields("pipedrive")).toEqual([["api_token", "secret", true]])
        expect(providers[0].fields[0]).toMatchObject({ label: expect.any(String), description: expect.any(String) })
      }))

    it.effect("PUT crm-a checks the token with HubSpot, stores it sealed, and shows its last four characters only", () =>
      Effect.gen(function* () {
        const providers = yield* ProvidersTag
        const token = hubToken()
        providers.hubspot(token)
        const { clientId, session } = yield* newTenant()
        const before = (yield* call("GET", CRM_A, { session })).body
        expect(before).toEqual({
          provider: "crm-a",
          configured: false,
          status: "not_configured",
          account_id: null,
          sync_outcomes: false,
          token_last4: null,
          last_sync_at: null,
          last_error: null,
          created_at: null,
          updated_at: null
        })
        const seen = providers.seen.length
        const saved = yield* call("PUT", CRM_A, { session, body: { access_token: token, account_id: "4455667", sync_outcomes: true } })
        expect(saved.status, JSON.stringify(saved.body)).toBe(200)
        expect(saved.body).toMatchObject({
          provider: "crm-a",
          configured: true,
          status: "connected",
          account_id: "4455667",
          sync_outcomes: true,
          token_last4: "wxyz",
          last_sync_at: null,
          last_error: null,
          created_at: expect.any(String),
          updated_at: expect.any(String)
        })
        expect(providers.seen.slice(seen)).toEqual(["GET /crm/v3/objects/deals?limit=1"])
        expect((yield* call("GET", CRM_A, { session })).body).toEqual(saved.body)
        const status = yield* call("GET", `${CRM}/status`, { session })
        expect(status.body).toEqual({
          connected: true,
          connections: [{
            provider: "crm-a",
            name: "crm-a (HubSpot CRM API v3)",
            status: "connected",
            fields: { account_id: "4455667", access_token: "wxyz" },
            connected_at: saved.body.created_at,
            updated_at: saved.body.updated_at,
            last_sync_at: null,
            last_error: null
          }]
        })
        const sql = yield* SqlClient.SqlClient
        const [row] = yield* Effect.orDie(sql<{ sealed_secrets: string }>`SELECT sealed_secrets FROM crm_connections WHERE client_id = ${clientId}`)
        expect(row!.sealed_secrets).toMatch(/^v1\./)
        const audit = yield* auditRows(clientId, "crm_integration.")
        expect(audit).toEqual([{
          action: "crm_integration.connected",
          actor: expect.stringMatching(/^usr_/),
          actor_type: "user",
          target_id: "crm-a",
          metadata: { provider: "crm-a", via: "integrations/crm-a", fields: { account_id: "4455667" }, secret_fields: ["access_token"], sync_outcomes: true }
        }])
        expect(yield* leaks(token, saved.body, status.body)).toBe(false)
      }))

    it.effect("a token HubSpot refuses is 422 with the status and our reason, never HubSpot's words nor the token; HubSpot down is 422 too; nothing is stored", () =>
      Effect.gen(function* () {
        const { clientId, session } = yield* newTenant()
        const bad = hubToken()
        const refused = yield* call("PUT", CRM_A, { session, body: { access_token: bad, sync_outcomes: true } })
        expect(refused.status).toBe(422)
        expect(refused.body.detail).toEqual([{
          loc: ["body", "access_token"],
          msg: "crm-a (HubSpot CRM API v3) did not accept the credentials (HTTP 401: the key was refused); nothing was saved",
          type: "value_error"
        }])
        expect(JSON.stringify(refused.body)).not.toContain("Authentication credentials not found")
        const down = yield* call("PUT", CRM_A, { session, body: { access_token: HUB_DOWN, sync_outcomes: false } })
        expect(down.status).toBe(422)
        expect(down.body.detail[0]).toMatchObject({ loc: ["body", "access_token"], msg: expect.stringContaining("could not be reached to check the credentials (HTTP 503") })
        const missing = yield* call("PUT", CRM_A, { session, body: { sync_outcomes: true } })
        expect(missing.status).toBe(422)
        expect(missing.body.detail[0].loc).toEqual(["body", "access_token"])
        expect((yield* call("GET", CRM_A, { session })).body.configured).toBe(false)
        expect((yield* call("GET", `${CRM}/status`, { session })).body).toEqual({ connected: false, connections: [] })
        expect(yield* auditRows(clientId, "crm_integration.")).toEqual([])
        expect(yield* leaks(bad, refused.body)).toBe(false)
        expect(yield* leaks(HUB_DOWN, down.body)).toBe(false)
      }))

    it.effect("crm/connect checks Salesforce (client credentials) and Pipedrive (users/me) before storing; status lists them without secrets", () =>
      Effect.gen(function* () {
        const providers = yield* ProvidersTag
        const { clientId, session } = yield* newTenant()
        const seen = providers.seen.length
        const sf = yield* call("POST", `${CRM}/connect`, {
          session,
          body: { provider: "salesforce", credentials: { client_id: SF_CLIENT_ID, client_secret: SF_SECRET } }
        })
        expect(sf.status, JSON.stringify(sf.body)).toBe(200)
        expect(sf.body).toMatchObject({
          provider: "salesforce",
          name: "Salesforce",
          status: "connected",
          fields: { client_id: SF_CLIENT_ID, client_secret: "sfab", instance_url: "https://acme.my.salesforce.com" },
          last_sync_at: null,
          last_error: null
        })
        const pd = yield* call("POST", `${CRM}/connect`, { session, body: { provider: "pipedrive", credentials: { api_token: PD_TOKEN } } })
        expect(pd.status, JSON.stringify(pd.body)).toBe(200)
        expect(pd.body.fields).toEqual({ api_token: "pdcd", company_domain: "acme" })
        expect(providers.seen.slice(seen)).toEqual(["POST /services/oauth2/token", "GET /v1/users/me"])
        const status = yield* call("GET", `${CRM}/status`, { session })
        expect(status.body.connected).toBe(true)
        expect(status.body.connections.map((c: any) => [c.provider, c.status])).toEqual([["pipedrive", "connected"], ["salesforce", "connected"]])
        expect(yield* leaks(SF_SECRET, sf.body, pd.body, status.body)).toBe(false)
        expect(yield* leaks(PD_TOKEN, sf.body, pd.body, status.body)).toBe(false)
        const audit = yield* auditRows(clientId, "crm_integration.")
        expect(audit.map((a) => [a.action, a.target_id, a.metadata.secret_fields])).toEqual([
          ["crm_integration.connected", "salesforce", ["client_secret"]],
          ["crm_integration.connected", "pipedrive", ["api_token"]]
        ])
      }))

    it.effect("crm/connect: unknown provider 404, missing or unknown fields 422 on the field, refused or unreachable 422; nothing stored", () =>
      Effect.gen(function* () {
        const { session } = yield* newTenant()
        const connect = (provider: string, credentials: Record<string, string>) =>
          call("POST", `${CRM}/connect`, { session, body: { provider, credentials } })
        const unknown = yield* connect("zoho", { api_token: "x" })
        expect(unknown.status).toBe(404)
        expect(unknown.body.message).toContain("crm-a, salesforce, pipedrive")
        const missing = yield* connect("salesforce", { client_id: SF_CLIENT_ID })
        expect(missing.status).toBe(422)
        expect(missing.body.detail).toEqual([{ loc: ["body", "credentials", "client_secret"], msg: "required: Consumer secret", type: "value_error" }])
        const blank = yield* connect("pipedrive", { api_token: "   " })
        expect(blank.body.detail[0].loc).toEqual(["body", "credentials", "api_token"])
        const extra = yield* connect("pipedrive", { api_token: PD_TOKEN, password: "hunter2" })
        expect(extra.status).toBe(422)
        expect(extra.body.detail[0].loc).toEqual(["body", "credentials", "password"])
        const badUrl = yield* connect("salesforce", { client_id: SF_CLIENT_ID, client_secret: SF_SECRET, login_url: "ftp://x" })
        expect(badUrl.body.detail[0]).toMatchObject({ loc: ["body", "credentials", "login_url"], msg: "must be an http(s) URL" })
        const wrongSecret = "sf-wrong-secret-99999999999999999999zzzz"
        const refused = yield* connect("salesforce", { client_id: SF_CLIENT_ID, client_secret: wrongSecret })
        expect(refused.status).toBe(422)
        expect(refused.body.detail).toEqual([{
          loc: ["body", "credentials"],
          // the status, our reason and the OAuth error code (the RFC's word), never Salesforce's own sentence
          msg: "Salesforce did not accept the credentials (HTTP 400: the request was refused (invalid_client)); nothing was saved",
          type: "value_error"
        }])
        const pdRefused = yield* connect("pipedrive", { api_token: "pd-wrong-token" })
        expect(pdRefused.body.detail[0].msg).toBe("Pipedrive did not accept the credentials (HTTP 401: the key was refused); nothing was saved")
        const down = yield* connect("salesforce", { client_id: SF_CLIENT_ID, client_secret: SF_SECRET, login_url: "http://127.0.0.1:9" })
        expect(down.status).toBe(422)
        expect(down.body.detail[0].msg).toContain("Salesforce could not be reached to check the credentials")
        for (const loginUrl of ["http://[::1", "http://exa mple.test", "https://"]) {
          const odd = yield* connect("salesforce", { client_id: SF_CLIENT_ID, client_secret: SF_SECRET, login_url: loginUrl })
          expect(odd.status, loginUrl).toBe(422)
        }
        const notObject = yield* call("POST", `${CRM}/connect`, { session, body: { provider: "pipedrive", credentials: "token" } })
        expect(notObject.status).toBe(422)
        expect((yield* call("GET", `${CRM}/status`, { session })).body).toEqual({ connected: false, connections: [] })
        expect(yield* leaks(wrongSecret, refused.body)).toBe(false)
      }))

    it.effect("crm-a through crm/connect and through /integrations/crm-a is one record; connecting again replaces credentials; disconnect, then 404", () =>
      Effect.gen(function* () {
        const providers = yield* ProvidersTag
        const first = hubToken()
        const second = `${hubToken().slice(0, -4)}abcd`
        providers.hubspot(first)
        providers.hubspot(second)
        const { clientId, session } = yield* newTenant()
        const connected = yield* call("POST", `${CRM}/connect`, { session, body: { provider: "crm-a", credentials: { access_token: first } } })
        expect(connected.status, JSON.stringify(connected.body)).toBe(200)
        expect(connected.body.fields).toEqual({ access_token: "wxyz" })
        expect((yield* call("GET", CRM_A, { session })).body).toMatchObject({ configured: true, sync_outcomes: false, token_last4: "wxyz" })
        // PUT turns the sync on; connecting again replaces the token and keeps the setting.
        expect((yield* call("PUT", CRM_A, { session, body: { access_token: first, sync_outcomes: true } })).body.sync_outcomes).toBe(true)
        const again = yield* call("POST", `${CRM}/connect`, { session, body: { provider: "crm-a", credentials: { access_token: second, account_id: "99" } } })
        expect(again.body).toMatchObject({ fields: { access_token: "abcd", account_id: "99" }, connected_at: connected.body.connected_at })
        expect((yield* call("GET", CRM_A, { session })).body).toMatchObject({ sync_outcomes: true, token_last4: "abcd", account_id: "99" })
        const status = yield* call("GET", `${CRM}/status`, { session })
        expect(status.body.connections).toHaveLength(1)
        const removed = yield* call("DELETE", CRM_A, { session })
        expect(removed.status).toBe(200)
        expect(removed.body).toMatchObject({ provider: "crm-a", removed: true, removed_at: expect.any(String) })
        expect((yield* call("DELETE", CRM_A, { session })).status).toBe(404)
        expect((yield* call("DELETE", `${CRM}/disconnect/crm-a`, { session })).status).toBe(404)
        yield* call("POST", `${CRM}/connect`, { session, body: { provider: "pipedrive", credentials: { api_token: PD_TOKEN } } })
        const disconnected = yield* call("DELETE", `${CRM}/disconnect/pipedrive`, { session })
        expect(disconnected.status).toBe(200)
        expect(disconnected.body).toMatchObject({ provider: "pipedrive", removed: true })
        expect((yield* call("DELETE", `${CRM}/disconnect/pipedrive`, { session })).status).toBe(404)
        expect((yield* call("DELETE", `${CRM}/disconnect/zoho`, { session })).status).toBe(404)
        expect((yield* call("GET", `${CRM}/status`, { session })).body).toEqual({ connected: false, connections: [] })
        const audit = yield* auditRows(clientId, "crm_integration.")
        expect(audit.map((a) => [a.action, a.target_id, a.metadata.via])).toEqual([
          ["crm_integration.connected", "crm-a", "crm/connect"],
          ["crm_integration.connected", "crm-a", "integrations/crm-a"],
          ["crm_integration.connected", "crm-a", "crm/connect"],
          ["crm_integration.disconnected", "crm-a", "integrations/crm-a"],
          ["crm_integration.connected", "pipedrive", "crm/connect"],
          ["crm_integration.disconnected", "pipedrive", "crm/disconnect"]
        ])
        expect(yield* leaks(first)).toBe(false)
        expect(yield* leaks(second)).toBe(false)
      }))

    it.effect("members are 403 on every CRM operation; another tenant sees none of it and cannot remove it (404)", () =>
      Effect.gen(function* () {
        const smtp = yield* Smtp
        const providers = yield* ProvidersTag
        const token = hubToken()
        providers.hubspot(token)
        const { clientId, session } = yield* newTenant()
        yield* call("PUT", CRM_A, { session, body: { access_token: token, sync_outcomes: true } })
        yield* call("POST", `${CRM}/connect`, { session, body: { provider: "pipedrive", credentials: { api_token: PD_TOKEN } } })
        const member = yield* memberSession(smtp, clientId, freshEmail("member"))
        const asMember = [
          yield* call("GET", CRM_A, { session: member }),
          yield* call("PUT", CRM_A, { session: member, body: { access_token: token, sync_outcomes: false } }),
          yield* call("DELETE", CRM_A, { session: member }),
          yield* call("GET", `${CRM}/providers`, { session: member }),
          yield* call("GET", `${CRM}/status`, { session: member }),
          yield* call("POST", `${CRM}/connect`, { session: member, body: { provider: "pipedrive", credentials: { api_token: PD_TOKEN } } }),
          yield* call("DELETE", `${CRM}/disconnect/pipedrive`, { session: member })
        ]
        expect(asMember.map((r) => r.status)).toEqual([403, 403, 403, 403, 403, 403, 403])
        expect((yield* call("GET", CRM_A, {})).status).toBe(401)
        const other = yield* newTenant()
        expect((yield* call("GET", CRM_A, { session: other.session })).body.configured).toBe(false)
        expect((yield* call("GET", `${CRM}/status`, { session: other.session })).body).toEqual({ connected: false, connections: [] })
        expect((yield* call("DELETE", CRM_A, { session: other.session })).status).toBe(404)
        expect((yield* call("DELETE", `${CRM}/disconnect/pipedrive`, { session: other.session })).status).toBe(404)
        const mine = yield* call("GET", `${CRM}/status`, { session })
        expect(mine.body.connections.map((c: any) => c.provider)).toEqual(["crm-a", "pipedrive"])
        expect(yield* leaks(token, ...asMember.map((r) => r.body))).toBe(false)
      }))
  })

  describe("outcome sync", () => {
    it.effect("a recorded outcome becomes a note on the matching deal (by deal id, or the buyer's e-mail), once per version", () =>
      Effect.gen(function* () {
        const providers = yield* ProvidersTag
        const token = hubToken()
        const account = providers.hubspot(token)
        const { clientId, session } = yield* newTenant()
        yield* call("PUT", CRM_A, { session, body: { access_token: token, sync_outcomes: true } })
        const byId = deal(account, { dealname: "Acme expansion" })
        const buyer = contact(account, "buyer@globex.test")
        deal(account, { dealname: "Globex old", hs_lastmodifieddate: "2024-01-01T00:00:00.000Z" }, [buyer])
        const byEmail = deal(account, { dealname: "Globex new" }, [buyer])
        const idCall = yield* insertCall(clientId, byId.id)
        const emailCall = yield* insertCall(clientId, "Buyer@Globex.test")
        const unmatched = yield* insertCall(clientId, "no-such-deal")
        const recorded = yield* call("PUT", `/v1/client-portal/calls/${idCall}/outcome-truth`, {
          session,
          body: { outcome: "won", deal_value: 12000, currency: "USD", closed_at: "2024-05-01T10:00:00Z", reason: "champion bought in" }
        })
        expect(recorded.status, JSON.stringify(recorded.body)).toBe(200)
        yield* call("PUT", `/v1/client-portal/calls/${emailCall}/outcome-truth`, { session, body: { outcome: "no_decision", notes: "budget frozen" } })
        yield* call("PUT", `/v1/client-portal/calls/${unmatched}/outcome-truth`, { session, body: { outcome: "lost" } })

        const first = yield* syncNow
        expect(first.failures).toBe(0)
        expect(account.notes.map((n) => [n.dealIds, n.typeIds])).toEqual([[[byId.id], [214]], [[byEmail.id], [214]]])
        expect(account.notes[0]!.body).toBe(
          `Callsight call outcome: Won · deal value 12000 USD · closed 2024-05-01 · reason: champion bought in · (call ${idCall}, external id ${byId.id})`
        )
        expect(account.notes[1]!.body).toContain("Callsight call outcome: No decision · notes: budget frozen")
        const sql = yield* SqlClient.SqlClient
        const states = yield* Effect.orDie(sql<{ call_id: string; state: string; deal_id: string | null }>`
          SELECT call_id, state, deal_id FROM crm_outcome_notes WHERE client_id = ${clientId} ORDER BY call_id`)
        expect(Object.fromEntries(states.map((s) => [s.call_id, [s.state, s.deal_id]]))).toEqual({
          [idCall]: ["written", byId.id],
          [emailCall]: ["written", byEmail.id],
          [unmatched]: ["no_deal", null]
        })

        // Nothing new: no note. A changed outcome: one more note, of the new version.
        yield* syncNow
        expect(account.notes).toHaveLength(2)
        yield* call("PUT", `/v1/client-portal/calls/${idCall}/outcome-truth`, { session, body: { outcome: "lost", reason: "went with a competitor" } })
        yield* syncNow
        expect(account.notes).toHaveLength(3)
        expect(account.notes[2]!.body).toContain("Callsight call outcome: Lost · reason: went with a competitor")
        const crmA = (yield* call("GET", CRM_A, { session })).body
        expect(crmA).toMatchObject({ status: "connected", last_error: null, last_sync_at: expect.any(String) })
        expect(yield* leaks(token, crmA)).toBe(false)
      }))

    it.effect("the note of an analysed call carries its summary: what the buyer needs, what was agreed, open risks, with the quotes", () =>
      Effect.gen(function* () {
        const providers = yield* ProvidersTag
        const token = hubToken()
        const account = providers.hubspot(token)
        const { clientId, session } = yield* newTenant()
        yield* call("PUT", CRM_A, { session, body: { access_token: token, sync_outcomes: true } })
        const target = deal(account, { dealname: "Acme analytics" })
        const result = analysedFixture("demo-objection")
        const callId = yield* insertAnalysed(clientId, result, { externalCallId: target.id })
        yield* call("PUT", `/v1/client-portal/calls/${callId}/outcome-truth`, { session, body: { outcome: "open" } })
        expect((yield* syncNow).failures).toBe(0)
        expect(account.notes).toHaveLength(1)
        const [outcome, heading, needs, agreed, risks, ...rest] = account.notes[0]!.body.split("\n")
        expect(outcome).toBe(`Callsight call outcome: Open · (call ${callId}, external id ${target.id})`)
        expect(heading).toBe("Call summary")
        expect(rest).toEqual([])
        const summary = result.summary!
        expect(needs).toMatch(/^Needs: /)
        expect(agreed).toMatch(/^Agreed: /)
        expect(risks).toMatch(/^Risks: /)
        for (const [line, items] of [[needs, summary.needs], [agreed, summary.agreed], [risks, summary.risks]] as const) {
          for (const item of items) {
            expect(line).toContain(item.text)
            for (const q of item.quotes) expect(line).toContain(`“${q.quote}” (${q.speaker}, `)
          }
        }
        expect(risks).toContain("“That sounds useful, but honestly the price is a problem.” (S2, 1:09)")
      }))

    it.effect("closed deals fill the outcome truth of matching calls, never a person's, never another tenant's; each with its audit row", () =>
      Effect.gen(function* () {
        const providers = yield* ProvidersTag
        const token = hubToken()
        const account = providers.hubspot(token)
        const { clientId, session } = yield* newTenant()
        const other = yield* newTenant()
        yield* call("PUT", CRM_A, { session, body: { access_token: token, sync_outcomes: true } })
        const won = deal(account, { dealstage: "closedwon", amount: "5000.50", deal_currency_code: "EUR", closedate: "2024-06-30T12:00:00.000Z", dealname: "Initech" })
        const lostBuyer = contact(account, "cfo@hooli.test")
        const lost = deal(account, { dealstage: "closedlost", amount: "", closedate: "2024-07-01T00:00:00.000Z", closed_lost_reason: "Price" }, [lostBuyer])
        const personal = deal(account, { dealstage: "closedwon", amount: "9000" })
        const open = deal(account, { dealstage: "contractsent" })
        const wonCall = yield* insertCall(clientId, won.id)
        const lostCall = yield* insertCall(clientId, "cfo@hooli.test")
        const personalCall = yield* insertCall(clientId, personal.id)
        const openCall = yield* insertCall(clientId, open.id)
        const foreignCall = yield* insertCall(other.clientId, won.id)
        yield* call("PUT", `/v1/client-portal/calls/${personalCall}/outcome-truth`, { session, body: { outcome: "lost", reason: "the person knows better" } })

        const pass = yield* syncNow
        expect(pass.failures).toBe(0)
        const truth = (callId: string, s = session) => Effect.map(call("GET", `/v1/client-portal/calls/${callId}/outcome-truth`, { session: s }), (r) => r.body)
        expect(yield* truth(wonCall)).toMatchObject({
          outcome: "won",
          deal_value: 5000.5,
          currency: "EUR",
          closed_at: "2024-06-30T12:00:00.000Z",
          stage: "closedwon",
          reason: null,
          notes: `From crm-a deal ${won.id} (Initech)`,
          recorded_by: null
        })
        expect(yield* truth(lostCall)).toMatchObject({ outcome: "lost", deal_value: null, currency: null, reason: "Price", stage: "closedlost", recorded_by: null })
        expect(yield* truth(personalCall)).toMatchObject({ outcome: "lost", reason: "the person knows better", recorded_by: expect.stringMatching(/^usr_/) })
        expect(yield* truth(openCall)).toBeNull()
        expect(yield* truth(foreignCall, other.session)).toBeNull()
        const audit = yield* auditRows(clientId, "outcome_truth.synced")
        expect(audit.map((a) => [a.target_id, a.actor, a.actor_type, a.metadata])).toEqual(expect.arrayContaining([
          [wonCall, "system:crm-a", "system", { provider: "crm-a", deal_id: won.id, outcome: "won" }],
          [lostCall, "system:crm-a", "system", { provider: "crm-a", deal_id: lost.id, outcome: "lost" }]
        ]))
        expect(audit).toHaveLength(2)
        // The person's outcome went to its deal as a note; the filled ones did not.
        expect(account.notes.map((n) => n.dealIds)).toEqual([[personal.id]])

        // Read again: nothing changes, no new audit row; a deal that changes updates what the sync filled.
        yield* syncNow
        expect(yield* auditRows(clientId, "outcome_truth.synced")).toHaveLength(2)
        won.properties = { ...won.properties, dealstage: "closedlost", closed_lost_reason: "Churned", hs_lastmodifieddate: new Date(Date.now() + 1000).toISOString() }
        yield* syncNow
        expect(yield* truth(wonCall)).toMatchObject({ outcome: "lost", reason: "Churned", recorded_by: null })
        expect(yield* truth(personalCall)).toMatchObject({ outcome: "lost", reason: "the person knows better" })
        expect(yield* auditRows(clientId, "outcome_truth.synced")).toHaveLength(3)

        // A person's record replaces the sync's; the sync never writes over it again.
        yield* call("PUT", `/v1/client-portal/calls/${wonCall}/outcome-truth`, { session, body: { outcome: "won" } })
        won.properties = { ...won.properties, closed_lost_reason: "Churned again", hs_lastmodifieddate: new Date(Date.now() + 2000).toISOString() }
        yield* syncNow
        expect(yield* truth(wonCall)).toMatchObject({ outcome: "won", recorded_by: expect.stringMatching(/^usr_/) })
        expect(yield* leaks(token)).toBe(false)
      }))

    it.effect("without sync_outcomes nothing is read or written; a token revoked at HubSpot marks the connection error, the token in no row or log", () =>
      Effect.gen(function* () {
        const providers = yield* ProvidersTag
        const logs = yield* Logs
        const token = hubToken()
        const account = providers.hubspot(token)
        const { clientId, session } = yield* newTenant()
        yield* call("PUT", CRM_A, { session, body: { access_token: token, sync_outcomes: false } })
        const closed = deal(account, { dealstage: "closedwon" })
        const callId = yield* insertCall(clientId, closed.id)
        yield* syncNow
        expect((yield* call("GET", `/v1/client-portal/calls/${callId}/outcome-truth`, { session })).body).toBeNull()
        expect((yield* call("GET", CRM_A, { session })).body.last_sync_at).toBeNull()

        yield* call("PUT", CRM_A, { session, body: { access_token: token, sync_outcomes: true } })
        account.revoked = true
        const pass = yield* syncNow
        expect(pass.failures).toBeGreaterThanOrEqual(1)
        const crmA = (yield* call("GET", CRM_A, { session })).body
        expect(crmA).toMatchObject({ status: "error", last_sync_at: expect.any(String) })
        expect(crmA.last_error).toBe("crm-a refused the token (HTTP 401): the key was refused")
        expect((yield* call("GET", `${CRM}/status`, { session })).body.connections[0]).toMatchObject({ status: "error", last_error: crmA.last_error })
        expect(logs.some((line) => line.includes("crm-a sync failed"))).toBe(true)
        expect(yield* leaks(token, crmA)).toBe(false)

        // Saving a good token again clears the error.
        account.revoked = false
        expect((yield* call("PUT", CRM_A, { session, body: { access_token: token, sync_outcomes: true } })).body).toMatchObject({ status: "connected", last_error: null })
        yield* syncNow
        expect((yield* call("GET", `/v1/client-portal/calls/${callId}/outcome-truth`, { session })).body).toMatchObject({ outcome: "won" })
      }))
  })
})
