/**
 * The MCP tools of Callsight (Model Context Protocol, `@modelcontextprotocol/sdk`), defined once
 * for both doors: `callsight mcp` (stdio, packages/cli/src/Mcp.ts) and `POST /mcp` (Streamable
 * HTTP, ./Http.ts).
 *
 * Design. Every tool runs over the typed client of `@callsight/client` (`CallsightClientService`,
 * derived from the declaration) presenting the caller's tenant key, so the tools answer exactly
 * what the REST operations answer, with the same validation, errors and tenant isolation (another
 * tenant's call is the API's 404, a tool error here). `callsight mcp` points the client at the
 * configured server; `POST /mcp` points it at the server itself (its own listening address) with
 * the caller's key forwarded. Two tools have no operation a tenant key can reach today, because
 * `GET /v1/workspace/search` and `PUT /v1/client-portal/calls/{id}/outcome-truth` need a portal
 * session: `search_calls` and `record_outcome` go through the backend's `searchCalls` and
 * `recordOutcome`, which `POST /mcp` implements with the services themselves (views/Search.ts and
 * the floor's `OutcomeRecords`, for the key's tenant) and `callsight mcp` by calling those two
 * tools of the server's `POST /mcp` with the same key.
 *
 * Schemas. Inputs and outputs are the declaration's schemas (api-spec), turned into JSON Schema with
 * effect's `JSONSchema.make`; the same schema decodes the arguments. Query parameters (`list_calls`,
 * `search_calls`) are decoded through the operation's own URL-parameter schema, their numbers
 * given as the query string would carry them. Only what the declaration has no schema for is
 * written here: the file of `upload_audio` (a local path on stdio; a URL or base64 content over
 * HTTP), the wait's time limit, and the report links.
 *
 * The SDK's high-level `McpServer` takes zod schemas only; with JSON Schemas from effect the
 * low-level `Server` (its `tools/list` and `tools/call` handlers) is the SDK's way.
 */
import {
  AnalysisStatus,
  AnalysisStatusResponse,
  AudioUploadForm,
  CallAnalysis,
  CallId,
  CallIdPath,
  CallsightApi,
  ClosingAudit,
  ClosingAuditId,
  CreateClosingAuditRequest,
  OutcomeTruth,
  OutcomeTruthRequest,
  SearchParams,
  SearchResults,
  Text,
  TrackerReport,
  TrackerReportParams,
  Trends,
  TrendsParams,
  UploadAccepted,
  UploadHeaders
} from "@callsight/api-spec"
import { type CallsightAudioMethods, type ListCallsOptions, toCallsightError, type WaitTimeout } from "@callsight/client"
import type { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import {
  type CallToolResult,
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type Tool
} from "@modelcontextprotocol/sdk/types.js"
import { Cause, Data, Effect, Exit, JSONSchema, Option, ParseResult, Runtime, Schema } from "effect"
import { type Dispatcher, fetch } from "undici"
import type { UrlRefusal } from "../lib/Outbound.js"

// ---------------------------------------------------------------------------------------------
// What the tools run on
// ---------------------------------------------------------------------------------------------

/** A tool's failure, shown to the agent as the tool result's text (`isError: true`). */
export class McpToolError extends Data.TaggedError("McpToolError")<{ readonly message: string }> {}

/** Limits of `upload_audio` over HTTP: the downloaded or decoded file. */
export interface RemoteAudioLimits {
  /** The largest file accepted, in bytes. */
  readonly maxBytes: number
  /** The whole download, redirects included. */
  readonly timeoutMs: number
  /** The outbound guard every URL and redirect passes, and the dispatcher that connects only where it allows. */
  readonly outbound: {
    readonly check: (url: string) => Effect.Effect<URL, UrlRefusal>
    readonly dispatcher: Dispatcher
  }
}

export interface McpBackend {
  /** The typed client's audio and calls helpers, with the caller's tenant key. */
  readonly client: CallsightAudioMethods
  /** Where report links point (the public base URL of the service). */
  readonly reportBaseUrl: string
  /**
   * What `upload_audio` takes: `"path"`, a file of the machine the tools run on (stdio);
   * `"remote"`, a URL or base64 content (HTTP, where the caller's files are out of reach).
   */
  readonly audio: { readonly _tag: "path" } | { readonly _tag: "remote"; readonly limits: RemoteAudioLimits }
  /** Workspace search over the key's tenant. */
  readonly searchCalls: (
    params: typeof SearchParams.Type
  ) => Effect.Effect<typeof SearchResults.Type, unknown>
  /** The trackers' report over the key's tenant (the whole team). */
  readonly trackerReport: (
    params: typeof TrackerReportParams.Type
  ) => Effect.Effect<typeof TrackerReport.Type, unknown>
  /** The trends over the key's tenant (the whole team; views/Trends.ts). */
  readonly trends: (params: typeof TrendsParams.Type) => Effect.Effect<typeof Trends.Type, unknown>
  /** The Team Closing Audit over the key's tenant (the `closingAudits` operations, with the key): make one, read one. */
  readonly closingAudits: {
    readonly create: (request: CreateClosingAuditRequest) => Effect.Effect<ClosingAudit, unknown>
    readonly get: (auditId: ClosingAuditId) => Effect.Effect<ClosingAudit, unknown>
  }
  /** Records (replaces) the outcome truth of one of the key's tenant's calls. */
  readonly recordOutcome: (
    callId: CallId,
    request: OutcomeTruthRequest
  ) => Effect.Effect<typeof OutcomeTruth.Type, unknown>
  /** Runs the tools (the server's runtime, for its logger); the default runtime otherwise. */
  readonly runtime?: Runtime.Runtime<never> | undefined
}

// ---------------------------------------------------------------------------------------------
// Schemas: the declaration's, as JSON Schema
// ---------------------------------------------------------------------------------------------

type JsonObjectSchema = { readonly type: "object"; readonly [key: string]: unknown }

/**
 * The JSON Schema of an object schema, as MCP wants it: `type: "object"` at the top (effect puts a
 * schema with an identifier under `$defs` and refers to it; here it is inlined, `$defs` kept for the
 * nested ones), without `$schema`.
 */
export const objectJsonSchema = (schema: Schema.Schema.Any): JsonObjectSchema => {
  const { $schema: _, ...made } = JSONSchema.make(schema) as unknown as Record<string, unknown>
  const ref = typeof made.$ref === "string" ? /^#\/\$defs\/(.+)$/.exec(made.$ref)?.[1] : undefined
  const defs = made.$defs as Record<string, Record<string, unknown>> | undefined
  const root = ref !== undefined && defs?.[ref] !== undefined ? { ...defs[ref], $defs: defs } : made
  if (root.type !== "object") throw new Error(`not an object schema: ${JSON.stringify(root).slice(0, 200)}`)
  return root as JsonObjectSchema
}

type AnyEndpoint = HttpApiEndpoint.HttpApiEndpoint.AnyWithProps

/** An operation of the declaration. */
const operation = (group: string, name: string): AnyEndpoint => {
  const groups = CallsightApi.groups as unknown as Record<string, HttpApiGroup.HttpApiGroup.AnyWithProps>
  const endpoint = groups[group]?.endpoints[name]
  if (endpoint === undefined) throw new Error(`no operation ${group}.${name} in the declaration`)
  return endpoint
}

const urlParamsOf = (endpoint: AnyEndpoint) =>
  Option.getOrThrowWith(endpoint.urlParamsSchema, () => new Error(`${endpoint.name} has no URL parameters`)) as Schema.Schema<
    any,
    any
  >

/** What `GET /v1/teams/calls` takes and answers. */
const listCalls = operation("extensions", "listCalls")
const ListCallsParams = urlParamsOf(listCalls) as Schema.Schema<ListCallsOptions, any>
const CallsPage = listCalls.successSchema as Schema.Schema<any, any>

/** The tool's arguments as the query string would carry them (numbers and booleans as text). */
const asQuery = (args: unknown): unknown =>
  typeof args === "object" && args !== null && !Array.isArray(args)
    ? Object.fromEntries(
      Object.entries(args).map(([k, v]) => [k, typeof v === "number" || typeof v === "boolean" ? String(v) : v])
    )
    : args

interface ToolInput<A> {
  /** Advertised in `tools/list`. */
  readonly json: JsonObjectSchema
  /** Decodes the `arguments` of `tools/call`; a bad one fails with one line naming it (`invalidArguments`). */
  readonly decode: (args: unknown) => Effect.Effect<A, McpToolError>
}

const strict = { onExcessProperty: "error", errors: "all" } as const

/** A value as the agent sent it, in JSON, cut short. */
const shown = (value: unknown): string => {
  const json = JSON.stringify(value) ?? String(value)
  return json.length > 60 ? `${json.slice(0, 59)}…` : json
}

/** What the arguments hold at `path`. */
const valueAt = (args: unknown, path: ReadonlyArray<PropertyKey>): unknown =>
  path.reduce<unknown>((value, key) => (typeof value === "object" && value !== null ? (value as any)[key] : undefined), args)

/** `a`, `a and b`, `a, b or c`. */
const listed = (items: ReadonlyArray<string>, last: "and" | "or"): string =>
  items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} ${last} ${items.at(-1)}`

/** An issue of effect's that only restates that an optional (nullable) value was there: `Expected undefined, actual 900`. */
const restatesPresence = (issue: ParseResult.ArrayFormatterIssue) =>
  issue._tag === "Type" && /^Expected (undefined|null), actual /.test(issue.message)

/**
 * A decode failure of a tool's arguments as one line, one clause per bad argument, from effect's
 * `ArrayFormatter` (each issue's path and message): `missing argument "call_id"`,
 * `invalid argument "timeout_seconds": expected a number between 1 and 300, got 900`,
 * `unknown argument "foo" (the arguments are call_id, timeout_seconds)`. What was sent is shown
 * from the arguments themselves (as JSON, so a number given to a query parameter stays a number).
 */
export const invalidArguments = (error: ParseResult.ParseError, args: unknown, names: ReadonlyArray<string>): string => {
  const byPath = new Map<string, Array<ParseResult.ArrayFormatterIssue>>()
  for (const issue of ParseResult.ArrayFormatter.formatErrorSync(error)) {
    const key = JSON.stringify(issue.path.map(String))
    byPath.set(key, [...(byPath.get(key) ?? []), issue])
  }
  const clauses = [...byPath.values()].map((all) => {
    const kept = all.filter((issue) => !restatesPresence(issue))
    const issues = kept.length > 0 ? kept : all
    const path = issues[0]!.path
    const name = path.length === 0 ? "arguments" : `argument "${path.map(String).join(".")}"`
    if (issues.some((issue) => issue._tag === "Missing")) return `missing ${name}`
    if (issues.some((issue) => issue._tag === "Unexpected")) {
      return `unknown ${name} (the arguments are ${listed(names, "and")})`
    }
    const got = shown(valueAt(args, path))
    // effect's own messages read `Expected <what>, actual <value>`; a filter's own message is kept as it is
    const expected = issues.map((issue) => /^Expected ([\s\S]+?), actual [\s\S]*$/.exec(issue.message)?.[1])
    if (expected.every((what) => what !== undefined)) return `invalid ${name}: expected ${listed(expected, "or")}, got ${got}`
    const said = issues.map((issue) => issue.message.charAt(0).toLowerCase() + issue.message.slice(1)).join("; ")
    return `invalid ${name}: ${said}${said.includes(got) ? "" : `, got ${got}`}`
  })
  return clauses.join("; ")
}

/** Decodes a tool's arguments with `schema`, after `prepare`; a failure is one line (`invalidArguments`). */
const toolInput = <A, I>(schema: Schema.Schema<A, I>, prepare: (args: unknown) => unknown): ToolInput<A> => {
  const json = objectJsonSchema(schema)
  const names = Object.keys((json.properties ?? {}) as Record<string, unknown>)
  return {
    json,
    decode: (args) =>
      Schema.decodeUnknown(schema, strict)(prepare(args ?? {})).pipe(
        Effect.mapError((error) => new McpToolError({ message: invalidArguments(error, args ?? {}, names) }))
      )
  }
}

/** Arguments that are a JSON body of the declaration (or a struct of its fields). */
const jsonInput = <A, I>(schema: Schema.Schema<A, I>): ToolInput<A> => toolInput(schema, (args) => args)

/** Arguments that are an operation's query parameters. */
const queryInput = <A, I>(schema: Schema.Schema<A, I>): ToolInput<A> => toolInput(schema, asQuery)

const callIdField = CallIdPath.fields.call_id

/** The upload's form fields and `Idempotency-Key`, as the declaration has them. */
const uploadFields = {
  external_call_id: AudioUploadForm.fields.external_call_id,
  closer_email: AudioUploadForm.fields.closer_email,
  call_type: AudioUploadForm.fields.call_type,
  rep_channel: AudioUploadForm.fields.rep_channel,
  account: AudioUploadForm.fields.account,
  deal_id: AudioUploadForm.fields.deal_id,
  meeting_at: AudioUploadForm.fields.meeting_at,
  attendees: Schema.optional(Schema.Array(Text)).annotations({ description: "The meeting's attendees' e-mail addresses (at most 50)" }),
  idempotency_key: UploadHeaders.fields["idempotency-key"]
}

const LocalUpload = Schema.Struct({
  path: Text.pipe(Schema.minLength(1)).annotations({
    description: "The recording (MP3, WAV or M4A) on this machine: an absolute path (a relative one is read from where the MCP server runs)"
  }),
  ...uploadFields
})

const RemoteUpload = Schema.Struct({
  url: Schema.optional(Text.pipe(Schema.minLength(1)).annotations({
    description: "An http(s) URL the service downloads the recording from (size- and time-limited)"
  })),
  content_base64: Schema.optional(Schema.String.annotations({
    description: "The recording's bytes in base64, instead of `url`"
  })),
  filename: Schema.optional(Text.pipe(Schema.minLength(1), Schema.maxLength(255)).annotations({
    description: "The file name sent with the recording (the format is sniffed from the bytes)"
  })),
  ...uploadFields
})

export const MAX_WAIT_SECONDS = 300
export const DEFAULT_WAIT_SECONDS = 50

const WaitInput = Schema.Struct({
  call_id: callIdField,
  // described on the field, not the number: a refinement's description is what a decode failure says was expected
  timeout_seconds: Schema.optional(Schema.Int.pipe(Schema.between(1, MAX_WAIT_SECONDS))).annotations({
    description: `How long to wait, 1 to ${MAX_WAIT_SECONDS} s (default ${DEFAULT_WAIT_SECONDS}: below the 60 s request ` +
      "timeout of most MCP clients). Past it the tool answers the status as it is; call it again to wait longer."
  })
})

const RecordOutcomeInput = Schema.Struct({ call_id: callIdField, ...OutcomeTruthRequest.fields })

const ClosingAuditInput = Schema.Struct(CreateClosingAuditRequest.fields)
const ClosingAuditIdInput = Schema.Struct({ audit_id: ClosingAuditId })

/** The first line of a closing audit's answer: its size and its first change. */
const auditLine = (a: ClosingAudit) =>
  `Closing audit ${a.audit_id}: ${a.call_list.length} call(s), ${a.team.closers} closer(s), mean overall ` +
  `${a.team.overall.mean ?? "-"}; ` +
  (a.changes[0] === undefined ? "no change ranked" : `first change: ${a.changes[0].label} (+${a.changes[0].points} points)`) +
  `; report ${a.report_url}`

const ReportLinks = Schema.Struct({
  call_id: CallId,
  status: AnalysisStatus,
  ready: Schema.Boolean.annotations({ description: "Whether the report exists (the analysis completed)" }),
  report_url: UploadAccepted.fields.report_url.annotations({
    description: "GET /reports/{call_id}/html: the HTML report, with the tenant key in X-API-Key"
  }),
  portal_report_url: Text.annotations({
    description: "The report in the portal, for a browser signed in to it"
  })
}).annotations({ identifier: "ReportLinks" })

// ---------------------------------------------------------------------------------------------
// The tools
// ---------------------------------------------------------------------------------------------

interface ToolContext {
  /** Sends `notifications/progress` when the caller asked for it (a `progressToken`); never fails. */
  readonly progress: (progress: number, total: number, message: string) => void
}

interface ToolDefinition<A, O> {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly input: ToolInput<A>
  readonly output: Schema.Schema<O, any>
  readonly annotations: NonNullable<Tool["annotations"]>
  readonly run: (input: A, context: ToolContext) => Effect.Effect<O, unknown>
  /** The first line of the text content (the JSON follows it). */
  readonly summary: (output: O, input: A) => string
}

const tool = <A, O>(definition: ToolDefinition<A, O>) => definition as unknown as ToolDefinition<unknown, unknown>

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const

const statusLine = (s: typeof AnalysisStatusResponse.Type) =>
  `${s.call_id}: ${s.status} (stage ${s.stage}, ${Math.round(s.progress * 100)} %)` +
  (s.error === null ? "" : `: ${s.error.code}: ${s.error.message}`)

const isTerminal = (s: typeof AnalysisStatusResponse.Type) => s.status === "completed" || s.status === "failed"

/** The tools over `backend`, in the order `tools/list` gives them. */
export const makeTools = (backend: McpBackend): ReadonlyArray<ToolDefinition<unknown, unknown>> => {
  const { client } = backend
  const base = backend.reportBaseUrl.replace(/\/+$/, "")

  const upload = backend.audio._tag === "path"
    ? tool({
      name: "upload_audio",
      title: "Upload a call recording",
      description: "Upload a sales-call recording (MP3, WAV or M4A) from a file on this machine for analysis. " +
        "Answers at once with the call id (status queued); follow it with wait_for_analysis. " +
        "One credit per completed analysis; the same idempotency_key, file and fields within 24 h answer the first upload again.",
      input: jsonInput(LocalUpload),
      output: UploadAccepted,
      annotations: { title: "Upload a call recording", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      run: (input) =>
        client.uploadAudio(input.path, {
          externalCallId: input.external_call_id,
          closerEmail: input.closer_email,
          callType: input.call_type,
          repChannel: input.rep_channel,
          account: input.account,
          dealId: input.deal_id,
          meetingAt: input.meeting_at,
          attendees: input.attendees,
          idempotencyKey: input.idempotency_key
        }),
      summary: (accepted) => `Uploaded: call ${accepted.call_id} (queued)`
    })
    : tool({
      name: "upload_audio",
      title: "Upload a call recording",
      description: "Upload a sales-call recording (MP3, WAV or M4A) for analysis: give `url` (http or https; the service " +
        "downloads it) or `content_base64` (the file's bytes). Answers at once with the call id (status queued); follow " +
        "it with wait_for_analysis. One credit per completed analysis; the same idempotency_key, file and fields within 24 h " +
        "answer the first upload again.",
      input: jsonInput(RemoteUpload),
      output: UploadAccepted,
      annotations: { title: "Upload a call recording", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
      run: (input) =>
        Effect.gen(function* () {
          const limits = (backend.audio as { readonly limits: RemoteAudioLimits }).limits
          const file = yield* remoteAudio(input, limits)
          return yield* client.uploadAudio(file.bytes, {
            filename: file.filename,
            externalCallId: input.external_call_id,
            closerEmail: input.closer_email,
            callType: input.call_type,
            repChannel: input.rep_channel,
            account: input.account,
            dealId: input.deal_id,
            meetingAt: input.meeting_at,
            attendees: input.attendees,
            idempotencyKey: input.idempotency_key
          })
        }),
      summary: (accepted) => `Uploaded: call ${accepted.call_id} (queued)`
    })

  return [
    upload,
    tool({
      name: "get_analysis",
      title: "Status of an analysis",
      description: "The status of a call's analysis: queued, processing, completed or failed, its stage and progress, " +
        "the error of a failed one and a summary of a completed one.",
      input: jsonInput(CallIdPath),
      output: AnalysisStatusResponse,
      annotations: { title: "Status of an analysis", ...readOnly },
      run: (input) => client.getAnalysis(input.call_id),
      summary: statusLine
    }),
    tool({
      name: "wait_for_analysis",
      title: "Wait for an analysis",
      description: "Waits until a call's analysis is completed or failed, polling its status, for at most " +
        "`timeout_seconds`, and answers the status (still queued or processing when the time ran out: call it again). " +
        "Sends progress notifications when the request carries a progress token.",
      input: jsonInput(WaitInput),
      output: AnalysisStatusResponse,
      annotations: { title: "Wait for an analysis", ...readOnly },
      run: (input, context) => {
        let reported = -1
        return client.waitForCompletion(input.call_id, {
          timeoutMs: (input.timeout_seconds ?? DEFAULT_WAIT_SECONDS) * 1000,
          intervalMs: 500,
          maxIntervalMs: 3_000,
          onStatus: (s) => {
            if (s.progress > reported) context.progress((reported = s.progress), 1, `${s.status}: ${s.stage}`)
          }
        }).pipe(
          Effect.catchTag("WaitTimeout", (timeout: WaitTimeout) =>
            timeout.last === undefined ? client.getAnalysis(input.call_id) : Effect.succeed(timeout.last))
        )
      },
      summary: (s, input) =>
        isTerminal(s)
          ? statusLine(s)
          : `${statusLine(s)}: not finished after ${input.timeout_seconds ?? DEFAULT_WAIT_SECONDS} s; call wait_for_analysis again`
    }),
    tool({
      name: "get_call",
      title: "The analysis of a call",
      description: "The whole analysis of a call as JSON (as GET /v1/teams/calls/{call_id}): speakers, turns, metrics, " +
        "scorecard, evidence, qualification, objections, next steps, transcript.",
      input: jsonInput(CallIdPath),
      output: CallAnalysis,
      annotations: { title: "The analysis of a call", ...readOnly },
      run: (input) => client.getCall(input.call_id),
      summary: (analysis: typeof CallAnalysis.Type) => `The analysis of ${analysis.call_id} (${analysis.status})`
    }),
    tool({
      name: "list_calls",
      title: "List calls",
      description: "The tenant's calls, newest first, a page at a time: pass `next_cursor` as `cursor` (with the same filters) " +
        "for the next page. Filters, combined: status, closer_email, created_from and created_to (ISO-8601, inclusive), " +
        "min_score and max_score (0-100).",
      input: queryInput(ListCallsParams),
      output: CallsPage,
      annotations: { title: "List calls", ...readOnly },
      run: (input) => client.listCalls(input),
      summary: (page: { readonly calls: ReadonlyArray<unknown>; readonly next_cursor: string | null }) =>
        `${page.calls.length} call(s)${page.next_cursor === null ? "" : "; more with cursor " + page.next_cursor}`
    }),
    tool({
      name: "search_calls",
      title: "Search calls",
      description: "Full-text search over the tenant's calls: transcripts, call metadata (external id, closer e-mail, " +
        "date as YYYY-MM-DD), closers and notes, in web-search syntax (words, \"quoted phrases\", -word, or). " +
        "Best rank first; transcript hits give the second they are at.",
      input: queryInput(SearchParams),
      output: SearchResults,
      annotations: { title: "Search calls", ...readOnly },
      run: (input) => backend.searchCalls(input),
      summary: (found: typeof SearchResults.Type) => `${found.total} hit(s) for ${JSON.stringify(found.q)}`
    }),
    tool({
      name: "tracker_report",
      title: "Trackers report",
      description: "How often the tenant's trackers (competitors from the market profile, and its own lists of words and " +
        "phrases: features, pricing terms, risks) were mentioned in its calls between `from` and `to`: per tracker and term, " +
        "closer and period (day, week or month), each count with its calls and up to `quotes` quotes (the words as said, " +
        "the speaker, the second), and a page of the calls with their mentions.",
      input: queryInput(TrackerReportParams),
      output: TrackerReport,
      annotations: { title: "Trackers report", ...readOnly },
      run: (input) => backend.trackerReport(input),
      summary: (r: typeof TrackerReport.Type) =>
        r.trackers.map((t) => `${t.name}: ${t.mentions} mention(s) in ${t.calls} call(s)`).join("; ") || "No trackers"
    }),
    tool({
      name: "trends",
      title: "Trends",
      description: "The tenant's trends per period (`week` from Monday or `month`, UTC; the last `periods`, default 6, or " +
        "`since`/`until`), for the team and per closer (`closer_id` or `closer_email` for one): calls, objections by kind, " +
        "competitors mentioned (the market profile's), pains stated, next steps said, dated, kept and slipped, the average " +
        "overall and dimension scores; each number with the calls behind it; and each item's change between the last two " +
        "periods, the notable ones first as sentences (\"objections about price up from 3 to 9 this week\").",
      input: queryInput(TrendsParams),
      output: Trends,
      annotations: { title: "Trends", ...readOnly },
      run: (input) => backend.trends(input),
      summary: (t: typeof Trends.Type) => {
        const notable = t.team.changes.filter((c) => c.notable).map((c) => c.sentence)
        return notable.length === 0 ? `No notable change over ${t.team.periods.length} ${t.period}(s)` : notable.join("; ")
      }
    }),
    tool({
      name: "create_closing_audit",
      title: "Make a Team Closing Audit",
      description: "Audits the tenant's calls (the completed calls in `call_ids`, or the last `last_per_closer` of each closer; " +
        "exactly one of the two): per scorecard dimension the team's mean and spread with quotes, each closer's strengths " +
        "and gaps, and the three changes that would move the most deals, with links to the executive report (HTML, PDF). " +
        "Spends CLOSING_AUDIT_CREDITS credits of the tenant, once.",
      input: jsonInput(ClosingAuditInput),
      output: ClosingAudit,
      annotations: { title: "Make a Team Closing Audit", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      run: (input) => backend.closingAudits.create(new CreateClosingAuditRequest(input)),
      summary: auditLine
    }),
    tool({
      name: "get_closing_audit",
      title: "A Team Closing Audit",
      description: "A closing audit made before (`audit_id`, `cla_…`), its figures computed from its calls as they are now.",
      input: jsonInput(ClosingAuditIdInput),
      output: ClosingAudit,
      annotations: { title: "A Team Closing Audit", ...readOnly },
      run: (input) => backend.closingAudits.get(input.audit_id),
      summary: auditLine
    }),
    tool({
      name: "record_outcome",
      title: "Record the outcome of a call",
      description: "Records (replaces) what became of the deal behind a call: won, lost, no_decision or open, with its " +
        "value, currency, close date, stage, reason and notes; the ground truth the scores are measured against.",
      input: jsonInput(RecordOutcomeInput),
      output: OutcomeTruth,
      annotations: { title: "Record the outcome of a call", readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      run: ({ call_id, ...request }) =>
        Effect.flatMap(
          Effect.try({ try: () => new OutcomeTruthRequest(request), catch: (e) => new McpToolError({ message: String(e) }) }),
          (body) => backend.recordOutcome(call_id, body)
        ),
      summary: (o: typeof OutcomeTruth.Type) => `Recorded: ${o.call_id} ${o.outcome}`
    }),
    tool({
      name: "get_report_url",
      title: "Links to the report of a call",
      description: "Links to a call's HTML evidence report: `report_url` (fetched with the tenant key in X-API-Key) and " +
        "`portal_report_url` (for a browser signed in to the portal); `ready` is false until the analysis completed.",
      input: jsonInput(CallIdPath),
      output: ReportLinks,
      annotations: { title: "Links to the report of a call", ...readOnly },
      run: (input) =>
        Effect.map(client.getAnalysis(input.call_id), (s) => ({
          call_id: s.call_id,
          status: s.status,
          ready: s.status === "completed",
          report_url: `${base}/reports/${encodeURIComponent(s.call_id)}/html`,
          portal_report_url: `${base}/v1/client-portal/calls/${encodeURIComponent(s.call_id)}/report`
        })),
      summary: (links) =>
        links.ready ? `The report of ${links.call_id}: ${links.report_url}` : `${links.call_id} has no report yet (${links.status})`
    })
  ]
}

// ---------------------------------------------------------------------------------------------
// The MCP server
// ---------------------------------------------------------------------------------------------

/** A failure as the agent reads it. */
const describeFailure = (error: unknown): Effect.Effect<string> => {
  if (error instanceof McpToolError) return Effect.succeed(error.message)
  if (ParseResult.isParseError(error)) {
    return Effect.succeed(
      ParseResult.ArrayFormatter.formatErrorSync(error).map((i) => `${i.path.map(String).join(".") || "value"}: ${i.message}`).join("; ")
    )
  }
  // the error's tag, then what happened: `NotFound: no call call_x`
  return Effect.map(toCallsightError(error), (e) => (e.message.startsWith(`${e.tag}:`) ? e.message : `${e.tag}: ${e.message}`))
}

const failure = (text: string): CallToolResult => ({ isError: true, content: [{ type: "text", text }] })

export interface McpServerOptions {
  readonly name?: string
  readonly version: string
}

/**
 * An MCP server with the tools over `backend`. Connect it to one transport (stdio for the life of
 * the process; over HTTP, one server and one transport per request, stateless).
 */
export const makeMcpServer = (backend: McpBackend, options: McpServerOptions): Server => {
  const tools = makeTools(backend)
  const byName = new Map(tools.map((t) => [t.name, t]))
  const listed: Array<Tool> = tools.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: t.input.json,
    outputSchema: objectJsonSchema(t.output),
    annotations: t.annotations
  }))
  const runtime = backend.runtime ?? Runtime.defaultRuntime

  const server = new Server(
    { name: options.name ?? "callsight", version: options.version },
    {
      capabilities: { tools: {} },
      instructions: "Callsight analyses sales-call recordings. upload_audio, then wait_for_analysis until completed, " +
        "then get_call for the analysis (or get_report_url for the HTML report). Call ids look like call_…; " +
        "every tool sees only the calls of the tenant whose API key it was given."
    }
  )

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }))

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const definition = byName.get(request.params.name)
    if (definition === undefined) return failure(`no tool ${request.params.name}`)
    const progressToken = request.params._meta?.progressToken
    const context: ToolContext = {
      progress: (progress, total, message) => {
        if (progressToken === undefined) return
        extra.sendNotification({ method: "notifications/progress", params: { progressToken, progress, total, message } })
          .catch(() => undefined)
      }
    }
    const program = Effect.gen(function* () {
      const input = yield* definition.input.decode(request.params.arguments)
      const output = yield* definition.run(input, context)
      const structured = yield* Schema.encode(definition.output)(output).pipe(Effect.orDie)
      return {
        content: [{ type: "text", text: `${definition.summary(output, input)}\n${JSON.stringify(structured)}` }],
        structuredContent: structured as Record<string, unknown>
      } satisfies CallToolResult
    }).pipe(
      Effect.catchAll((error) => Effect.map(describeFailure(error), failure)),
      Effect.withSpan(`mcp.${definition.name}`)
    )
    const exit = await Runtime.runPromiseExit(runtime)(program, { signal: extra.signal })
    if (Exit.isSuccess(exit)) return exit.value
    if (Cause.isInterruptedOnly(exit.cause)) return failure("cancelled")
    await Runtime.runPromise(runtime)(Effect.logError("an MCP tool failed", exit.cause).pipe(
      Effect.annotateLogs({ tool: definition.name })
    ))
    return failure("internal error: the tool failed unexpectedly")
  })

  return server
}

// ---------------------------------------------------------------------------------------------
// The recording of upload_audio over HTTP: a URL or base64
// ---------------------------------------------------------------------------------------------

const baseName = (path: string): string | undefined => {
  const last = path.split("/").filter((s) => s !== "").at(-1)
  if (last === undefined) return undefined
  try {
    return decodeURIComponent(last).slice(0, 255) || undefined
  } catch {
    return last.slice(0, 255)
  }
}

/** Whether the URL may be downloaded: http(s), and no internal address (lib/Outbound.ts). */
const checkUrl = (raw: string, limits: RemoteAudioLimits) =>
  limits.outbound.check(raw).pipe(Effect.mapError((refusal) => new McpToolError({ message: `url ${refusal.reason}: give a public URL, or content_base64` })))

const MAX_REDIRECTS = 3

/** Downloads `url` (each redirect checked like the URL) into memory, at most `maxBytes`. */
const download = (raw: string, limits: RemoteAudioLimits) =>
  Effect.gen(function* () {
    let url = yield* checkUrl(raw, limits)
    for (let hop = 0; ; hop++) {
      const target = url
      const response = yield* Effect.tryPromise({
        try: (signal) => fetch(target, { redirect: "manual", signal, dispatcher: limits.outbound.dispatcher }),
        catch: (e) => new McpToolError({ message: `cannot download ${target.href}: ${e instanceof Error ? e.message : String(e)}` })
      })
      if (response.status >= 300 && response.status < 400 && response.headers.has("location")) {
        yield* Effect.promise(() => response.body?.cancel() ?? Promise.resolve())
        if (hop >= MAX_REDIRECTS) return yield* new McpToolError({ message: `more than ${MAX_REDIRECTS} redirects from ${raw}` })
        url = yield* checkUrl(new URL(response.headers.get("location")!, target).href, limits)
        continue
      }
      if (!response.ok) {
        yield* Effect.promise(() => response.body?.cancel() ?? Promise.resolve())
        return yield* new McpToolError({ message: `cannot download ${target.href}: HTTP ${response.status}` })
      }
      const declared = Number(response.headers.get("content-length") ?? NaN)
      const tooLarge = new McpToolError({ message: `the file at ${target.href} is larger than ${limits.maxBytes} bytes` })
      if (declared > limits.maxBytes) {
        yield* Effect.promise(() => response.body?.cancel() ?? Promise.resolve())
        return yield* tooLarge
      }
      const bytes = yield* Effect.tryPromise({
        try: async () => {
          const chunks: Array<Uint8Array> = []
          let size = 0
          if (response.body !== null) {
            for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
              size += chunk.length
              if (size > limits.maxBytes) throw tooLarge
              chunks.push(chunk)
            }
          }
          const out = new Uint8Array(size)
          let at = 0
          for (const chunk of chunks) {
            out.set(chunk, at)
            at += chunk.length
          }
          return out
        },
        catch: (e) => e instanceof McpToolError ? e : new McpToolError({ message: `cannot download ${target.href}: ${String(e)}` })
      })
      return { bytes, filename: baseName(target.pathname) }
    }
  }).pipe(
    Effect.timeoutFail({
      duration: limits.timeoutMs,
      onTimeout: () => new McpToolError({ message: `downloading ${raw} took longer than ${limits.timeoutMs / 1000} s` })
    })
  )

const remoteAudio = (input: typeof RemoteUpload.Type, limits: RemoteAudioLimits) =>
  Effect.gen(function* () {
    const given = (input.url === undefined ? 0 : 1) + (input.content_base64 === undefined ? 0 : 1)
    if (given !== 1) return yield* new McpToolError({ message: "give exactly one of url and content_base64" })
    if (input.url !== undefined) {
      const file = yield* download(input.url, limits)
      return { bytes: file.bytes, filename: input.filename ?? file.filename ?? "audio" }
    }
    const text = input.content_base64!.replace(/\s+/g, "")
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text)) return yield* new McpToolError({ message: "content_base64 is not base64" })
    if (Math.floor((text.length * 3) / 4) > limits.maxBytes + 2) {
      return yield* new McpToolError({ message: `content_base64 is larger than ${limits.maxBytes} bytes` })
    }
    return { bytes: new Uint8Array(Buffer.from(text, "base64")), filename: input.filename ?? "audio" }
  })
