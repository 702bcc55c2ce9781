/** Requests of the audio tests: a tenant with credits, uploads, reads, and waiting for an analysis to end. */
import { CallsightApi, CreateClientRequest } from "@callsight/api-spec"
import { HttpApiClient, HttpClient, HttpClientRequest, type HttpClientResponse } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { ADMIN_KEY } from "./TestServer.js"

export const admin = { "x-api-key": ADMIN_KEY }

export const createTenant = (credits: number, plan: "trial" | "starter" | "growth" | "scale" = "growth") =>
  Effect.flatMap(HttpApiClient.make(CallsightApi), (api) =>
    api.extensions.createClient({ headers: admin, payload: CreateClientRequest.make({ company_name: "Acme", credits, plan }) })
  )

/** The tenant's credit balance, read from the ledger. */
export const balanceOf = (clientId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ balance: number }>`SELECT COALESCE(SUM(delta), 0)::int AS balance FROM credit_ledger WHERE client_id = ${clientId}`
  ).pipe(Effect.map((rows) => rows[0].balance))

export interface UploadOptions {
  readonly name?: string
  readonly externalCallId?: string
  readonly closerEmail?: string
  readonly idempotencyKey?: string
  readonly field?: string
}

export const upload = (apiKey: string, bytes: Uint8Array, options: UploadOptions = {}) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const form = new FormData()
    form.append(options.field ?? "audio", new Blob([bytes]), options.name ?? "call.bin")
    if (options.externalCallId !== undefined) form.append("external_call_id", options.externalCallId)
    if (options.closerEmail !== undefined) form.append("closer_email", options.closerEmail)
    const headers: Record<string, string> = { "x-api-key": apiKey }
    if (options.idempotencyKey !== undefined) headers["idempotency-key"] = options.idempotencyKey
    const response = yield* client.execute(
      HttpClientRequest.post("/v1/teams/audio").pipe(HttpClientRequest.setHeaders(headers), HttpClientRequest.bodyFormData(form))
    )
    return { status: response.status, body: (yield* response.json) as any }
  })

export const get = (apiKey: string, path: string) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const response: HttpClientResponse.HttpClientResponse = yield* client.execute(
      HttpClientRequest.get(path).pipe(HttpClientRequest.setHeader("x-api-key", apiKey))
    )
    const text = yield* response.text
    const isJson = (response.headers["content-type"] ?? "").includes("json")
    return { status: response.status, body: (isJson ? JSON.parse(text) : text) as any, headers: response.headers }
  })

/** Polls the status until the call is completed or failed. */
export const settle = (apiKey: string, callId: string) =>
  Effect.gen(function* () {
    for (;;) {
      const { body } = yield* get(apiKey, `/analysis/${callId}`)
      if (body.status === "completed" || body.status === "failed") return body
      yield* Effect.sleep("200 millis")
    }
  }).pipe(Effect.timeoutFail({ duration: "90 seconds", onTimeout: () => new Error(`call ${callId} did not settle`) }))

/** Sets the tenant's runtime flags through the admin API. */
export const setFlags = (clientId: string, flags: Record<string, unknown>) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.execute(
      HttpClientRequest.put(`/v1/internal/admin/settings/runtime-flags/${clientId}`).pipe(
        HttpClientRequest.setHeaders(admin),
        HttpClientRequest.bodyUnsafeJson(flags)
      )
    )
    expect(response.status).toBe(200)
  })
