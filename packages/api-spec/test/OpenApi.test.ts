/**
 * The declaration holds every operation of the specification (its 114 operations, listed below),
 * and the generated OpenAPI document says what the spec says about their parameters and statuses.
 */
import { OpenApi } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { CallsightApi } from "../src/index.js"

/** The 114 method and path pairs of the spec, in its order (sections 4.1 to 4.10). */
const SPEC_OPERATIONS = [
  "GET /health",
  "GET /ready",
  "GET /metrics",
  "GET /health/db",
  "POST /v1/client-auth/login",
  "POST /v1/client-auth/signup",
  "POST /v1/client-auth/verify",
  "POST /v1/client-auth/logout",
  "GET /v1/client-auth/me",
  "GET /v1/client-portal/market-profile",
  "PUT /v1/client-portal/market-profile",
  "GET /v1/client-portal/lead-context-profile",
  "PUT /v1/client-portal/lead-context-profile",
  "GET /v1/client-portal/account-cockpit",
  "GET /v1/client-portal/plan-usage",
  "GET /v1/client-portal/onboarding-activation",
  "GET /v1/client-portal/operational-trust",
  "GET /v1/client-portal/customer-value",
  "GET /v1/client-portal/customer-roi-digest",
  "GET /v1/client-portal/customer-roi-review-pack",
  "GET /v1/client-portal/daily-brief",
  "POST /v1/client-portal/concierge/chat",
  "GET /v1/client-portal/calls/{call_id}/outcome-truth",
  "PUT /v1/client-portal/calls/{call_id}/outcome-truth",
  "GET /v1/client-portal/outcome-truth-backlog",
  "GET /v1/client-portal/recall/status",
  "POST /v1/client-portal/recall/activate",
  "POST /v1/client-portal/recall/deactivate",
  "GET /v1/client-portal/closers",
  "POST /v1/client-portal/closers",
  "PATCH /v1/client-portal/closers/{closer_id}",
  "POST /v1/client-portal/closers/{closer_id}/send-verification",
  "POST /v1/client-portal/closers/verify-email",
  "GET /v1/client-portal/events/recent",
  "GET /v1/client-portal/events",
  "GET /v1/client-portal/health-kpis",
  "GET /v1/client-portal/audit-logs",
  "POST /v1/client-portal/closers/{closer_id}/integrations/calendar/start",
  "DELETE /v1/client-portal/closers/{closer_id}/integrations/calendar",
  "POST /v1/client-portal/closers/{closer_id}/integrations/video/start",
  "DELETE /v1/client-portal/closers/{closer_id}/integrations/video",
  "GET /v1/client-portal/integrations/calendar/callback",
  "GET /v1/client-portal/integrations/video/callback",
  "GET /v1/client-portal/integrations/crm-a",
  "PUT /v1/client-portal/integrations/crm-a",
  "DELETE /v1/client-portal/integrations/crm-a",
  "GET /v1/client-portal/integrations/llm",
  "PUT /v1/client-portal/integrations/llm",
  "DELETE /v1/client-portal/integrations/llm/{provider}",
  "GET /v1/client-portal/crm/providers",
  "GET /v1/client-portal/crm/status",
  "POST /v1/client-portal/crm/connect",
  "DELETE /v1/client-portal/crm/disconnect/{provider}",
  "GET /v1/coaching/status",
  "POST /v1/coaching/welcome/complete",
  "POST /v1/coaching/oath/complete",
  "GET /v1/coaching/dashboard",
  "GET /v1/coaching/manual-audits",
  "POST /v1/coaching/manual-audits",
  "GET /v1/coaching/manual-audits/{audit_id}",
  "GET /v1/coaching/wiki/sections",
  "GET /v1/coaching/wiki/articles/{slug}",
  "POST /v1/coaching/wiki/articles/progress",
  "POST /v1/companion/messenger-a/webhook",
  "GET /v1/companion/messenger-b/webhook",
  "POST /v1/companion/messenger-b/webhook",
  "GET /v1/internal/admin/companion/status",
  "POST /v1/internal/admin/companion/connect-code",
  "POST /v1/internal/admin/companion/push",
  "GET /v1/internal/admin/status",
  "GET /v1/internal/admin/recall-alerts",
  "GET /v1/internal/admin/clients/{client_id}/plan-usage",
  "PATCH /v1/internal/admin/clients/{client_id}/usage-bonus",
  "GET /v1/internal/admin/pipeline-health",
  "GET /v1/internal/admin/doctor",
  "GET /v1/internal/admin/settings/runtime-flags",
  "PUT /v1/internal/admin/settings/runtime-flags/{client_id}",
  "GET /v1/internal/admin/market-intel/profiles",
  "GET /v1/internal/admin/market-intel/profiles/{client_id}",
  "PUT /v1/internal/admin/market-intel/profiles/{client_id}",
  "DELETE /v1/internal/admin/market-intel/profiles/{client_id}",
  "GET /v1/internal/admin/market-intel/overview",
  "GET /v1/internal/admin/market-intel/industries",
  "GET /v1/internal/admin/market-intel/industries/{industry_label}/icps/{icp_label}",
  "GET /v1/internal/admin/market-intel/lead-sources",
  "GET /v1/internal/admin/market-intel/outcome-truth",
  "GET /v1/internal/admin/market-intel/segment-truth-gap",
  "GET /v1/internal/admin/market-intel/data-hygiene",
  "GET /v1/internal/admin/market-intel/truth-adoption",
  "GET /v1/internal/admin/market-intel/clients/{client_id}/renewal-expansion-radar",
  "GET /v1/internal/admin/market-intel/truth-backlog-priority",
  "PUT /v1/internal/admin/market-intel/calls/{call_id}/hygiene",
  "POST /v1/internal/admin/market-intel/rebuild",
  "POST /v1/workspace/session",
  "GET /v1/workspace/state",
  "GET /v1/workspace/search",
  "POST /v1/workspace/chat",
  "POST /v1/workspace/actions/run",
  "POST /v1/workspace/channel/send",
  "GET /v1/workspace/meeting-prep-brief",
  "GET /v1/workspace/deal-intelligence",
  "GET /v1/workspace/team-health",
  "GET /v1/workspace/calls/{call_id}",
  "GET /v1/internal/assistant/account-overview",
  "GET /v1/internal/assistant/onboarding-status",
  "GET /v1/internal/assistant/operational-trust",
  "GET /v1/internal/assistant/call-queue",
  "GET /v1/internal/assistant/calls/{call_id}",
  "GET /v1/internal/assistant/review-pack",
  "GET /v1/internal/assistant/roi-digest",
  "GET /v1/internal/assistant/team-health",
  "POST /v1/teams/audio",
  "GET /analysis/{call_id}",
  "GET /reports/{call_id}/html",] as const

const EXTENSIONS = [
  "POST /v1/internal/admin/clients",
  "POST /v1/internal/admin/clients/{client_id}/credits",
  "GET /v1/client-portal/api-keys",
  "POST /v1/client-portal/api-keys",
  "DELETE /v1/client-portal/api-keys/{key_id}",
  "GET /v1/teams/calls",
  "GET /v1/teams/calls/{call_id}",
  "DELETE /v1/teams/calls/{call_id}",
  "GET /v1/client-portal/calls/{call_id}/report",
  // a call's recording for the web app's player
  "GET /v1/client-portal/calls/{call_id}/audio",
  // the recording bot's meetings and its provider's webhook (Recorder.ts)
  "GET /v1/client-portal/recall/meetings",
  "POST /v1/client-portal/recall/meetings",
  "POST /v1/recorder/webhook",
  // completion webhooks (Webhooks.ts)
  "GET /v1/teams/webhooks",
  "POST /v1/teams/webhooks",
  "DELETE /v1/teams/webhooks/{webhook_id}",
  "GET /v1/teams/webhooks/{webhook_id}/deliveries",
  "POST /v1/teams/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver",
  // a tenant's members and invitations (Members.ts, issue 36)
  "GET /v1/client-portal/members",
  "POST /v1/client-portal/members/invitations",
  "POST /v1/client-portal/members/invitations/{invitation_id}/resend",
  "DELETE /v1/client-portal/members/invitations/{invitation_id}",
  "PATCH /v1/client-portal/members/{user_id}",
  "DELETE /v1/client-portal/members/{user_id}",
  "GET /v1/internal/admin/clients/{client_id}/members",
  "POST /v1/internal/admin/clients/{client_id}/members/invitations",
  "POST /v1/internal/admin/clients/{client_id}/members/invitations/{invitation_id}/resend",
  "DELETE /v1/internal/admin/clients/{client_id}/members/invitations/{invitation_id}",
  "PATCH /v1/internal/admin/clients/{client_id}/members/{user_id}",
  "DELETE /v1/internal/admin/clients/{client_id}/members/{user_id}",
  // paying (Payments.ts, issue 36)
  "GET /v1/client-portal/checkout/{product}",
  "POST /v1/payments/webhook",
  // the account's data (Account.ts, issue 36)
  "GET /v1/client-portal/retention",
  "PUT /v1/client-portal/retention",
  "GET /v1/client-portal/export",
  "POST /v1/client-portal/close",
  "DELETE /v1/client-portal/close",
  // trackers (Trackers.ts, issue 38)
  "GET /v1/client-portal/trackers",
  "POST /v1/client-portal/trackers",
  "PUT /v1/client-portal/trackers/{tracker_id}",
  "DELETE /v1/client-portal/trackers/{tracker_id}",
  "GET /v1/client-portal/trackers/report",
  // the Team Closing Audit (ClosingAudits.ts, issue 38)
  "POST /v1/client-portal/closing-audits",
  "GET /v1/client-portal/closing-audits",
  "GET /v1/client-portal/closing-audits/{audit_id}",
  "GET /v1/client-portal/closing-audits/{audit_id}/report",
  "GET /v1/client-portal/closing-audits/{audit_id}/report.pdf",
  // trends (Trends.ts, issue 38), and its doors in the assistant interface and market intelligence
  "GET /v1/client-portal/trends",
  "GET /v1/internal/assistant/trends",
  "GET /v1/internal/admin/market-intel/trends"
] as const

const spec = OpenApi.fromApi(CallsightApi) as any

const operationsOf = (document: any): Array<string> =>
  Object.entries(document.paths).flatMap(([path, item]: [string, any]) =>
    Object.keys(item)
      .filter((key) => ["get", "post", "put", "patch", "delete"].includes(key))
      .map((method) => `${method.toUpperCase()} ${path}`)
  )

const operation = (key: string) => {
  const [method, path] = key.split(" ")
  return spec.paths[path][method.toLowerCase()]
}
const param = (key: string, name: string) => operation(key).parameters.find((p: any) => p.name === name)

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1.0, interface version 1.0.0", () => {
    expect(spec.openapi).toBe("3.1.0")
    expect(spec.info.version).toBe("1.0.0")
  })

  it("holds the 114 operations of the spec and the extensions, and nothing else", () => {
    expect(SPEC_OPERATIONS).toHaveLength(114)
    expect(new Set(SPEC_OPERATIONS).size).toBe(114)
    expect(operationsOf(spec).sort()).toEqual([...SPEC_OPERATIONS, ...EXTENSIONS].sort())
  })

  it("declares the bounds and defaults of the spec's limits", () => {
    expect(param("GET /v1/internal/admin/recall-alerts", "limit").schema).toMatchObject({
      type: "integer",
      minimum: 1,
      maximum: 200,
      default: 50
    })
    for (const key of [
      "GET /v1/internal/admin/market-intel/lead-sources",
      "GET /v1/internal/admin/market-intel/outcome-truth",
      "GET /v1/internal/admin/market-intel/data-hygiene",
      "GET /v1/internal/admin/market-intel/industries/{industry_label}/icps/{icp_label}"
    ]) {
      expect(param(key, "periods").schema).toMatchObject({ type: "integer", minimum: 1, maximum: 26, default: 8 })
      expect(param(key, "period_type").required).toBe(false)
      expect(param(key, "period_start").required).toBe(false)
    }
    expect(param("GET /v1/internal/admin/market-intel/overview", "periods")).toBeUndefined()
    expect(param("GET /v1/internal/admin/market-intel/data-hygiene", "include_test_data")).toBeUndefined()
    expect(param("GET /v1/internal/admin/market-intel/truth-adoption", "include_test_data").schema).toMatchObject({
      type: "boolean",
      default: false
    })
    expect(param("GET /v1/workspace/search", "q")).toMatchObject({ required: true, schema: { minLength: 2 } })
    expect(param("GET /v1/client-portal/outcome-truth-backlog", "limit").schema).toMatchObject({ default: 25 })
    expect(param("GET /v1/internal/assistant/call-queue", "limit").schema).toMatchObject({ default: 10 })
  })

  it("makes code and state required on the OAuth callbacks", () => {
    for (const key of ["GET /v1/client-portal/integrations/calendar/callback", "GET /v1/client-portal/integrations/video/callback"]) {
      expect(param(key, "code")).toMatchObject({ in: "query", required: true })
      expect(param(key, "state")).toMatchObject({ in: "query", required: true })
    }
  })

  it("declares the messenger headers and hub parameters as optional", () => {
    expect(param("POST /v1/companion/messenger-a/webhook", "x-messenger-a-bot-api-secret-token")).toMatchObject({
      in: "header",
      required: false
    })
    expect(param("POST /v1/companion/messenger-b/webhook", "x-hub-signature-256")).toMatchObject({
      in: "header",
      required: false
    })
    for (const name of ["hub.mode", "hub.verify_token", "hub.challenge"]) {
      expect(param("GET /v1/companion/messenger-b/webhook", name)).toMatchObject({ in: "query", required: false })
    }
  })

  it("requires X-API-Key on every admin, assistant and audio operation", () => {
    const keyed = operationsOf(spec).filter((key) =>
      /^\w+ \/v1\/internal\/(admin|assistant)\/|^POST \/v1\/teams\/audio$|^GET \/(analysis|reports)\//.test(key)
    )
    expect(keyed.length).toBe(27 + 2 + 8 + 3 + 6 + 2) // + the members operations for staff (issue 36), the trends of the assistant and market intelligence (issue 38)
    // the upload, the status and the report also take the portal's session alone (a browser signed in): their key is optional
    const OR_SESSION = ["POST /v1/teams/audio", "GET /analysis/{call_id}", "GET /reports/{call_id}/html"]
    for (const key of keyed) {
      expect(param(key, "x-api-key"), key).toMatchObject({ in: "header", required: !OR_SESSION.includes(key) })
    }
    for (const key of [...OR_SESSION, "GET /v1/teams/calls", "GET /v1/client-portal/calls/{call_id}/audio"]) {
      expect(operation(key).security, key).toEqual([{ tenantKey: [] }, { session: [] }])
      expect(param(key, "x-api-key"), key).toMatchObject({ in: "header", required: false })
    }
    expect(operation("GET /v1/teams/calls/{call_id}").security).toEqual([{ tenantKey: [] }])
  })

  it("declares the list's outcome and call type filters, and the audio's ranges, types and statuses", () => {
    expect(param("GET /v1/teams/calls", "outcome")).toMatchObject({
      in: "query",
      required: false,
      schema: { enum: ["won", "lost", "no_decision", "open", "none"] }
    })
    expect(param("GET /v1/teams/calls", "call_type")).toMatchObject({ in: "query", required: false })
    const item = spec.components.schemas.CallListItem
    expect(item.required).toEqual(expect.arrayContaining(["outcome", "call_type"]))
    const audio = operation("GET /v1/client-portal/calls/{call_id}/audio")
    expect(param("GET /v1/client-portal/calls/{call_id}/audio", "range")).toMatchObject({ in: "header", required: false })
    expect(Object.keys(audio.responses["200"].content)).toEqual(["audio/*"])
    expect(Object.keys(audio.responses["206"].content)).toEqual(["audio/*"])
    for (const status of ["401", "404", "410", "416"]) expect(audio.responses[status], status).toBeDefined()
  })

  it("declares the credentials as security schemes, each saying that a missing one is 401", () => {
    const schemes = spec.components.securitySchemes
    expect(Object.keys(schemes).sort()).toEqual(["adminKey", "assistantKey", "session", "tenantKey"])
    for (const name of ["adminKey", "assistantKey", "tenantKey"]) {
      expect(schemes[name], name).toMatchObject({ type: "apiKey", in: "header", name: "X-API-Key" })
      expect(schemes[name].description, name).toMatch(/Without it, or with an empty one: 401/)
    }
    expect(schemes.session).toMatchObject({ type: "apiKey", in: "cookie", name: "callsight_session" })
    expect(schemes.session.description).toMatch(/\/sign-in.*401/s)
    // every operation with a credential declares its 401
    for (const key of operationsOf(spec)) {
      if ((operation(key).security ?? []).length > 0) expect(operation(key).responses["401"], key).toBeDefined()
    }
  })

  it("answers signup with 201 and the upload with 202", () => {
    expect(operation("POST /v1/client-auth/signup").responses["201"]).toBeDefined()
    expect(operation("POST /v1/teams/audio").responses["202"]).toBeDefined()
    expect(operation("GET /reports/{call_id}/html").responses["200"].content["text/html"]).toBeDefined()
  })

  it("declares the closing audits: a tenant key or a session, 201 on create, the report as HTML and PDF (503 without a PDF engine)", () => {
    const AUDITS = "/v1/client-portal/closing-audits"
    for (const key of [`POST ${AUDITS}`, `GET ${AUDITS}`, `GET ${AUDITS}/{audit_id}`, `GET ${AUDITS}/{audit_id}/report`, `GET ${AUDITS}/{audit_id}/report.pdf`]) {
      expect(operation(key).security, key).toEqual([{ tenantKey: [] }, { session: [] }])
    }
    const create = operation(`POST ${AUDITS}`)
    expect(create.responses["201"]).toBeDefined()
    for (const status of ["402", "404", "409", "422"]) expect(create.responses[status], status).toBeDefined()
    expect(param(`POST ${AUDITS}`, "idempotency-key")).toMatchObject({ in: "header", required: false })
    expect(operation(`GET ${AUDITS}/{audit_id}/report`).responses["200"].content["text/html"]).toBeDefined()
    const pdf = operation(`GET ${AUDITS}/{audit_id}/report.pdf`)
    expect(Object.keys(pdf.responses["200"].content)).toEqual(["application/pdf"])
    expect(pdf.responses["503"]).toBeDefined()
  })

  it("keeps the spec's names for the named request bodies", () => {
    const names = [
      "LoginRequest", "SignupRequest", "VerifyRequest", "MarketProfileRequest", "LeadContextProfileRequest",
      "ConciergeRequest", "OutcomeTruthRequest", "ActivateRecallRequest", "AddCloserRequest",
      "UpdateCloserStatusRequest", "VerifyEmailRequest", "UpsertCrmARequest", "UpsertLlmRequest", "ConnectCrmRequest",
      "OathCompleteRequest", "ManualAuditRequest", "ArticleProgressRequest", "CompanionConnectCodeRequest",
      "CompanionPushRequest", "UsageBonusRequest", "WorkspaceChatRequest", "WorkspaceActionRequest",
      "WorkspaceChannelRequest"
    ]
    expect(names).toHaveLength(23)
    for (const name of names) expect(spec.components.schemas[name], name).toBeDefined()
  })

  it("answers validation failures with 422 everywhere and never the platform's 400", () => {
    for (const key of operationsOf(spec)) {
      expect(operation(key).responses["400"], key).toBeUndefined()
      expect(operation(key).responses["422"], key).toBeDefined()
    }
  })
})
