/**
 * `callsight trends [--period week|month] [--periods N] [--since D] [--until D] [--closer EMAIL] [--json]`:
 * the trends of the calls the stored portal session sees (docs/trends.md; `callsight login`, then
 * `verify`): per period, for the team and per closer, calls, objections by kind, competitors, pains,
 * next steps and scores, and the notable changes between the last two periods.
 */
import { Command, Options } from "@effect/cli"
import { TRENDS_PERIODS_MAX } from "@callsight/api-spec"
import { Console, Effect, Option } from "effect"
import { TrendsClientApi } from "./Apis.js"
import { jsonOption, sessionClient, urlOption } from "./Connection.js"
import { fromClientError, UsageError } from "./Errors.js"
import { printJson } from "./Output.js"
import { storedSession } from "./Session.js"

const optionalText = (name: string, pseudo: string, description: string) =>
  Options.text(name).pipe(Options.withPseudoName(pseudo), Options.optional, Options.withDescription(description))

const fmt = (x: number | null) => (x === null ? "-" : Number.isInteger(x) ? String(x) : x.toFixed(1))

export const trends = Command.make(
  "trends",
  {
    period: Options.choice("period", ["week", "month"] as const).pipe(
      Options.withDefault("week" as const),
      Options.withDescription("Periods counted: week (from Monday, UTC; default) or month")
    ),
    periods: Options.integer("periods").pipe(Options.withPseudoName("N"), Options.withDefault(6), Options.withDescription("The last N periods (1-26; default 6)")),
    since: optionalText("since", "DATE", "From the period holding this day or instant (instead of --periods)"),
    until: optionalText("until", "DATE", "Calls before this day or instant (default: now)"),
    closer: optionalText("closer", "EMAIL", "One closer's calls only"),
    url: urlOption,
    json: jsonOption
  },
  (args) =>
    Effect.gen(function* () {
      // the typed client checks the query before sending it: say what is wrong in the command's words
      if (args.periods < 1 || args.periods > TRENDS_PERIODS_MAX) {
        return yield* new UsageError({ message: `--periods must be between 1 and ${TRENDS_PERIODS_MAX} (got ${args.periods})` })
      }
      const { session } = yield* storedSession(args.url)
      const client = yield* sessionClient(TrendsClientApi, args.url, session.session)
      const answer = yield* client.trends.getTrends({
        urlParams: {
          period: args.period,
          periods: args.periods,
          since: Option.getOrUndefined(args.since),
          until: Option.getOrUndefined(args.until),
          closer_email: Option.getOrUndefined(args.closer)
        }
      }).pipe(Effect.catchAll(fromClientError))
      if (args.json) return yield* printJson(answer)
      const lines = [`Trends by ${answer.period}, ${answer.from} to ${answer.to}:`, ""]
      lines.push(["period     ", "calls", "objections", "competitors", "pains", "steps", "dated", "kept", "slipped", "score"].join("  "))
      for (const p of answer.team.periods) {
        const s = p.next_steps
        lines.push([
          p.period_start,
          String(p.calls.count).padStart(5),
          String(p.objections.count).padStart(10),
          String(p.competitors.count).padStart(11),
          String(p.pains.count).padStart(5),
          String(s.said.count).padStart(5),
          String(s.dated.count).padStart(5),
          fmt(s.kept?.count ?? null).padStart(4),
          fmt(s.slipped?.count ?? null).padStart(7),
          fmt(p.overall_score.average).padStart(5)
        ].join("  "))
      }
      const last = answer.team.periods.at(-1)
      if (last !== undefined) {
        const kinds = last.objections_by_kind.filter((k) => k.count > 0).map((k) => `${k.kind} ${k.count}`)
        lines.push("", `Objections in the last ${answer.period}: ${kinds.join(", ") || "none"}`)
        const terms = last.competitors_by_term.map((t) => `${t.term} ${t.count}`)
        lines.push(`Competitors in the last ${answer.period}: ${terms.join(", ") || "none"}`)
      }
      const notable = answer.team.changes.filter((c) => c.notable)
      lines.push("", notable.length === 0 ? "No notable change." : "Notable changes:")
      for (const c of notable) lines.push(`  ${c.sentence} (calls: ${c.to_call_ids.slice(0, 5).join(", ")}${c.to_call_ids.length > 5 ? ", ..." : ""})`)
      if (answer.closers.length > 1) {
        lines.push("", "Per closer (calls, objections, average score per period):")
        for (const k of answer.closers) {
          lines.push(`  ${k.closer_email ?? "(no closer)"}: ` +
            k.periods.map((p) => `${p.calls.count}/${p.objections.count}/${fmt(p.overall_score.average)}`).join("  "))
        }
      }
      yield* Console.log(lines.join("\n"))
    })
).pipe(Command.withDescription("Objections, competitors, pains, next steps and scores per period, team and closer, with the notable changes (needs `callsight login`)"))
