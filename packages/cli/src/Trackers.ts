/**
 * `callsight trackers ...`: the tenant's trackers (docs/trackers.md), with the stored portal session
 * (`callsight login`, then `verify`):
 * - `list [--json]`: the trackers, the Competitors tracker from the market profile first
 * - `add NAME --term T... [--kind K] [--json]`: a tracker (owners and admins), matched at once on the newest calls
 * - `remove TRACKER_ID [--json]` (owners and admins)
 * - `report [--from D] [--to D] [--period day|week|month] [--tracker ID] [--closer EMAIL] [--quotes N] [--limit N] [--cursor C] [--json]`:
 *   mentions per tracker and term, closer and period, and the calls with their quotes
 */
import { TrackerId, TrackerKind } from "@callsight/api-spec"
import { Args, Command, Options } from "@effect/cli"
import { Console, Effect, Option } from "effect"
import { TrackersClientApi } from "./Apis.js"
import { jsonOption, sessionClient, urlOption } from "./Connection.js"
import { fromClientError } from "./Errors.js"
import { group } from "./Help.js"
import { printJson } from "./Output.js"
import { storedSession } from "./Session.js"

const connection = { url: urlOption, json: jsonOption }

const makeClient = (url: string) =>
  Effect.flatMap(storedSession(url), ({ session }) => sessionClient(TrackersClientApi, url, session.session))
type TrackersClient = Effect.Effect.Success<ReturnType<typeof makeClient>>

/** Runs `f` with the trackers' client on the stored session; failures classified for the exit code. */
const withTrackers = <A, E>(url: string, f: (client: TrackersClient) => Effect.Effect<A, E>) =>
  Effect.gen(function* () {
    const c = yield* makeClient(url)
    return yield* f(c).pipe(Effect.catchAll(fromClientError))
  })

interface TrackerLine {
  readonly tracker_id: string
  readonly name: string
  readonly kind: string
  readonly source: string
  readonly terms: ReadonlyArray<string>
}

const describeTracker = (t: TrackerLine) =>
  `${t.tracker_id}  ${t.name}  (${t.kind}${t.source === "market_profile" ? ", from the market profile" : ""})\n  terms: ${t.terms.join(", ") || "none"}`

const list = Command.make("list", connection, (args) =>
  Effect.gen(function* () {
    const answer = yield* withTrackers(args.url, (c) => c.trackers.listTrackers())
    if (args.json) return yield* printJson(answer)
    yield* Console.log(answer.trackers.length === 0 ? "No trackers." : answer.trackers.map(describeTracker).join("\n"))
  })).pipe(Command.withDescription("The tenant's trackers"))

const add = Command.make(
  "add",
  {
    name: Args.text({ name: "NAME" }).pipe(Args.withDescription("The tracker's name")),
    terms: Options.text("term").pipe(
      Options.withPseudoName("TERM"),
      Options.repeated,
      Options.withDescription("A word or a phrase (repeat for several; in double quotes: without stemming)")
    ),
    kind: Options.choice("kind", TrackerKind.literals).pipe(Options.withDefault("custom" as const), Options.withDescription("What it tracks (default custom)")),
    ...connection
  },
  (args) =>
    Effect.gen(function* () {
      const saved = yield* withTrackers(args.url, (c) =>
        c.trackers.createTracker({ payload: { name: args.name, kind: args.kind, terms: [...args.terms] } }))
      if (args.json) return yield* printJson(saved)
      yield* Console.log(
        `${describeTracker(saved.tracker)}\n  matched on ${saved.backfill.calls_matched} calls` +
          (saved.backfill.calls_left > 0 ? ` (${saved.backfill.calls_left} older calls left unmatched)` : "")
      )
    })
).pipe(Command.withDescription("Create a tracker (owners and admins); it is matched at once on the newest completed calls"))

const remove = Command.make(
  "remove",
  { trackerId: Args.text({ name: "TRACKER_ID" }).pipe(Args.withDescription("The tracker (trk_...)")), ...connection },
  (args) =>
    Effect.gen(function* () {
      const removed = yield* withTrackers(args.url, (c) => c.trackers.deleteTracker({ path: { tracker_id: TrackerId.make(args.trackerId, true) } }))
      if (args.json) return yield* printJson(removed)
      yield* Console.log(`Removed ${removed.tracker_id} (${removed.name}).`)
    })
).pipe(Command.withDescription("Delete a tracker and its mentions (owners and admins)"))

const optionalText = (name: string, pseudo: string, description: string) =>
  Options.text(name).pipe(Options.withPseudoName(pseudo), Options.optional, Options.withDescription(description))

const report = Command.make(
  "report",
  {
    from: optionalText("from", "DATE", "Calls whose meeting took place from (YYYY-MM-DD or ISO date-time; default: 90 days before --to)"),
    to: optionalText("to", "DATE", "Calls made before (default: now)"),
    period: Options.choice("period", ["day", "week", "month"] as const).pipe(Options.withDefault("week" as const), Options.withDescription("Periods counted (default week)")),
    tracker: optionalText("tracker", "TRACKER_ID", "One tracker only"),
    closer: optionalText("closer", "EMAIL", "One closer's calls only"),
    deal: optionalText("deal", "DEAL_ID", "One deal's calls only (deal_id)"),
    quotes: Options.integer("quotes").pipe(Options.withPseudoName("N"), Options.withDefault(3), Options.withDescription("Quotes per count (0-20; default 3)")),
    limit: Options.integer("limit").pipe(Options.withPseudoName("N"), Options.withDefault(50), Options.withDescription("Calls per page (1-200; default 50)")),
    cursor: optionalText("cursor", "C", "The next page (next_cursor of the previous one)"),
    ...connection
  },
  (args) =>
    Effect.gen(function* () {
      const answer = yield* withTrackers(args.url, (c) =>
        c.trackers.getTrackerReport({
          urlParams: {
            from: Option.getOrUndefined(args.from),
            to: Option.getOrUndefined(args.to),
            period: args.period,
            tracker_id: Option.getOrUndefined(Option.map(args.tracker, (id) => TrackerId.make(id, true))),
            closer_email: Option.getOrUndefined(args.closer),
            deal_id: Option.getOrUndefined(args.deal),
            quotes: args.quotes,
            limit: args.limit,
            cursor: Option.getOrUndefined(args.cursor)
          }
        }))
      if (args.json) return yield* printJson(answer)
      const lines = [`Mentions from ${answer.from} to ${answer.to}, by ${answer.period}:`]
      for (const t of answer.trackers) {
        lines.push("", `${t.name} (${t.kind}): ${t.mentions} mentions in ${t.calls} calls`)
        for (const term of t.terms) lines.push(`  ${term.term}: ${term.mentions} in ${term.calls} calls`)
        for (const c of t.closers) lines.push(`  closer ${c.closer_email ?? "(none)"}: ${c.mentions}`)
        for (const d of t.deals) lines.push(`  deal ${d.deal_id}: ${d.mentions}`)
        for (const p of t.periods) lines.push(`  ${answer.period} of ${p.period_start}: ${p.mentions}`)
        for (const q of t.quotes) lines.push(`  "${q.quote}" (${q.call_id} at ${Math.round(q.start)} s, ${q.role ?? q.speaker})`)
      }
      if (answer.calls.length > 0) {
        lines.push("", "Calls:")
        for (const c of answer.calls) {
          lines.push(`  ${c.call_id}  ${c.meeting_at}  ${c.closer_email ?? "-"}  ${c.mentions} mentions: ` +
            c.trackers.map((t) => `${t.term} ${t.mentions}`).join(", "))
        }
      }
      if (answer.next_cursor !== null) lines.push("", `More calls: --cursor ${answer.next_cursor}`)
      yield* Console.log(lines.join("\n"))
    })
).pipe(Command.withDescription("Mentions per tracker and term, closer and period, with the calls and quotes behind them"))

export const trackers = group("trackers", "The tenant's trackers of words and phrases (needs `callsight login`)", [list, add, remove, report])
