/**
 * Audio analysis with a tenant key (`--api-key` or `CALLSIGHT_API_KEY`):
 * - `upload FILE [--external-id ID] [--closer-email E] [--call-type TYPE] [--rep-channel left|right|auto] [--idempotency-key K]
 *   [--wait] [--report OUT.html] [--timeout S] [--json]`
 * - `status CALL_ID [--wait] [--timeout S] [--json]`
 * - `report CALL_ID [-o FILE]`
 * - `result CALL_ID [--json]`
 *
 * Progress (the upload's bar, the stage while waiting) goes to stderr, drawn in place only when
 * stderr is a terminal, never with `--json` (then stdout holds only JSON). An analysis that ends
 * `failed` exits 1 after its result is printed. The notices of the upload's answer and of the status
 * (`no_transcriber`: no speech-to-text provider, the content dimensions not assessed) are printed
 * after them, each with how to configure what is missing.
 */
import { type CallAnalysis, CallTypeName, RepChannelSetting } from "@callsight/api-spec"
import {
  type AnalysisNotice,
  type AnalysisStatus,
  type UploadProgress
} from "@callsight/client"
import { Args, Command, Options } from "@effect/cli"
import { FileSystem } from "@effect/platform"
import { Console, Context, Effect, Option, type Redacted, Schema } from "effect"
import { AudioClientApi } from "./Apis.js"
import { apiKeyOption, type ClientOf, jsonOption, tenantClient, type Transport, urlOption } from "./Connection.js"
import { printJson, type RawStream, Stdio } from "./Output.js"
import { AnalysisFailed, fromClientError, fromUploadError, type ServiceError, UsageError } from "./Errors.js"

// ---------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------

/** Writes `text` to stdout as it is and waits until it is handed to the system. */
const writeStdout = (text: string) =>
  Effect.flatMap(Stdio, ({ stdout }) =>
    Effect.async<void>((resume) => {
      stdout.write(text, () => resume(Effect.void))
    }))

const CLEAR_LINE = "\r\x1b[2K"

const percent = (fraction: number) => `${Math.round(Math.max(0, Math.min(1, fraction)) * 100)}%`

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`

/** The upload's progress bar on a terminal's stderr, redrawn at most every 100 ms and at 100 %. */
const progressBar = (stderr: RawStream, label: string) => {
  let lastDraw = 0
  let drawn = false
  let finished = false
  const width = 30
  return {
    update: (progress: UploadProgress) => {
      if (finished) return
      const fraction = progress.total === 0 ? 1 : progress.sent / progress.total
      const now = Date.now()
      if (fraction < 1 && now - lastDraw < 100) return
      lastDraw = now
      const filled = Math.round(fraction * width)
      stderr.write(
        `${CLEAR_LINE}${label} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${percent(fraction).padStart(4)} ` +
          `${megabytes(progress.sent)}/${megabytes(progress.total)}`
      )
      drawn = true
    },
    /** Ends the bar's line (kept on screen). */
    done: Effect.sync(() => {
      if (drawn && !finished) stderr.write("\n")
      finished = true
    })
  }
}

const stageLine = (s: AnalysisStatus) =>
  s.status === "processing" ? `${s.call_id}: processing, ${s.stage} (${percent(s.progress)})` : `${s.call_id}: ${s.status}`

/**
 * The stage while waiting, on stderr: one line redrawn in place on a terminal, else a line per
 * change of status or stage; nothing with `--json`.
 */
const stageReporter = (stderr: RawStream, json: boolean) => {
  const tty = !json && stderr.isTTY === true
  let last = ""
  let drawn = false
  return {
    onStatus: (s: AnalysisStatus) => {
      if (json || s.status === "completed" || s.status === "failed") return
      if (tty) {
        stderr.write(`${CLEAR_LINE}${stageLine(s)}`)
        drawn = true
        return
      }
      const key = `${s.status}/${s.stage}`
      if (key !== last) stderr.write(`${stageLine(s)}\n`)
      last = key
    },
    done: Effect.sync(() => {
      if (drawn) stderr.write(CLEAR_LINE)
      drawn = false
    })
  }
}

const seconds = (s: number | null) => (s === null ? null : `${s.toFixed(1)} s`)

/** 83.4 → "01:23" */
const clock = (s: number) => `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(Math.floor(s % 60)).padStart(2, "0")}`

const quoted = (quote: string | null) => (quote === null || quote === "" ? "" : `  “${quote}”`)

const rows = (entries: ReadonlyArray<readonly [string, string | number | null | undefined]>) => {
  const shown = entries.filter((e): e is readonly [string, string | number] => e[1] !== null && e[1] !== undefined)
  const width = Math.max(0, ...shown.map(([k]) => k.length)) + 1
  return shown.map(([k, v]) => `  ${`${k}:`.padEnd(width + 1)}${v}`)
}

/**
 * The overall score in words: the number, and "partial (n of 6)" when it rests on fewer than 4 of
 * the 6 dimensions (a server before `overall_basis` sends none: then the number alone).
 */
export const overallText = (
  overall: number | null,
  basis: { readonly assessed: number; readonly of: number; readonly partial: boolean } | undefined
): string =>
  overall === null ? "not assessed" : basis?.partial === true ? `${overall}, partial (${basis.assessed} of ${basis.of})` : String(overall)

/** The notices of an answer (what the analysis misses, how to get it): none when absent. */
const noticeLines = (notices: ReadonlyArray<AnalysisNotice> | undefined): Array<string> =>
  (notices ?? []).flatMap((n) => [`Note (${n.code}): ${n.message}`, `  How: ${n.how}`])

const describeStatus = (s: AnalysisStatus): string =>
  [
    s.status === "processing" || s.status === "queued"
      ? `${s.call_id}: ${s.status} (stage ${s.stage}, ${percent(s.progress)})`
      : `${s.call_id}: ${s.status}`,
    ...rows([
      ["external id", s.external_call_id],
      ["created", s.created_at],
      // the meeting, its account and deal (docs/deals.md): shown when said
      ["meeting", s.meeting_at === s.created_at || s.meeting_at === "" ? undefined : s.meeting_at],
      ["account", s.account == null ? undefined : s.account.domain === null ? s.account.name : `${s.account.name} (${s.account.domain})`],
      ["deal", s.deal_id == null ? undefined : s.external_deal_id == null ? s.deal_id : `${s.deal_id} (${s.external_deal_id})`],
      ["started", s.started_at],
      ["completed", s.completed_at],
      ["audio", seconds(s.duration_s)],
      ["credits charged", s.credits_charged],
      ["overall score", s.summary == null || s.summary.overall_score === null ? undefined : overallText(s.summary.overall_score, s.summary.overall_basis)],
      ["talk ratio", s.summary?.talk_ratio ?? undefined],
      ["speakers", s.summary?.speakers],
      ["transcript", s.summary === null ? undefined : s.summary.transcript_available ? "yes" : "no"],
      ["error", s.error === null ? null : `${s.error.code}: ${s.error.message}`]
    ]),
    ...noticeLines(s.notices)
  ].join("\n")

const failedMessage = (callId: string, error: { readonly code: string; readonly message: string } | null) =>
  `the analysis of ${callId} failed: ${error === null ? "no reason given" : `${error.code}: ${error.message}`}`

/** Exit 1 once a failed analysis is printed. */
const failIfFailed = (status: string, callId: string, error: { readonly code: string; readonly message: string } | null) =>
  status === "failed" ? Effect.fail(new AnalysisFailed({ message: failedMessage(callId, error) })) : Effect.void

const describeAnalysis = (a: CallAnalysis): string => {
  const lines = [
    `${a.call_id}: ${a.status}`,
    ...rows([
      ["external id", a.external_call_id],
      ["closer", a.closer_email],
      ["created", a.created_at],
      ["completed", a.completed_at],
      ["audio", seconds(a.duration_s)],
      ["channels", a.channels],
      ["method", a.method_version],
      ["call type", a.call_type == null
        ? a.requested_call_type
        : `${a.call_type.type} (${a.call_type.source === "given" ? "given" : `detected, ${Math.round(a.call_type.confidence * 100)} % sure`}): ${a.call_type.reason}`],
      ["rep channel", a.rep_channel == null
        ? a.requested_rep_channel
        : `${a.rep_channel.chosen} (${a.rep_channel.requested}): ${a.rep_channel.reason}`],
      ["error", a.error === null ? null : `${a.error.code}: ${a.error.message}`]
    ])
  ]
  if (a.scorecard !== null) {
    lines.push(`Scorecard: overall ${overallText(a.scorecard.overall, a.scorecard.overall_basis)}`)
    for (const d of a.scorecard.dimensions) {
      const assisted = a.llm != null && a.llm.error === null && a.llm.assisted_dimensions.includes(d.dimension) ? " [LLM-assisted]" : ""
      lines.push(`  ${d.dimension.padEnd(20)}${String(d.score ?? "-").padStart(4)}${assisted}${d.reason === null ? "" : `  ${d.reason}`}`)
    }
  }
  if (a.llm != null) {
    const l = a.llm
    lines.push(
      l.error !== null
        ? `LLM: ${l.provider} ${l.model} gave no assessment (${l.error}); the rules' result stands`
        : `LLM: ${l.provider} ${l.model} assisted ${l.assisted_dimensions.length === 0 ? "nothing" : l.assisted_dimensions.join(", ")}; ` +
          `${l.added_items} item(s) added, ${l.dropped_items} dropped (quote not in the transcript)`
    )
    // the rule findings it rejected as a second reader, each with its reason
    for (const v of (l.verdicts ?? []).filter((x) => x.verdict === "rejected")) {
      lines.push(`  rejected ${clock(v.at)} ${v.kind} "${v.quote}" (confidence ${v.confidence.toFixed(2)}): ${v.reason}`)
    }
  }
  if (a.speakers.length > 0) {
    lines.push("Speakers:")
    for (const s of a.speakers) {
      lines.push(`  ${s.speaker.padEnd(10)}${s.role.padEnd(8)}${percent(s.talk_share).padStart(5)} of the talk (${s.talk_time_s.toFixed(1)} s)`)
    }
  }
  if (a.metrics !== null) {
    const m = a.metrics
    lines.push(
      "Metrics:",
      ...rows([
        ["talk ratio", m.talk_ratio],
        ["longest monologue", seconds(m.longest_monologue_s)],
        ["longest customer story", seconds(m.longest_customer_story_s)],
        ["interactivity", m.interactivity],
        ["patience", seconds(m.patience_s)],
        ["interruptions", m.interruptions],
        ["silence ratio", m.silence_ratio],
        ["questions", m.question_count],
        ["question rate", m.question_rate === null ? null : `${m.question_rate} per 10 min`],
        ["words/min (rep)", m.words_per_minute?.rep],
        ["words/min (buyer)", m.words_per_minute?.buyer],
        ["filler rate", m.filler_rate === null ? null : `${m.filler_rate} per 100 rep words`]
      ])
    )
  }
  if (a.qualification !== null) {
    const q = a.qualification
    const points = q.elements.reduce((sum, e) => sum + e.score, 0)
    lines.push(`Qualification (${q.framework}): ${points} of ${2 * q.elements.length} points`)
    for (const e of q.elements) {
      lines.push(`  ${e.element.padEnd(20)}${String(e.score).padStart(2)}${quoted(e.evidence?.quote ?? null)}`)
    }
  }
  if (a.objections.length > 0) {
    lines.push("Objections:")
    for (const o of a.objections) {
      const pause = o.response_pause_s === null ? "" : `, after ${o.response_pause_s.toFixed(1)} s`
      lines.push(`  ${clock(o.at)} ${o.kind.padEnd(11)}${o.response.replace("_", " ")}${pause}${quoted(o.quote)}${o.source === "llm" ? " [LLM]" : ""}`)
    }
  }
  if (a.next_steps.length > 0) {
    lines.push("Next steps:")
    for (const n of a.next_steps) {
      lines.push(`  ${clock(n.at)} ${n.due ?? "no date"}, ${n.owner ?? "no owner"}${quoted(n.quote)}${n.source === "llm" ? " [LLM]" : ""}`)
    }
  }
  if (a.summary != null) {
    // what the buyer needs, what was agreed, open risks: each sentence with the words it rests on
    lines.push(`Summary${a.summary.source === "llm" ? " (written by the LLM, its quotes verified)" : ""}:`)
    for (const [label, items] of [["needs", a.summary.needs], ["agreed", a.summary.agreed], ["risks", a.summary.risks]] as const) {
      if (items.length === 0) lines.push(`  ${label.padEnd(7)}none found`)
      for (const [k, item] of items.entries()) {
        lines.push(`  ${(k === 0 ? label : "").padEnd(7)}${item.text}`)
        for (const q of item.quotes) lines.push(`         ${clock(q.start)} ${q.speaker}${quoted(q.quote)}`)
      }
    }
  }
  const t = a.transcription
  const transcribedBy = t === null
    ? ""
    : ` (${t.provider} ${t.model}${t.diarization_agreement === null ? "" : `, its speakers agree with ours on ${Math.round(t.diarization_agreement * 100)} %`})`
  lines.push(
    `${a.speaker_turns.length} speaker turns, ${a.evidence.length} evidence moments, ` +
      `transcript ${a.transcript === null ? "not available" : `of ${a.transcript.length} segments${transcribedBy}`}`
  )
  return lines.join("\n")
}

// ---------------------------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------------------------

/** The tenant's client of `AudioClientApi`, for the commands' programs. */
class AudioClient extends Context.Tag("@callsight/cli/AudioClient")<AudioClient, ClientOf<typeof AudioClientApi>>() {}

/** A client call whose failures are classified for the exit code (Errors.ts). */
const api = <A, E>(f: (client: ClientOf<typeof AudioClientApi>) => Effect.Effect<A, E>) =>
  Effect.flatMap(AudioClient, f).pipe(Effect.catchAll(fromClientError))

const connection = { url: urlOption, apiKey: apiKeyOption }

const withClient = <A, E>(
  args: { readonly url: string; readonly apiKey: Option.Option<Redacted.Redacted<string>> },
  program: Effect.Effect<A, E, AudioClient | FileSystem.FileSystem>,
  transport?: Transport
) =>
  Effect.flatMap(
    tenantClient(AudioClientApi, args.url, args.apiKey, transport),
    (client) => Effect.provideService(program, AudioClient, client)
  )

const callIdArg = Args.text({ name: "CALL_ID" }).pipe(Args.withDescription("The call (call_...)"))

const waitOption = Options.boolean("wait").pipe(
  Options.withDescription("Wait until the analysis is completed or failed (the stage is shown on stderr)")
)

const timeoutOption = Options.integer("timeout").pipe(
  Options.withPseudoName("SECONDS"),
  Options.withDefault(600),
  Options.withDescription("With --wait: give up after this many seconds (exit 3); default 600")
)

const positiveTimeout = (timeout: number) =>
  timeout > 0 ? Effect.succeed(timeout * 1000) : Effect.fail(new UsageError({ message: "--timeout must be at least 1 second" }))

/** Polls until the analysis ends, showing the stage; the final status. */
const waitFor = (callId: string, json: boolean, timeoutMs: number) =>
  Effect.flatMap(Stdio, ({ stderr }) => {
    const stage = stageReporter(stderr, json)
    return api((c) => c.waitForCompletion(callId, { timeoutMs, onStatus: stage.onStatus })).pipe(Effect.ensuring(stage.done))
  })

const writeFile = (path: string, text: string) =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => fs.writeFileString(path, text)).pipe(
    Effect.mapError((e) => new UsageError({ message: `cannot write ${path}: ${e.message}` }))
  )

// ---------------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------------

const isCallType = Schema.is(CallTypeName)
const isRepChannel = Schema.is(RepChannelSetting)

const upload = Command.make(
  "upload",
  {
    file: Args.file({ name: "FILE" }).pipe(Args.withDescription("The recording: MP3, WAV or M4A")),
    externalId: Options.text("external-id").pipe(
      Options.withPseudoName("ID"),
      Options.optional,
      Options.withDescription("Your own id of the call (external_call_id, at most 200 characters)")
    ),
    closerEmail: Options.text("closer-email").pipe(
      Options.withPseudoName("EMAIL"),
      Options.optional,
      Options.withDescription("E-mail of the closer (rep) on the call")
    ),
    callType: Options.text("call-type").pipe(
      Options.withPseudoName("TYPE"),
      Options.filterMap(Option.liftPredicate(isCallType), `--call-type must be one of ${CallTypeName.literals.join(", ")}`),
      Options.optional,
      Options.withDescription(`The type of call (call_type: ${CallTypeName.literals.join(", ")}); it wins over the type detected`)
    ),
    repChannel: Options.text("rep-channel").pipe(
      Options.withPseudoName("CHANNEL"),
      Options.filterMap(Option.liftPredicate(isRepChannel), `--rep-channel must be one of ${RepChannelSetting.literals.join(", ")}`),
      Options.optional,
      Options.withDescription("Stereo: the rep's channel (rep_channel: left, right, auto); unset, the tenant's default")
    ),
    account: Options.text("account").pipe(
      Options.withPseudoName("COMPANY"),
      Options.optional,
      Options.withDescription("The buyer's company (account): a domain (acme.com) or a name")
    ),
    dealId: Options.text("deal-id").pipe(
      Options.withPseudoName("ID"),
      Options.optional,
      Options.withDescription("The deal's id in your system or CRM (deal_id): calls with the same one are one deal")
    ),
    meetingAt: Options.text("meeting-at").pipe(
      Options.withPseudoName("TIME"),
      Options.optional,
      Options.withDescription("When the meeting took place (meeting_at, ISO-8601 with its offset, e.g. 2026-03-04T15:00:00Z)")
    ),
    attendees: Options.text("attendee").pipe(
      Options.withPseudoName("EMAIL"),
      Options.repeated,
      Options.withDescription("An attendee's e-mail address (attendees); repeat it for each, or give several separated by commas")
    ),
    idempotencyKey: Options.text("idempotency-key").pipe(
      Options.withPseudoName("KEY"),
      Options.optional,
      Options.withDescription("Idempotency-Key: the same key and file within 24 h give the same call, no new one")
    ),
    wait: waitOption,
    report: Options.file("report").pipe(
      Options.withPseudoName("FILE"),
      Options.optional,
      Options.withDescription("Wait, then write the HTML report to this file (implies --wait)")
    ),
    timeout: timeoutOption,
    json: Options.boolean("json").pipe(
      Options.withDescription("Print JSON on stdout and nothing else there: the 202 answer, or with --wait the final status")
    ),
    ...connection
  },
  (args) =>
    withClient(
      args,
      Effect.gen(function* () {
        const timeoutMs = yield* positiveTimeout(args.timeout)
        const key = Option.getOrUndefined(args.idempotencyKey)
        if (key !== undefined && (key.length < 1 || key.length > 255)) {
          return yield* new UsageError({ message: "--idempotency-key must have 1 to 255 characters" })
        }
        const wait = args.wait || Option.isSome(args.report)
        const { stderr } = yield* Stdio
        const bar = !args.json && stderr.isTTY === true
          ? progressBar(stderr, `Uploading ${args.file.split(/[\\/]/).at(-1)}`)
          : undefined
        const accepted = yield* Effect.flatMap(AudioClient, (c) =>
          c.uploadAudio(args.file, {
            externalCallId: Option.getOrUndefined(args.externalId),
            closerEmail: Option.getOrUndefined(args.closerEmail),
            callType: Option.getOrUndefined(args.callType),
            repChannel: Option.getOrUndefined(args.repChannel),
            account: Option.getOrUndefined(args.account),
            dealId: Option.getOrUndefined(args.dealId),
            meetingAt: Option.getOrUndefined(args.meetingAt),
            attendees: args.attendees.length === 0 ? undefined : args.attendees,
            idempotencyKey: Option.getOrUndefined(args.idempotencyKey),
            onProgress: bar?.update
          })
        ).pipe(Effect.catchAll(fromUploadError(args.file)), Effect.ensuring(bar?.done ?? Effect.void))
        if (!wait) {
          if (args.json) return yield* printJson(accepted)
          return yield* Console.log(
            [
              `Uploaded ${args.file}: call ${accepted.call_id} (${accepted.status}).`,
              ...rows([
                ["status", accepted.status_url],
                ["report", accepted.report_url]
              ]),
              ...noticeLines(accepted.notices),
              `Wait for it with: callsight status ${accepted.call_id} --wait`
            ].join("\n")
          )
        }
        if (!args.json) yield* Console.log(`Uploaded ${args.file}: call ${accepted.call_id}.`)
        const final = yield* waitFor(accepted.call_id, args.json, timeoutMs)
        if (args.json) yield* printJson(final)
        else yield* Console.log(describeStatus(final))
        yield* failIfFailed(final.status, final.call_id, final.error)
        if (Option.isSome(args.report)) {
          const html = yield* api((c) => c.getReportHtml(final.call_id))
          yield* writeFile(args.report.value, html)
          yield* Console.error(`Wrote the report of ${final.call_id} to ${args.report.value}`)
        }
      }),
      // the service may answer before the file is all sent (a wrong key, a file too large)
      "fetch"
    )
).pipe(Command.withDescription("Upload a call recording for analysis (a tenant key); --wait to follow it to the end"))

const status = Command.make(
  "status",
  { callId: callIdArg, wait: waitOption, timeout: timeoutOption, json: jsonOption, ...connection },
  (args) =>
    withClient(
      args,
      Effect.gen(function* () {
        const timeoutMs = yield* positiveTimeout(args.timeout)
        const current = args.wait
          ? yield* waitFor(args.callId, args.json, timeoutMs)
          : yield* api((c) => c.getAnalysis(args.callId))
        yield* args.json ? printJson(current) : Console.log(describeStatus(current))
        yield* failIfFailed(current.status, current.call_id, current.error)
      })
    )
).pipe(Command.withDescription("The status of an analysis: queued, processing (with its stage), completed or failed"))

const report = Command.make(
  "report",
  {
    callId: callIdArg,
    output: Options.file("output").pipe(
      Options.withPseudoName("FILE"),
      Options.withAlias("o"),
      Options.optional,
      Options.withDescription("Write the report to FILE instead of stdout")
    ),
    ...connection
  },
  (args) =>
    withClient(
      args,
      Effect.gen(function* () {
        const html = yield* Effect.flatMap(AudioClient, (c) =>
          c.getReportHtml(args.callId).pipe(
            // 409: no report yet, or none ever; the status tells which
            Effect.catchAll((e): Effect.Effect<never, unknown> =>
              e._tag === "Conflict"
                ? Effect.flatMap(c.getAnalysis(args.callId), (s): Effect.Effect<never, unknown> =>
                  s.status === "failed"
                    ? Effect.fail(new AnalysisFailed({ message: `${failedMessage(s.call_id, s.error)}; it has no report` }))
                    : Effect.fail(e))
                : Effect.fail(e)
            )
          )
        ).pipe(
          Effect.catchAll((e): Effect.Effect<never, AnalysisFailed | UsageError | ServiceError> =>
            e instanceof AnalysisFailed ? Effect.fail(e) : fromClientError(e)
          )
        )
        if (Option.isNone(args.output)) return yield* writeStdout(html)
        yield* writeFile(args.output.value, html)
        yield* Console.error(`Wrote the report of ${args.callId} to ${args.output.value}`)
      })
    )
).pipe(Command.withDescription("The HTML evidence report of a completed call, on stdout or with -o to a file"))

const result = Command.make(
  "result",
  { callId: callIdArg, json: jsonOption, ...connection },
  (args) =>
    withClient(
      args,
      Effect.gen(function* () {
        const analysis = yield* api((c) => c.getCall(args.callId))
        yield* args.json ? printJson(analysis) : Console.log(describeAnalysis(analysis))
        yield* failIfFailed(analysis.status, analysis.call_id, analysis.error)
      })
    )
).pipe(
  Command.withDescription(
    "The whole analysis of a call (speakers, turns, metrics, scorecard, evidence, transcript); --json for all of it as JSON"
  )
)

export const audioCommands = [upload, status, report, result] as const
