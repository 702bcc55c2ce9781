/**
 * End to end: `callsight mcp` (the built CLI, spawned by the SDK's own `StdioClientTransport`)
 * against the real `callsight serve` and its workers: the tools over stdio, a fixture uploaded by
 * path and analysed, `get_call` equal to `GET /v1/teams/calls/{id}`, the list, search and outcome
 * (forwarded to the service's `POST /mcp`), and another tenant's key seeing none of it.
 */
import { beforeAll, describe, expect, it } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { join } from "node:path"
import { FIXTURES } from "./utils/Audio.js"
import { CLI_BIN, ROOT, runCli, sharedServer } from "./utils/Server.js"

let server: { readonly url: string; readonly adminKey: string }
const tenants: Array<{ client_id: string; key_id: string; api_key: string }> = []

beforeAll(async () => {
  server = await sharedServer()
  for (const name of ["MCP A", "MCP B"]) {
    const created = await runCli(["admin", "create-tenant", "--name", name, "--credits", "5", "--json"], {
      CALLSIGHT_URL: server.url,
      CALLSIGHT_ADMIN_KEY: server.adminKey
    })
    expect(created.code, created.stderr).toBe(0)
    tenants.push(JSON.parse(created.stdout))
  }
})

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** `callsight mcp` with `apiKey`, connected through the SDK's stdio client; the process is killed by its PID at the end. */
const withStdio = async <A>(apiKey: string, use: (client: Client) => Promise<A>): Promise<A> => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_BIN, "mcp"],
    cwd: ROOT,
    env: { ...getDefaultEnvironment(), NO_COLOR: "1", CALLSIGHT_URL: server.url, CALLSIGHT_API_KEY: apiKey },
    stderr: "pipe"
  })
  let stderr = ""
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
  const client = new Client({ name: "callsight-e2e", version: "0.0.0" })
  let pid: number | null = null
  try {
    await client.connect(transport, { timeout: 30_000 })
    pid = transport.pid
    await client.listTools(undefined, { timeout: 20_000 }) // caches the output schemas: results are validated
    return await use(client)
  } catch (e) {
    throw new Error(`${e instanceof Error ? e.message : String(e)}\nstderr of callsight mcp:\n${stderr}`)
  } finally {
    pid ??= transport.pid
    await client.close().catch(() => undefined)
    if (pid !== null && alive(pid)) process.kill(pid, "SIGKILL")
  }
}

const call = (client: Client, name: string, args: Record<string, unknown>, timeoutMs = 30_000) =>
  client.callTool({ name, arguments: args }, undefined, { timeout: timeoutMs }) as Promise<CallToolResult>

const structured = (result: CallToolResult): any => {
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false)
  return result.structuredContent
}

const errorText = (result: CallToolResult): string => {
  expect(result.isError).toBe(true)
  return (result.content[0] as { text: string }).text
}

describe("callsight mcp (stdio)", () => {
  it("exits 2 without an API key", async () => {
    const result = await runCli(["mcp"], { CALLSIGHT_URL: server.url })
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/API key/)
    expect(result.stdout).toBe("")
  })

  it("lists the tools; upload_audio takes a path", async () => {
    const tools = await withStdio(tenants[0]!.api_key, async (client) => (await client.listTools(undefined, { timeout: 20_000 })).tools)
    expect(tools.map((t) => t.name)).toEqual([
      "upload_audio",
      "get_analysis",
      "wait_for_analysis",
      "get_call",
      "list_calls",
      "search_calls",
      "tracker_report",
      "trends",
      "create_closing_audit",
      "get_closing_audit",
      "record_outcome",
      "get_report_url"
    ])
    for (const t of tools) {
      expect(t.inputSchema.type, t.name).toBe("object")
      expect(t.outputSchema?.type, t.name).toBe("object")
    }
    const upload = tools.find((t) => t.name === "upload_audio")!
    expect(upload.inputSchema.required).toEqual(["path"])
    expect(Object.keys(upload.inputSchema.properties ?? {})).toEqual(["path", "external_call_id", "closer_email", "call_type", "rep_channel", "account", "deal_id", "meeting_at", "attendees", "idempotency_key"])
  })

  it("uploads a fixture by path, waits, reads as REST does, records the outcome; another key sees nothing", async () => {
    const [a, b] = [tenants[0]!, tenants[1]!]
    const callId = await withStdio(a.api_key, async (client) => {
      const accepted = structured(
        await call(client, "upload_audio", { path: join(FIXTURES, "discovery-short.mp3"), external_call_id: "stdio-7" })
      )
      expect(accepted).toMatchObject({ status: "queued", external_call_id: "stdio-7" })
      let status: any
      for (let round = 0; round < 5 && !(status?.status === "completed" || status?.status === "failed"); round++) {
        status = structured(await call(client, "wait_for_analysis", { call_id: accepted.call_id, timeout_seconds: 45 }, 55_000))
      }
      expect(status).toMatchObject({ call_id: accepted.call_id, status: "completed", credits_charged: 1 })

      const analysis = structured(await call(client, "get_call", { call_id: accepted.call_id }))
      const rest = await fetch(`${server.url}/v1/teams/calls/${accepted.call_id}`, {
        headers: { "x-api-key": a.api_key },
        signal: AbortSignal.timeout(20_000)
      })
      expect(rest.status).toBe(200)
      expect(analysis).toEqual(await rest.json())

      const page = structured(await call(client, "list_calls", {}))
      expect(page.calls.map((c: { call_id: string }) => c.call_id)).toEqual([accepted.call_id])

      // forwarded to the service's POST /mcp
      const outcome = structured(
        await call(client, "record_outcome", { call_id: accepted.call_id, outcome: "lost", reason: "budget moved to next year" })
      )
      expect(outcome).toMatchObject({ call_id: accepted.call_id, outcome: "lost", recorded_by: a.key_id })
      const found = structured(await call(client, "search_calls", { q: "stdio-7", limit: 5 }))
      expect(found.results.some((r: { call_id: string | null }) => r.call_id === accepted.call_id)).toBe(true)
      // the trackers' report, forwarded too: the tenant has no tracker, so nothing is counted
      expect(structured(await call(client, "tracker_report", { period: "day", quotes: 2, limit: 5 }))).toMatchObject({ period: "day", trackers: [], calls: [], next_cursor: null })
      // the closing audit's tools, over the REST operations with the key: 5 credits do not pay for one (10), an unknown audit is 404
      expect(errorText(await call(client, "create_closing_audit", { call_ids: [accepted.call_id] }))).toMatch(/PaymentRequired.*costs 10 credits/)
      expect(errorText(await call(client, "get_closing_audit", { audit_id: "cla_unknown" }))).toMatch(/NotFound/)

      const links = structured(await call(client, "get_report_url", { call_id: accepted.call_id }))
      expect(links).toMatchObject({ ready: true, report_url: `${server.url}/reports/${accepted.call_id}/html` })
      const report = await fetch(links.report_url, { headers: { "x-api-key": a.api_key }, signal: AbortSignal.timeout(20_000) })
      expect(report.status).toBe(200)
      await report.text()

      expect(errorText(await call(client, "upload_audio", { path: join(FIXTURES, "no-such-file.mp3") }))).toMatch(/no such file/)
      return accepted.call_id as string
    })

    await withStdio(b.api_key, async (client) => {
      for (const name of ["get_call", "get_analysis", "get_report_url"]) {
        expect(errorText(await call(client, name, { call_id: callId })), name).toMatch(/NotFound/)
      }
      expect(errorText(await call(client, "record_outcome", { call_id: callId, outcome: "won" }))).toMatch(/NotFound/)
      expect(structured(await call(client, "list_calls", {})).calls).toEqual([])
      expect(structured(await call(client, "search_calls", { q: "stdio-7" })).total).toBe(0)
    })
  }, 420_000)
})
