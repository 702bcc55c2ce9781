/**
 * `callsight mcp [--url URL] [--api-key K]`: the MCP tools of the server's mcp/Tools.ts over stdio,
 * for desktop agents that start the command themselves (stdout carries only JSON-RPC; anything
 * else goes to stderr). The tools run over the typed client pointed at the configured service
 * with the tenant key (`--url`/`CALLSIGHT_URL`, `--api-key`/`CALLSIGHT_API_KEY`, as every audio
 * command); `upload_audio` takes a path on this machine.
 *
 * `search_calls` and `record_outcome` have no REST operation a tenant key can reach (workspace
 * search and outcome truth need a portal session), so here they call the same two tools of the
 * service's `POST /mcp` with the same key (one connection, opened on first use): the service runs
 * them for the key's tenant. The process ends when stdin closes, or on SIGINT/SIGTERM.
 */
import { VERSION } from "@callsight/api-spec"
import type { McpToolError } from "@callsight/server/mcp-tools"
import { Command } from "@effect/cli"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { Effect, Logger, Redacted, Schema } from "effect"
import { AudioClientApi, ClosingAuditsClientApi } from "./Apis.js"
import { apiKeyOption, baseUrl, clientOf, tenantKey, urlOption } from "./Connection.js"

/** How long a forwarded tool call may take. */
const REMOTE_TIMEOUT_MS = 60_000

/**
 * The service's `POST /mcp`, connected on first use with the tenant key. Its failures are the
 * server's `McpToolError`, which the tools answer as a tool error.
 */
const remoteTools = (base: string, key: string, ToolError: typeof McpToolError) => {
  let connected: Promise<Client> | undefined
  const connect = () =>
    (connected ??= (async () => {
      // loaded here, as the server is in `mcp`: the other commands start without them
      const [{ Client }, { StreamableHTTPClientTransport }] = await Promise.all([
        import("@modelcontextprotocol/sdk/client/index.js"),
        import("@modelcontextprotocol/sdk/client/streamableHttp.js")
      ])
      const client = new Client({ name: "callsight-cli", version: VERSION })
      const transport = new StreamableHTTPClientTransport(new URL("mcp", `${base}/`), {
        requestInit: { headers: { "x-api-key": key } }
      })
      await client.connect(transport, { timeout: REMOTE_TIMEOUT_MS })
      return client
    })().catch((e) => {
      connected = undefined
      throw e
    }))

  const call = <A, I>(name: string, args: Record<string, unknown>, output: Schema.Schema<A, I>) =>
    Effect.gen(function* () {
      const result = yield* Effect.tryPromise({
        try: async (signal) =>
          (await connect()).callTool({ name, arguments: args }, undefined, { timeout: REMOTE_TIMEOUT_MS, signal }) as Promise<
            CallToolResult
          >,
        catch: (e) =>
          new ToolError({ message: `the service's ${base}/mcp did not answer ${name}: ${e instanceof Error ? e.message : String(e)}` })
      })
      if (result.isError === true) {
        const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n")
        return yield* new ToolError({ message: text || `${name} failed` })
      }
      return yield* Schema.decodeUnknown(output)(result.structuredContent)
    })

  const close = Effect.promise(async () => {
    if (connected !== undefined) await (await connected.catch(() => undefined))?.close().catch(() => undefined)
  })
  return { call, close }
}

export const mcp = Command.make("mcp", { url: urlOption, apiKey: apiKeyOption }, (args) =>
  Effect.gen(function* () {
    // a usage error without a key or with a bad URL
    const apiKey = yield* tenantKey(args.apiKey)
    const base = yield* baseUrl(args.url)
    // `fetch`: upload_audio streams a file, which the service may answer before it is all sent (Connection.ts)
    const client = yield* clientOf(AudioClientApi, { baseUrl: base, apiKey }, "fetch")
    const audits = yield* clientOf(ClosingAuditsClientApi, { baseUrl: base, apiKey })
    // the tools (the server's mcp/Tools.ts entry) and the declarations of the forwarded ones, loaded
    // here: the other commands start without them
    const [{ OutcomeTruth, OutcomeTruthRequest, SearchResults, TrackerReport, Trends }, { makeMcpServer, McpToolError }] = yield* Effect
      .promise(() => Promise.all([import("./Whole.js"), import("@callsight/server/mcp-tools")]))
    const key = Redacted.value(apiKey)
    const remote = remoteTools(base, key, McpToolError)
    // a tool's defect is logged to stderr: stdout is the protocol's
    const runtime = yield* Effect.runtime<never>().pipe(
      Effect.provide(Logger.replace(Logger.defaultLogger, Logger.withConsoleError(Logger.logfmtLogger)))
    )
    const server = makeMcpServer({
      client,
      reportBaseUrl: base,
      audio: { _tag: "path" },
      searchCalls: (params) => remote.call("search_calls", { ...params }, SearchResults),
      trackerReport: (params) => remote.call("tracker_report", { ...params }, TrackerReport),
      trends: (params) => remote.call("trends", { ...params }, Trends),
      closingAudits: {
        create: (request) => audits.closingAudits.createClosingAudit({ headers: {}, payload: request }),
        get: (auditId) => audits.closingAudits.getClosingAudit({ path: { audit_id: auditId } })
      },
      recordOutcome: (callId, request) =>
        Effect.flatMap(Schema.encode(OutcomeTruthRequest)(request), (body) =>
          remote.call("record_outcome", { call_id: callId, ...body }, OutcomeTruth)),
      runtime
    }, { version: VERSION })

    yield* Effect.acquireRelease(
      Effect.promise(async () => {
        const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js")
        await server.connect(new StdioServerTransport())
      }),
      () => Effect.zipRight(remote.close, Effect.promise(() => server.close().catch(() => undefined)))
    )
    // until the agent closes stdin (or a signal interrupts)
    yield* Effect.async<void>((resume) => {
      const done = () => resume(Effect.void)
      process.stdin.once("end", done)
      process.stdin.once("close", done)
      return Effect.sync(() => {
        process.stdin.off("end", done)
        process.stdin.off("close", done)
      })
    })
  }).pipe(Effect.scoped)).pipe(
  Command.withDescription(
    "An MCP server on stdio for desktop agents: upload, wait for, read, list, search and record the outcome of calls " +
      "with the tenant key (--api-key or CALLSIGHT_API_KEY) against the service (--url or CALLSIGHT_URL)"
  )
)
