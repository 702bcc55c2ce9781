/**
 * `callsight audit ...`: the Team Closing Audit (docs/closing-audit.md), with a tenant key
 * (`--api-key` or `CALLSIGHT_API_KEY`):
 * - `create (--call CALL_ID... | --last-per-closer N) [--title T] [--idempotency-key K] [--json]`: audit
 *   the calls named, or the last N of each closer; charged CLOSING_AUDIT_CREDITS credits once
 * - `list [--limit N] [--json]`: the tenant's audits, newest first
 * - `show AUDIT_ID [--json]`: the team's pattern, the closers, the three changes
 * - `report AUDIT_ID [-o FILE]`: the executive report as HTML
 * - `pdf AUDIT_ID -o FILE`: the executive report as PDF
 */
import { CallId, type ClosingAudit, ClosingAuditId } from "@callsight/api-spec"
import { Args, Command, Options } from "@effect/cli"
import { FileSystem } from "@effect/platform"
import { Console, Effect, Option } from "effect"
import { ClosingAuditsClientApi } from "./Apis.js"
import { apiKeyOption, jsonOption, urlOption, withTenantApi } from "./Connection.js"
import { UsageError } from "./Errors.js"
import { group } from "./Help.js"
import { printJson } from "./Output.js"

const connection = { url: urlOption, apiKey: apiKeyOption, json: jsonOption }
const auditIdArg = Args.text({ name: "AUDIT_ID" }).pipe(Args.withDescription("The audit (cla_...)"))
const idOf = (id: string) => ClosingAuditId.make(id, true)

const one = (x: number | null) => (x === null ? "-" : x.toFixed(1))

/** The audit in words: the changes first, then the team's pattern and each closer. */
const describeAudit = (a: ClosingAudit) => {
  const lines = [
    `${a.audit_id}  ${a.title}  (${a.created_at})`,
    `${a.call_list.length} calls, ${a.team.closers} closers; mean overall ${one(a.team.overall.mean)} (SD ${one(a.team.overall.sd)}); ` +
    `${a.credits_charged} credits` + (a.calls_removed > 0 ? `; ${a.calls_removed} call(s) deleted since` : ""),
    "",
    "The three changes that would move the most deals:"
  ]
  if (a.changes.length === 0) lines.push(`  none: every dimension at ${a.target} or above in every call`)
  for (const c of a.changes) {
    lines.push(`  ${c.rank}. ${c.label} (+${one(c.points)} points; ${c.calls_affected} calls, ${c.closers_affected} closers): ${c.advice}`)
    for (const q of c.quotes) lines.push(`     "${q.quote}" (${q.call_id} at ${Math.round(q.start)} s)`)
  }
  lines.push("", "The team's pattern (mean, SD, calls under target):")
  for (const d of a.team.dimensions) lines.push(`  ${d.label}: ${one(d.mean)}  SD ${one(d.sd)}  ${d.below_target.length}/${d.calls}`)
  lines.push(`  well: ${a.team.strengths.map((f) => `${f.label} ${one(f.mean)}`).join(", ")}`)
  lines.push(`  badly: ${a.team.weaknesses.map((f) => `${f.label} ${one(f.mean)}`).join(", ")}`)
  lines.push("", "Closers:")
  for (const c of a.closers) {
    lines.push(`  ${c.closer_email ?? "(no closer)"}${c.full_name === null ? "" : ` (${c.full_name})`}: ${c.calls} calls, overall ${one(c.overall.mean)}`)
    lines.push(`    strengths: ${c.strengths.map((f) => `${f.label} ${one(f.mean)}`).join(", ") || "-"}`)
    lines.push(`    gaps: ${c.gaps.map((f) => `${f.label} ${one(f.mean)}`).join(", ") || "-"}`)
  }
  lines.push("", `Report: ${a.report_url}`, `PDF: ${a.pdf_url}`)
  return lines.join("\n")
}

const create = Command.make(
  "create",
  {
    calls: Options.text("call").pipe(
      Options.withPseudoName("CALL_ID"),
      Options.repeated,
      Options.withDescription("A completed call to audit (repeat, up to 30); or --last-per-closer")
    ),
    lastPerCloser: Options.integer("last-per-closer").pipe(
      Options.withPseudoName("N"),
      Options.optional,
      Options.withDescription("Audit the last N completed calls of each closer (1-30)")
    ),
    title: Options.text("title").pipe(Options.withPseudoName("TEXT"), Options.optional, Options.withDescription("The report's title")),
    idempotencyKey: Options.text("idempotency-key").pipe(
      Options.withPseudoName("KEY"),
      Options.optional,
      Options.withDescription("Send the same key again to get the same audit, charged once")
    ),
    ...connection
  },
  (args) =>
    Effect.gen(function* () {
      const audit = yield* withTenantApi(ClosingAuditsClientApi, args, (c) =>
        c.closingAudits.createClosingAudit({
          headers: { "idempotency-key": Option.getOrUndefined(args.idempotencyKey) },
          payload: {
            call_ids: args.calls.length === 0 ? undefined : args.calls.map((id) => CallId.make(id, true)),
            last_per_closer: Option.getOrUndefined(args.lastPerCloser),
            title: Option.getOrUndefined(args.title)
          }
        }))
      if (args.json) return yield* printJson(audit)
      yield* Console.log(describeAudit(audit))
    })
).pipe(Command.withDescription("Audit calls (--call ... or --last-per-closer N): the team's pattern, each closer, the three changes; charged once"))

const list = Command.make(
  "list",
  {
    limit: Options.integer("limit").pipe(Options.withPseudoName("N"), Options.withDefault(50), Options.withDescription("How many, newest first (1-200; default 50)")),
    ...connection
  },
  (args) =>
    Effect.gen(function* () {
      const answer = yield* withTenantApi(ClosingAuditsClientApi, args, (c) => c.closingAudits.listClosingAudits({ urlParams: { limit: args.limit } }))
      if (args.json) return yield* printJson(answer)
      yield* Console.log(
        answer.audits.length === 0
          ? "No closing audits."
          : answer.audits.map((a) => `${a.audit_id}  ${a.created_at}  ${a.calls} calls  ${a.credits_charged} credits  ${a.title}`).join("\n")
      )
    })
).pipe(Command.withDescription("The tenant's closing audits, newest first"))

const show = Command.make("show", { auditId: auditIdArg, ...connection }, (args) =>
  Effect.gen(function* () {
    const audit = yield* withTenantApi(ClosingAuditsClientApi, args, (c) => c.closingAudits.getClosingAudit({ path: { audit_id: idOf(args.auditId) } }))
    if (args.json) return yield* printJson(audit)
    yield* Console.log(describeAudit(audit))
  })).pipe(Command.withDescription("A closing audit's figures"))

const outputOption = (description: string) =>
  Options.file("output").pipe(Options.withPseudoName("FILE"), Options.withAlias("o"), Options.withDescription(description))

const writeBytes = (path: string, bytes: Uint8Array | string) =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => (typeof bytes === "string" ? fs.writeFileString(path, bytes) : fs.writeFile(path, bytes))).pipe(
    Effect.mapError((e) => new UsageError({ message: `cannot write ${path}: ${e.message}` }))
  )

const report = Command.make(
  "report",
  { auditId: auditIdArg, output: outputOption("Write the HTML to FILE instead of stdout").pipe(Options.optional), url: urlOption, apiKey: apiKeyOption },
  (args) =>
    Effect.gen(function* () {
      const html = yield* withTenantApi(ClosingAuditsClientApi, args, (c) =>
        c.closingAudits.getClosingAuditReport({ path: { audit_id: idOf(args.auditId) } }))
      if (Option.isNone(args.output)) return yield* Console.log(html)
      yield* writeBytes(args.output.value, html)
      yield* Console.error(`Wrote the report of ${args.auditId} to ${args.output.value}`)
    })
).pipe(Command.withDescription("A closing audit's executive report as HTML, on stdout or with -o to a file"))

const pdf = Command.make(
  "pdf",
  { auditId: auditIdArg, output: outputOption("Where to write the PDF"), url: urlOption, apiKey: apiKeyOption },
  (args) =>
    Effect.gen(function* () {
      const bytes = yield* withTenantApi(ClosingAuditsClientApi, args, (c) =>
        c.closingAudits.getClosingAuditPdf({ path: { audit_id: idOf(args.auditId) } }))
      yield* writeBytes(args.output, bytes)
      yield* Console.error(`Wrote the PDF of ${args.auditId} to ${args.output} (${bytes.length} bytes)`)
    })
).pipe(Command.withDescription("A closing audit's executive report as PDF, written to -o FILE"))

export const audit = group("audit", "The Team Closing Audit: the team's pattern across calls, each closer, the three changes (needs a tenant key)", [
  create,
  list,
  show,
  report,
  pdf
])
