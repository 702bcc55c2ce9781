/**
 * Each signed-in user's coaching: the steps (welcome, oath, wiki, and for owners and admins a
 * manual audit), the wiki's articles with the user's reading, and the record of that reading.
 *
 * - The welcome is done once; completing it again answers the status and changes nothing.
 * - The oath is signed once, kept with the signer (the user and the name they signed with), the
 *   commitments and the time; signing again is 409.
 * - Reading progress only goes up (the highest reported is kept); 100 completes the article, and
 *   the first completion is the one kept. The wiki step is done when every article is read.
 * - `completion_pct` is the user's steps done of their steps; `next_step` the first not done.
 *
 * Audit rows: `coaching.welcome_completed`, `coaching.oath_signed`, `wiki_article.completed`
 * (reading below 100 is not a change of the account: no row).
 */
import {
  type ArticleProgressRequest,
  type CoachingStatus,
  Conflict,
  NotFound,
  type OathCompleteRequest,
  type WikiArticle,
  type WikiSectionList
} from "@callsight/api-spec"
import { Effect, Option } from "effect"
import { Transactions } from "../db/Transactions.js"
import { AuditLog } from "../tenancy/AuditLog.js"
import type { Caller } from "../tenancy/Caller.js"
import { Wiki } from "../views/Wiki.js"
import { CoachingRepo, type Progress } from "./CoachingRepo.js"

const STEP_LABELS = {
  welcome: "Finish the coaching welcome",
  oath: "Sign the coaching oath",
  wiki: "Read every article of the wiki",
  manual_audit: "Audit a call by hand, beside the machine"
} as const

export class Coaching extends Effect.Service<Coaching>()("Coaching", {
  effect: Effect.gen(function* () {
    const repo = yield* CoachingRepo
    const wiki = yield* Wiki
    const audit = yield* AuditLog
    const transactions = yield* Transactions

    const slugs = new Set(wiki.articles.map((a) => a.slug))

    /** The user's reading of the wiki's articles (articles no longer in the wiki left out), by slug. */
    const readingOf = (caller: Caller) =>
      Effect.map(
        repo.progress(caller.clientId, caller.user.userId),
        (rows) => new Map(rows.filter((r) => slugs.has(r.slug)).map((r) => [r.slug, r]))
      )

    const articlesRead = (reading: ReadonlyMap<string, Progress>) => [...reading.values()].filter((r) => r.completed_at !== null)

    const status = Effect.fn("Coaching.status")(function* (caller: Caller) {
      const { clientId, user } = caller
      const [onboarding, reading, audits] = yield* Effect.all([
        repo.onboarding(clientId, user.userId),
        readingOf(caller),
        repo.auditsBy(clientId, user.userId)
      ])
      const row = Option.getOrNull(onboarding)
      const read = articlesRead(reading)
      const total = wiki.articles.length
      const wikiDone = total > 0 && read.length === total
      const lastRead = read.map((r) => r.completed_at!).sort().at(-1) ?? null
      const steps = [
        { step: "welcome" as const, at: row?.welcome_completed_at ?? null },
        { step: "oath" as const, at: row?.oath_signed_at ?? null },
        { step: "wiki" as const, at: wikiDone ? lastRead : null },
        // members do not audit: the step is for owners and admins
        ...(user.role === "member" ? [] : [{ step: "manual_audit" as const, at: audits.first_at }])
      ]
      const done = steps.filter((s) => s.at !== null).length
      return {
        user_id: user.userId,
        welcome_completed: row?.welcome_completed_at != null,
        welcome_completed_at: row?.welcome_completed_at ?? null,
        oath_signed: row?.oath_signed_at != null,
        oath: row?.oath_signed_at != null
          ? { signature_name: row.oath_signature_name!, commitments: row.oath_commitments!, signed_at: row.oath_signed_at }
          : null,
        articles_read: read.length,
        articles_total: total,
        manual_audits: audits.audits,
        steps: steps.map((s) => ({ step: s.step, label: STEP_LABELS[s.step], done: s.at !== null, done_at: s.at })),
        completion_pct: Math.round((100 * done) / steps.length),
        next_step: steps.find((s) => s.at === null)?.step ?? null
      } satisfies typeof CoachingStatus.Type
    }, Effect.catchTag("SqlError", Effect.die))

    const completeWelcome = Effect.fn("Coaching.completeWelcome")(function* (caller: Caller) {
      yield* transactions.run(
        Effect.gen(function* () {
          const done = yield* repo.completeWelcome(caller.clientId, caller.user.userId)
          if (Option.isSome(done)) {
            yield* audit.record(caller.clientId, caller.actor, {
              action: "coaching.welcome_completed",
              targetType: "user",
              targetId: caller.user.userId
            })
          }
        })
      )
      return yield* status(caller)
    }, Effect.catchTag("SqlError", Effect.die))

    const completeOath = Effect.fn("Coaching.completeOath")(function* (caller: Caller, req: OathCompleteRequest) {
      yield* transactions.run(
        Effect.gen(function* () {
          const signed = yield* repo.signOath(caller.clientId, caller.user.userId, req.signature_name, req.commitments)
          if (Option.isNone(signed)) {
            const first = Option.getOrNull(yield* repo.onboarding(caller.clientId, caller.user.userId))
            return yield* new Conflict({
              message: `the oath is signed already (by ${first?.oath_signature_name ?? "you"}, ${first?.oath_signed_at ?? "before"}): ` +
                "it is signed once"
            })
          }
          yield* audit.record(caller.clientId, caller.actor, {
            action: "coaching.oath_signed",
            targetType: "user",
            targetId: caller.user.userId,
            metadata: { signature_name: req.signature_name, commitments: req.commitments.length }
          })
        })
      )
      return yield* status(caller)
    }, Effect.catchTag("SqlError", Effect.die))

    const sections = Effect.fn("Coaching.sections")(function* (caller: Caller) {
      const reading = yield* readingOf(caller)
      return {
        sections: wiki.sections.map((s) => ({
          section_id: s.section_id,
          title: s.title,
          description: s.description,
          position: s.position,
          articles: s.articles.map((a) => ({
            slug: a.slug,
            title: a.title,
            summary: a.summary,
            reading_minutes: a.reading_minutes,
            dimensions: a.dimensions,
            progress_pct: reading.get(a.slug)?.progress_pct ?? 0,
            completed: reading.get(a.slug)?.completed_at != null
          }))
        })),
        articles_read: articlesRead(reading).length,
        articles_total: wiki.articles.length
      } satisfies typeof WikiSectionList.Type
    }, Effect.catchTag("SqlError", Effect.die))

    const unknownArticle = (slug: string) => new NotFound({ message: `no wiki article ${slug}` })

    const article = Effect.fn("Coaching.article")(function* (caller: Caller, slug: string) {
      const found = wiki.find(slug)
      if (found === undefined) return yield* unknownArticle(slug)
      const reading = (yield* readingOf(caller)).get(slug)
      const a = found.article
      return {
        slug: a.slug,
        title: a.title,
        section_id: a.section_id,
        section_title: a.section_title,
        summary: a.summary,
        body_markdown: a.body_markdown,
        reading_minutes: a.reading_minutes,
        dimensions: a.dimensions,
        metrics: a.metrics,
        progress_pct: reading?.progress_pct ?? 0,
        completed_at: reading?.completed_at ?? null,
        previous_slug: found.previous_slug,
        next_slug: found.next_slug,
        updated_at: a.updated_at
      } satisfies typeof WikiArticle.Type
    }, Effect.catchTag("SqlError", Effect.die))

    const recordProgress = Effect.fn("Coaching.recordProgress")(function* (caller: Caller, req: ArticleProgressRequest) {
      if (wiki.find(req.slug) === undefined) return yield* unknownArticle(req.slug)
      const row = yield* transactions.run(
        Effect.gen(function* () {
          const saved = yield* repo.recordProgress(caller.clientId, caller.user.userId, req.slug, req.progress_pct)
          if (saved.completed_now) {
            yield* audit.record(caller.clientId, caller.actor, {
              action: "wiki_article.completed",
              targetType: "wiki_article",
              targetId: req.slug
            })
          }
          return saved
        })
      )
      const reading = yield* readingOf(caller)
      return {
        slug: row.slug,
        progress_pct: row.progress_pct,
        completed: row.completed_at !== null,
        completed_at: row.completed_at,
        updated_at: row.updated_at,
        articles_read: articlesRead(reading).length,
        articles_total: wiki.articles.length
      }
    }, Effect.catchTag("SqlError", Effect.die))

    return { status, completeWelcome, completeOath, sections, article, recordProgress } as const
  }),
  dependencies: [CoachingRepo.Default, Wiki.Default, AuditLog.Default, Transactions.Default]
}) {}
