/**
 * Coaching (spec 4.5), in-process, signed in through a real SMTP server: the steps (welcome, oath,
 * wiki, manual audit), the dashboard over a tenant whose calls, scorecards, audits and outcomes
 * are seeded with known values (every figure asserted), manual audits with their gaps, and the
 * wiki: its Markdown checked against the module the build carries, reading minutes from the text,
 * progress that never goes down. Every read is also made by another tenant; bad input is 422.
 */
import { describe, expect, it as plain, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { countWords, loadWiki, parseFrontMatter, readingMinutes } from "../src/views/Wiki.js"
import { articleFiles, sectionsJson } from "../src/views/WikiFiles.generated.js"
import { call, freshEmail, memberSession, newTenant } from "./utils/PortalRequests.js"
import { serverWithSmtp, Smtp } from "./utils/SmtpServerLayer.js"
import { seedCloser, seedWeekCall } from "./utils/SeedCalls.js"

const WIKI_DIR = fileURLToPath(new URL("../src/views/wiki/", import.meta.url))

// ---------------------------------------------------------------------------------------------
// The wiki as the repository holds it, read here without the server's loader
// ---------------------------------------------------------------------------------------------

interface FileArticle {
  readonly slug: string
  readonly section: string
  readonly title: string
  readonly dimensions: ReadonlyArray<string>
  readonly position: number
  readonly body: string
}

const markdownFiles = () => readdirSync(WIKI_DIR).filter((f) => f.endsWith(".md")).sort()

const fileArticles = (): Array<FileArticle> =>
  markdownFiles().map((file) => {
    const text = readFileSync(join(WIKI_DIR, file), "utf8")
    const [, head, body] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text)!
    const field = (key: string) => new RegExp(`^${key}:\\s*(.*)$`, "m").exec(head!)![1]!.trim()
    return {
      slug: field("slug"),
      section: field("section"),
      title: field("title"),
      dimensions: field("dimensions").replace(/[[\]]/g, "").split(",").map((d) => d.trim()).filter((d) => d !== ""),
      position: Number(field("position")),
      body: body!
    }
  })

const sectionsFile = (): Array<{ section_id: string; title: string; position: number }> =>
  JSON.parse(readFileSync(join(WIKI_DIR, "sections.json"), "utf8"))

/** The articles in reading order: sections by position, then articles by position and slug. */
const readingOrder = () => {
  const sections = sectionsFile().sort((a, b) => a.position - b.position)
  const articles = fileArticles()
  return sections.flatMap((s) =>
    articles.filter((a) => a.section === s.section_id).sort((a, b) => a.position - b.position || a.slug.localeCompare(b.slug))
  )
}

/** The article that teaches a dimension: lowest position, then earlier section, then slug. */
const teaching = (dimension: string) => {
  const sectionPosition = new Map(sectionsFile().map((s) => [s.section_id, s.position]))
  return fileArticles()
    .filter((a) => a.dimensions.includes(dimension))
    .sort((a, b) =>
      a.position - b.position || sectionPosition.get(a.section)! - sectionPosition.get(b.section)! || a.slug.localeCompare(b.slug)
    )[0]!
}

/** Reading minutes from an article's text, counted here: words holding a letter or digit, 200 a minute. */
const minutesOf = (body: string) => {
  const words = body.split(/\s+/).filter((t) => /[A-Za-z0-9\u00C0-\u024F]/.test(t)).length
  return Math.max(1, Math.ceil(words / 200))
}

// ---------------------------------------------------------------------------------------------
// Seeding
// ---------------------------------------------------------------------------------------------

/**
 * A call of the tenant as the worker leaves it, completed on the Tuesday of the week `weeksAgo`
 * Monday weeks ago (UTC), with that overall score and those dimension scores (`null`: not
 * assessed). `status` other than completed leaves the result out.
 */
const seedCall = seedWeekCall

const auditActions = (clientId: string, prefixes: ReadonlyArray<string>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ action: string; target_id: string | null; actor: string }>`
      SELECT action, target_id, actor FROM audit_logs WHERE client_id = ${clientId} ORDER BY at, log_id`
  ).pipe(Effect.map((rows) => rows.filter((r) => prefixes.some((p) => r.action.startsWith(p)))), Effect.orDie)

/** The Monday (YYYY-MM-DD, UTC) `weeksAgo` weeks before this one. */
const mondayOf = (weeksAgo: number) => {
  const now = new Date()
  const day = (now.getUTCDay() + 6) % 7
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - day - 7 * weeksAgo)).toISOString().slice(0, 10)
}

const createdAtOf = (callId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ created_at: Date }>`SELECT created_at FROM calls WHERE call_id = ${callId}`).pipe(
    Effect.map((rows) => rows[0]!.created_at.toISOString()),
    Effect.orDie
  )

// ---------------------------------------------------------------------------------------------
// The wiki's content, without a server
// ---------------------------------------------------------------------------------------------

describe("the wiki's content", () => {
  plain("every Markdown file of views/wiki is in the module the build carries, word for word", () => {
    expect(articleFiles.map((a) => a.file)).toEqual(markdownFiles())
    for (const a of articleFiles) expect(a.text, a.file).toBe(readFileSync(join(WIKI_DIR, a.file), "utf8"))
    expect(sectionsJson).toBe(readFileSync(join(WIKI_DIR, "sections.json"), "utf8"))
  })

  plain("the articles load: at least 12, in reading order, every section with articles", () => {
    const wiki = loadWiki(articleFiles, sectionsJson)
    expect(wiki.articles.length).toBeGreaterThanOrEqual(12)
    expect(wiki.articles.map((a) => a.slug)).toEqual(readingOrder().map((a) => a.slug))
    for (const section of wiki.sections) expect(section.articles.length, section.section_id).toBeGreaterThan(0)
    // every dimension of the scorecard has an article that teaches it
    for (const d of ["discovery", "listening", "objection_handling", "value", "next_steps", "conversation_flow"]) {
      expect(wiki.articles.some((a) => (a.dimensions as ReadonlyArray<string>).includes(d)), d).toBe(true)
    }
  })

  plain("front matter: the flat form, block lists, quotes; reading minutes from the body's words", () => {
    const { body, data } = parseFrontMatter(
      "---\nslug: a-b\nsection: discovery\ntitle: \"Ask: why?\"\nsummary: It's: fine\ndimensions:\n  - discovery\n  - listening\nmetrics: []\nposition: 3\n---\n\n## Hi\n\nSome words here.\n"
    )
    expect(data).toEqual({
      slug: "a-b",
      section: "discovery",
      title: "Ask: why?",
      summary: "It's: fine",
      dimensions: ["discovery", "listening"],
      metrics: [],
      position: 3
    })
    expect(body).toBe("## Hi\n\nSome words here.\n")
    // "##" and "-" are not words; "11–14" and "`question_count`" are
    expect(countWords("## What - it `question_count` 11–14 |")).toBe(4)
    expect(readingMinutes("")).toBe(1)
    expect(readingMinutes(Array(200).fill("word").join(" "))).toBe(1)
    expect(readingMinutes(Array(201).fill("word").join(" "))).toBe(2)
    expect(readingMinutes(Array(401).fill("word").join(" "))).toBe(3)
  })

  plain("broken content names its file: a slug not its file's name, an unknown section or dimension, no front matter", () => {
    const sections = JSON.stringify([{ section_id: "discovery", title: "D", description: "d", position: 1 }])
    const article = (head: string) => `---\n${head}\n---\nText.\n`
    const base = "section: discovery\ntitle: T\nsummary: S\ndimensions: [discovery]\nmetrics: []\nposition: 1"
    const load = (file: string, text: string) => () => loadWiki([{ file, text, updatedAt: new Date(0).toISOString() }], sections)
    expect(load("x.md", article(`slug: x\n${base}`))().articles[0]!.updated_at).toBe("1970-01-01T00:00:00.000Z")
    expect(load("y.md", article(`slug: x\n${base}`))).toThrow(/y\.md: its slug x is not its file's name/)
    expect(load("x.md", article(`slug: x\n${base.replace("section: discovery", "section: nope")}`))).toThrow(/x\.md: its section nope/)
    expect(load("x.md", article(`slug: x\n${base.replace("[discovery]", "[charisma]")}`))).toThrow(/x\.md/)
    expect(load("x.md", "no front matter")).toThrow(/x\.md: the text does not start with a front matter/)
  })
})

// ---------------------------------------------------------------------------------------------
// The operations
// ---------------------------------------------------------------------------------------------

describe("coaching", () => {
  layer(serverWithSmtp(), { excludeTestServices: true })("signed in", (it) => {
    it.effect("every operation needs a session: 401 without one", () =>
      Effect.gen(function* () {
        for (const path of ["/v1/coaching/status", "/v1/coaching/dashboard", "/v1/coaching/manual-audits", "/v1/coaching/wiki/sections"]) {
          expect((yield* call("GET", path)).status, path).toBe(401)
        }
        expect((yield* call("POST", "/v1/coaching/welcome/complete")).status).toBe(401)
      }))

    it.effect("the steps: welcome once, the oath signed once (409 again), every article read, a manual audit", () =>
      Effect.gen(function* () {
        const { clientId, session, userId } = yield* newTenant()
        const start = yield* call("GET", "/v1/coaching/status", { session })
        expect(start.status).toBe(200)
        const total = readingOrder().length
        expect(start.body).toEqual({
          user_id: userId,
          welcome_completed: false,
          welcome_completed_at: null,
          oath_signed: false,
          oath: null,
          articles_read: 0,
          articles_total: total,
          manual_audits: 0,
          steps: [
            { step: "welcome", label: "Finish the coaching welcome", done: false, done_at: null },
            { step: "oath", label: "Sign the coaching oath", done: false, done_at: null },
            { step: "wiki", label: "Read every article of the wiki", done: false, done_at: null },
            { step: "manual_audit", label: "Audit a call by hand, beside the machine", done: false, done_at: null }
          ],
          completion_pct: 0,
          next_step: "welcome"
        })

        const welcome = yield* call("POST", "/v1/coaching/welcome/complete", { session })
        expect(welcome.status).toBe(200)
        expect(welcome.body).toMatchObject({ welcome_completed: true, completion_pct: 25, next_step: "oath" })
        const at = welcome.body.welcome_completed_at
        expect(Date.parse(at)).toBeGreaterThan(Date.now() - 60_000)
        // again: nothing changes, the first time is kept
        const again = yield* call("POST", "/v1/coaching/welcome/complete", { session })
        expect(again.body.welcome_completed_at).toBe(at)
        expect(again.body.steps[0]).toEqual({ step: "welcome", label: "Finish the coaching welcome", done: true, done_at: at })

        const oath = { signature_name: "Ana Owner", commitments: ["I listen more than I talk", "I end every call with a dated next step"] }
        const signed = yield* call("POST", "/v1/coaching/oath/complete", { session, body: oath })
        expect(signed.status).toBe(200)
        expect(signed.body).toMatchObject({ oath_signed: true, completion_pct: 50, next_step: "wiki" })
        expect(signed.body.oath).toEqual({ ...oath, signed_at: expect.any(String) })
        const twice = yield* call("POST", "/v1/coaching/oath/complete", { session, body: { signature_name: "Someone Else", commitments: ["x"] } })
        expect(twice.status).toBe(409)
        expect(twice.body._tag).toBe("Conflict")
        expect((yield* call("GET", "/v1/coaching/status", { session })).body.oath).toEqual(signed.body.oath)

        // bad oaths change nothing
        const other = yield* newTenant()
        for (const body of [{ signature_name: "", commitments: ["x"] }, { signature_name: "A", commitments: [] }, { commitments: ["x"] }]) {
          const reply = yield* call("POST", "/v1/coaching/oath/complete", { session: other.session, body })
          expect(reply.status, JSON.stringify(body)).toBe(422)
        }
        expect((yield* call("GET", "/v1/coaching/status", { session: other.session })).body).toMatchObject({
          oath_signed: false,
          welcome_completed: false,
          completion_pct: 0
        })

        // every article read
        const slugs = readingOrder().map((a) => a.slug)
        for (const slug of slugs) {
          expect((yield* call("POST", "/v1/coaching/wiki/articles/progress", { session, body: { slug, progress_pct: 100 } })).status).toBe(200)
        }
        const read = (yield* call("GET", "/v1/coaching/status", { session })).body
        expect(read).toMatchObject({ articles_read: total, articles_total: total, completion_pct: 75, next_step: "manual_audit" })
        expect(read.steps[2].done).toBe(true)

        // a manual audit of a completed call
        const callId = yield* seedCall(clientId, { closerEmail: null, weeksAgo: 0, overall: 50, dims: { discovery: 50 } })
        const made = yield* call("POST", "/v1/coaching/manual-audits", { session, body: { call_id: callId, scores: { discovery: 60 }, notes: "" } })
        expect(made.status).toBe(200)
        const done = (yield* call("GET", "/v1/coaching/status", { session })).body
        expect(done).toMatchObject({ manual_audits: 1, completion_pct: 100, next_step: null })
        expect(done.steps[3]).toEqual({ step: "manual_audit", label: "Audit a call by hand, beside the machine", done: true, done_at: made.body.created_at })

        const rows = yield* auditActions(clientId, ["coaching.", "wiki_article.", "manual_audit."])
        expect(rows.map((r) => r.action)).toEqual([
          "coaching.welcome_completed",
          "coaching.oath_signed",
          ...slugs.map(() => "wiki_article.completed"),
          "manual_audit.created"
        ])
        expect(rows.every((r) => r.actor === userId)).toBe(true)
        expect(rows.slice(2, -1).map((r) => r.target_id)).toEqual(slugs)

        // another tenant's user is at the start
        expect((yield* call("GET", "/v1/coaching/status", { session: other.session })).body).toMatchObject({
          articles_read: 0,
          manual_audits: 0,
          next_step: "welcome"
        })
      }))

    it.effect("members keep their own steps (no manual audit among them); one who is no closer sees no call: no audit, none to make (404), an empty dashboard", () =>
      Effect.gen(function* () {
        const smtp = yield* Smtp
        const owner = yield* newTenant()
        const member = yield* memberSession(smtp, owner.clientId, freshEmail("member"))
        yield* call("POST", "/v1/coaching/welcome/complete", { session: owner.session })
        const status = (yield* call("GET", "/v1/coaching/status", { session: member })).body
        expect(status.steps.map((s: any) => s.step)).toEqual(["welcome", "oath", "wiki"])
        expect(status).toMatchObject({ welcome_completed: false, completion_pct: 0, next_step: "welcome" })
        const welcomed = (yield* call("POST", "/v1/coaching/welcome/complete", { session: member })).body
        expect(welcomed).toMatchObject({ welcome_completed: true, completion_pct: 33, next_step: "oath" })

        const callId = yield* seedCall(owner.clientId, { closerEmail: null, weeksAgo: 0, overall: 70, dims: { listening: 70 } })
        // issue 36: a member audits only their own calls, and this one is no closer (RepsCoaching.test.ts has reps)
        const refused = yield* call("POST", "/v1/coaching/manual-audits", { session: member, body: { call_id: callId, scores: { listening: 50 }, notes: "" } })
        expect(refused.status).toBe(404)
        expect(refused.body._tag).toBe("NotFound")
        const made = yield* call("POST", "/v1/coaching/manual-audits", { session: owner.session, body: { call_id: callId, scores: { listening: 50 }, notes: "n" } })
        expect(made.status).toBe(200)
        expect((yield* call("GET", `/v1/coaching/manual-audits/${made.body.audit_id}`, { session: member })).status).toBe(404)
        expect((yield* call("GET", "/v1/coaching/manual-audits", { session: member })).body.total).toBe(0)
        const board = yield* call("GET", "/v1/coaching/dashboard", { session: member })
        expect(board.status).toBe(200)
        expect(board.body).toMatchObject({ closers: [], audit_gaps: [], team: { closers: 0, calls_this_week: 0, average_score: null } })
      }))

    it.effect("manual audits: the machine's scores beside the manager's, the gaps, the list newest first and paged; other tenants see nothing", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const { clientId, session, userId } = yield* newTenant()
        const [owner] = yield* sql<{ email: string; full_name: string | null }>`SELECT email, full_name FROM users WHERE user_id = ${userId}`
        const closerId = yield* seedCloser(clientId, "Cleo@Acme.test", "Cleo Closer")
        const callId = yield* seedCall(clientId, {
          closerEmail: "cleo@acme.test",
          weeksAgo: 0,
          overall: 62.5,
          dims: { discovery: 40, listening: 71.25, objection_handling: null, value: 55 }
        })
        const body = { call_id: callId, scores: { value: 70, discovery: 65, objection_handling: 50 }, notes: "Good questions, weak close." }
        const made = yield* call("POST", "/v1/coaching/manual-audits", { session, body })
        expect(made.status).toBe(200)
        expect(made.body).toEqual({
          audit_id: expect.stringMatching(/^mau_/),
          call_id: callId,
          external_call_id: `ext-${callId}`, // the upload's
          closer_id: closerId,
          closer_email: "cleo@acme.test",
          auditor_user_id: userId,
          auditor_name: owner!.full_name ?? owner!.email,
          scores: { value: 70, discovery: 65, objection_handling: 50 },
          // in the scorecard's order; the machine did not assess objection handling
          dimensions: [
            { dimension: "discovery", manual_score: 65, automated_score: 40, gap: 25 },
            { dimension: "objection_handling", manual_score: 50, automated_score: null, gap: null },
            { dimension: "value", manual_score: 70, automated_score: 55, gap: 15 }
          ],
          manual_overall: 61.7,
          automated_overall: 62.5,
          mean_absolute_gap: 20,
          notes: "Good questions, weak close.",
          created_at: expect.any(String)
        })
        expect((yield* call("GET", `/v1/coaching/manual-audits/${made.body.audit_id}`, { session })).body).toEqual(made.body)

        // the machine's scores of that moment are kept: a later analysis does not change the audit
        yield* sql`UPDATE calls SET result = jsonb_set(result, '{scorecard,dimensions,0,score}', '90') WHERE call_id = ${callId}`
        expect((yield* call("GET", `/v1/coaching/manual-audits/${made.body.audit_id}`, { session })).body.dimensions[0]).toEqual({
          dimension: "discovery",
          manual_score: 65,
          automated_score: 40,
          gap: 25
        })

        const second = yield* call("POST", "/v1/coaching/manual-audits", { session, body: { call_id: callId, scores: { listening: 71.25 }, notes: "" } })
        expect(second.body).toMatchObject({
          dimensions: [{ dimension: "listening", manual_score: 71.25, automated_score: 71.25, gap: 0 }],
          manual_overall: 71.3,
          mean_absolute_gap: 0
        })
        const otherCall = yield* seedCall(clientId, { closerEmail: "nobody@acme.test", weeksAgo: 1, overall: null, dims: {} })
        // an upload that gave no external id
        yield* sql`UPDATE calls SET external_call_id = NULL WHERE call_id = ${otherCall}`
        const third = yield* call("POST", "/v1/coaching/manual-audits", { session, body: { call_id: otherCall, scores: { next_steps: 30 }, notes: "" } })
        expect(third.body).toMatchObject({
          external_call_id: null,
          closer_id: null,
          closer_email: "nobody@acme.test",
          dimensions: [{ dimension: "next_steps", manual_score: 30, automated_score: null, gap: null }],
          manual_overall: 30,
          automated_overall: null,
          mean_absolute_gap: null
        })

        const list = yield* call("GET", "/v1/coaching/manual-audits", { session })
        expect(list.body).toMatchObject({ total: 3, limit: 50, offset: 0 })
        expect(list.body.audits.map((a: any) => a.audit_id)).toEqual([third.body.audit_id, second.body.audit_id, made.body.audit_id])
        expect(list.body.audits[2]).toEqual(made.body)
        expect(list.body.audits.map((a: any) => a.external_call_id)).toEqual([null, `ext-${callId}`, `ext-${callId}`])
        const page = yield* call("GET", "/v1/coaching/manual-audits?limit=1&offset=1", { session })
        expect(page.body).toMatchObject({ total: 3, limit: 1, offset: 1 })
        expect(page.body.audits.map((a: any) => a.audit_id)).toEqual([second.body.audit_id])
        const ofCall = yield* call("GET", `/v1/coaching/manual-audits?call_id=${callId}`, { session })
        expect(ofCall.body.total).toBe(2)
        expect(ofCall.body.audits.map((a: any) => a.audit_id)).toEqual([second.body.audit_id, made.body.audit_id])

        // another tenant: its list is empty, the audit and the call are 404
        const other = yield* newTenant()
        expect((yield* call("GET", "/v1/coaching/manual-audits", { session: other.session })).body).toEqual({ audits: [], total: 0, limit: 50, offset: 0 })
        expect((yield* call("GET", `/v1/coaching/manual-audits?call_id=${callId}`, { session: other.session })).body.total).toBe(0)
        const theirs = yield* call("GET", `/v1/coaching/manual-audits/${made.body.audit_id}`, { session: other.session })
        expect(theirs.status).toBe(404)
        expect(theirs.body._tag).toBe("NotFound")
        expect(JSON.stringify(theirs.body)).not.toContain(`ext-${callId}`)
        const onTheirCall = yield* call("POST", "/v1/coaching/manual-audits", { session: other.session, body: { call_id: callId, scores: { discovery: 1 }, notes: "" } })
        expect(onTheirCall.status).toBe(404)
        expect((yield* call("GET", "/v1/coaching/manual-audits/mau_nope", { session })).status).toBe(404)
        expect((yield* call("POST", "/v1/coaching/manual-audits", { session, body: { call_id: "call_nope", scores: { discovery: 1 }, notes: "" } })).status).toBe(404)

        // a call not analysed yet is 409
        const queued = yield* seedCall(clientId, { closerEmail: null, weeksAgo: 0, status: "queued" })
        const early = yield* call("POST", "/v1/coaching/manual-audits", { session, body: { call_id: queued, scores: { discovery: 50 }, notes: "" } })
        expect(early.status).toBe(409)
        expect(early.body.message).toMatch(/queued/)

        // bad input: 422, nothing stored
        const bad: ReadonlyArray<unknown> = [
          { call_id: callId, scores: { charisma: 50 }, notes: "" },
          { call_id: callId, scores: { discovery: 101 }, notes: "" },
          { call_id: callId, scores: { discovery: -1 }, notes: "" },
          { call_id: callId, scores: { discovery: "high" }, notes: "" },
          { call_id: callId, scores: {}, notes: "" },
          { call_id: callId, scores: { discovery: 50 } },
          { scores: { discovery: 50 }, notes: "" },
          { call_id: callId, notes: "" },
          { call_id: callId, scores: { discovery: 50 }, notes: "", extra: true }
        ]
        for (const b of bad) {
          const reply = yield* call("POST", "/v1/coaching/manual-audits", { session, body: b })
          expect(reply.status, JSON.stringify(b)).toBe(422)
          expect(reply.body.detail.length, JSON.stringify(b)).toBeGreaterThan(0)
        }
        expect((yield* call("GET", "/v1/coaching/manual-audits?limit=0", { session })).status).toBe(422)
        expect((yield* call("GET", "/v1/coaching/manual-audits?limit=201", { session })).status).toBe(422)
        expect((yield* call("GET", "/v1/coaching/manual-audits", { session })).body.total).toBe(3)
        expect((yield* auditActions(clientId, ["manual_audit."])).map((r) => [r.action, r.target_id])).toEqual([
          ["manual_audit.created", callId],
          ["manual_audit.created", callId],
          ["manual_audit.created", otherCall]
        ])
      }))

    it.effect("the dashboard: per closer the 8 weeks' trend, the 4 weeks' weakest dimension and its article, the calls to review; the team; the audit gaps", () =>
      Effect.gen(function* () {
        const { clientId, session } = yield* newTenant()
        const adaId = yield* seedCloser(clientId, "ada@acme.test", "Ada Archer")
        const boId = yield* seedCloser(clientId, "Bo@Acme.test", "Bo Baker")
        yield* seedCloser(clientId, "rex@acme.test", "Rex Removed", "removed")

        // Ada: five calls in the 8 weeks (four in the last 4), one before, one still queued
        const ada0 = yield* seedCall(clientId, {
          closerEmail: "ada@acme.test", weeksAgo: 0, overall: 60,
          dims: { discovery: 40, listening: 70, objection_handling: 80, value: null }
        })
        const ada1 = yield* seedCall(clientId, { closerEmail: "ADA@acme.test", weeksAgo: 1, overall: 70, dims: { discovery: 50, listening: 90 } })
        const ada2 = yield* seedCall(clientId, { closerEmail: "ada@acme.test", weeksAgo: 2, overall: 95, dims: { next_steps: 90 } })
        const ada3 = yield* seedCall(clientId, { closerEmail: "ada@acme.test", weeksAgo: 3, overall: 75, dims: {} })
        const ada5 = yield* seedCall(clientId, { closerEmail: "ada@acme.test", weeksAgo: 5, overall: 80, dims: { discovery: 10 } })
        yield* seedCall(clientId, { closerEmail: "ada@acme.test", weeksAgo: 9, overall: 10, dims: { discovery: 0 } })
        yield* seedCall(clientId, { closerEmail: "ada@acme.test", weeksAgo: 0, status: "queued" })
        // Bo: his e-mail in another case; a dimension the machine did not assess does not count
        const bo0 = yield* seedCall(clientId, { closerEmail: "bo@acme.test", weeksAgo: 0, overall: 50, dims: { discovery: 80, listening: 30 } })
        const bo2 = yield* seedCall(clientId, {
          closerEmail: "bo@acme.test", weeksAgo: 2, overall: 90,
          dims: { discovery: 100, listening: 50, objection_handling: null }
        })
        // not the team's: a removed closer's call, a call without a closer
        yield* seedCall(clientId, { closerEmail: "rex@acme.test", weeksAgo: 0, overall: 20, dims: { discovery: 5 } })
        yield* seedCall(clientId, { closerEmail: null, weeksAgo: 0, overall: 30, dims: { listening: 5 } })

        const audit = (callId: string, scores: Record<string, number>) =>
          Effect.map(call("POST", "/v1/coaching/manual-audits", { session, body: { call_id: callId, scores, notes: "" } }), (r) => {
            expect(r.status).toBe(200)
            return r.body
          })
        yield* audit(ada1, { discovery: 80, listening: 60 }) // +30, −30: 30 from the machine
        yield* audit(bo0, { discovery: 85 }) // +5: too close to review
        yield* audit(ada5, { discovery: 70 }) // +60, but older than 4 weeks
        yield* audit(ada0, { value: 50, objection_handling: 75 }) // value not assessed; −5
        yield* audit(ada2, { next_steps: 40 }) // −50
        yield* call("PUT", `/v1/client-portal/calls/${ada0}/outcome-truth`, { session, body: { outcome: "lost" } })

        const reply = yield* call("GET", "/v1/coaching/dashboard", { session })
        expect(reply.status).toBe(200)
        const d = reply.body
        const weeks = [7, 6, 5, 4, 3, 2, 1, 0].map(mondayOf)
        expect(d.week_start).toBe(mondayOf(0))
        expect(Date.parse(d.generated_at)).toBeGreaterThan(Date.now() - 60_000)
        const trend = (points: Record<number, [number, number | null]>) =>
          weeks.map((period_start, i) => {
            const [calls, average_score] = points[7 - i] ?? [0, null]
            return { period_start, calls, average_score }
          })

        expect(d.team).toEqual({
          closers: 2,
          calls_this_week: 2,
          // (60 + 70 + 95 + 75 + 80 + 50 + 90) / 7
          average_score: 74.3,
          score_trend: trend({ 0: [2, 55], 1: [1, 70], 2: [2, 92.5], 3: [1, 75], 5: [1, 80] })
        })
        expect(d.closers.map((c: any) => c.full_name)).toEqual(["Ada Archer", "Bo Baker"])
        const [ada, bo] = d.closers
        const discoveryArticle = teaching("discovery")
        const listeningArticle = teaching("listening")
        expect(ada).toEqual({
          closer_id: adaId,
          full_name: "Ada Archer",
          email: "ada@acme.test",
          calls_this_week: 1,
          average_score: 76,
          score_trend: trend({ 0: [1, 60], 1: [1, 70], 2: [1, 95], 3: [1, 75], 5: [1, 80] }),
          // discovery (40 + 50) / 2 over the last 4 weeks; the team's: (40 + 50 + 80 + 100) / 4
          focus: {
            dimension: "discovery",
            average_score: 45,
            calls: 2,
            team_average_score: 67.5,
            article_slug: discoveryArticle.slug,
            article_title: discoveryArticle.title
          },
          calls_to_review: [
            {
              call_id: ada0, external_call_id: `ext-${ada0}`, closer_email: "ada@acme.test", created_at: yield* createdAtOf(ada0),
              overall_score: 60, outcome: "lost", reason: "lowest score of the last 4 weeks: 60"
            },
            {
              call_id: ada1, external_call_id: `ext-${ada1}`, closer_email: "ADA@acme.test", created_at: yield* createdAtOf(ada1),
              overall_score: 70, outcome: null,
              reason: "2nd lowest score of the last 4 weeks: 70; a manual audit is 30 points from the machine's scores on average"
            },
            {
              call_id: ada3, external_call_id: `ext-${ada3}`, closer_email: "ada@acme.test", created_at: yield* createdAtOf(ada3),
              overall_score: 75, outcome: null, reason: "3rd lowest score of the last 4 weeks: 75"
            },
            {
              call_id: ada2, external_call_id: `ext-${ada2}`, closer_email: "ada@acme.test", created_at: yield* createdAtOf(ada2),
              overall_score: 95, outcome: null, reason: "a manual audit is 50 points from the machine's scores on average"
            }
          ]
        })
        expect(bo).toMatchObject({
          closer_id: boId,
          email: "Bo@Acme.test",
          calls_this_week: 1,
          average_score: 70,
          score_trend: trend({ 0: [1, 50], 2: [1, 90] }),
          // listening (30 + 50) / 2; the team's (70 + 90 + 30 + 50) / 4; objection handling not assessed
          focus: {
            dimension: "listening",
            average_score: 40,
            calls: 2,
            team_average_score: 60,
            article_slug: listeningArticle.slug,
            article_title: listeningArticle.title
          }
        })
        expect(bo.calls_to_review.map((c: any) => [c.call_id, c.reason])).toEqual([
          [bo0, "lowest score of the last 4 weeks: 50"],
          [bo2, "2nd lowest score of the last 4 weeks: 90"]
        ])
        // every audit, whatever its age: discovery +30, +5, +60; listening −30; objection handling −5; next steps −50
        expect(d.audit_gaps).toEqual([
          { dimension: "discovery", mean_gap: 31.7, mean_absolute_gap: 31.7, audits: 3 },
          { dimension: "listening", mean_gap: -30, mean_absolute_gap: 30, audits: 1 },
          { dimension: "objection_handling", mean_gap: -5, mean_absolute_gap: 5, audits: 1 },
          { dimension: "next_steps", mean_gap: -50, mean_absolute_gap: 50, audits: 1 }
        ])

        // another tenant sees none of it
        const other = yield* newTenant()
        const theirs = (yield* call("GET", "/v1/coaching/dashboard", { session: other.session })).body
        expect(theirs).toMatchObject({
          week_start: mondayOf(0),
          team: { closers: 0, calls_this_week: 0, average_score: null },
          closers: [],
          audit_gaps: []
        })
        expect(theirs.team.score_trend).toEqual(trend({}))
      }))

    it.effect("a closer without calls has an empty trend and no focus", () =>
      Effect.gen(function* () {
        const { clientId, session } = yield* newTenant()
        yield* seedCloser(clientId, "new@acme.test", "New Hire")
        const d = (yield* call("GET", "/v1/coaching/dashboard", { session })).body
        expect(d.closers).toHaveLength(1)
        expect(d.closers[0]).toMatchObject({ calls_this_week: 0, average_score: null, focus: null, calls_to_review: [] })
        expect(d.closers[0].score_trend.every((w: any) => w.calls === 0 && w.average_score === null)).toBe(true)
        expect(d.closers[0].score_trend).toHaveLength(8)
      }))

    it.effect("a score stored with `assessed: false` does not count toward the focus; the call's other dimensions do", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const { clientId, session } = yield* newTenant()
        yield* seedCloser(clientId, "cy@acme.test", "Cy Cole")
        yield* seedCall(clientId, { closerEmail: "cy@acme.test", weeksAgo: 0, overall: 70, dims: { discovery: 60, listening: 80 } })
        // a result written another way (not by the engine): a number beside `assessed: false`
        const odd = yield* seedCall(clientId, { closerEmail: "cy@acme.test", weeksAgo: 1, overall: 40, dims: { discovery: 10, listening: 20 } })
        yield* sql`UPDATE calls SET result = jsonb_set(result, '{scorecard,dimensions,0,assessed}', 'false'::jsonb) WHERE call_id = ${odd}`
        const d = (yield* call("GET", "/v1/coaching/dashboard", { session })).body
        // discovery (60) alone; listening (80 + 20) / 2: the weakest
        expect(d.closers[0].focus).toMatchObject({ dimension: "listening", average_score: 50, calls: 2, team_average_score: 50 })
        yield* sql`UPDATE calls SET result = jsonb_set(result, '{scorecard,dimensions,0,assessed}', 'true'::jsonb) WHERE call_id = ${odd}`
        const again = (yield* call("GET", "/v1/coaching/dashboard", { session })).body
        // discovery (60 + 10) / 2 now
        expect(again.closers[0].focus).toMatchObject({ dimension: "discovery", average_score: 35, calls: 2, team_average_score: 35 })
      }))

    it.effect("the wiki: sections in order with each article's progress for the user; articles with their text, neighbours and reading minutes", () =>
      Effect.gen(function* () {
        const smtp = yield* Smtp
        const { clientId, session } = yield* newTenant()
        const order = readingOrder()
        const sections = sectionsFile().sort((a, b) => a.position - b.position)
        const list = yield* call("GET", "/v1/coaching/wiki/sections", { session })
        expect(list.status).toBe(200)
        expect(list.body.articles_total).toBe(order.length)
        expect(list.body.articles_read).toBe(0)
        expect(list.body.sections.map((s: any) => [s.section_id, s.title, s.position])).toEqual(sections.map((s) => [s.section_id, s.title, s.position]))
        expect(list.body.sections.flatMap((s: any) => s.articles.map((a: any) => a.slug))).toEqual(order.map((a) => a.slug))
        for (const section of list.body.sections) {
          for (const a of section.articles) {
            const file = order.find((f) => f.slug === a.slug)!
            expect(a, a.slug).toEqual({
              slug: file.slug,
              title: file.title,
              summary: expect.any(String),
              reading_minutes: minutesOf(file.body),
              dimensions: file.dimensions,
              progress_pct: 0,
              completed: false
            })
          }
        }

        const first = order[0]!
        const second = order[1]!
        const article = yield* call("GET", `/v1/coaching/wiki/articles/${second.slug}`, { session })
        expect(article.status).toBe(200)
        expect(article.body).toMatchObject({
          slug: second.slug,
          title: second.title,
          section_id: second.section,
          section_title: sections.find((s) => s.section_id === second.section)!.title,
          body_markdown: second.body.replace(/^\s*\n/, ""),
          reading_minutes: minutesOf(second.body),
          dimensions: second.dimensions,
          progress_pct: 0,
          completed_at: null,
          previous_slug: first.slug,
          next_slug: order[2]?.slug ?? null
        })
        expect(Date.parse(article.body.updated_at)).not.toBeNaN()
        expect((yield* call("GET", `/v1/coaching/wiki/articles/${first.slug}`, { session })).body.previous_slug).toBeNull()
        expect((yield* call("GET", `/v1/coaching/wiki/articles/${order.at(-1)!.slug}`, { session })).body.next_slug).toBeNull()
        const unknown = yield* call("GET", "/v1/coaching/wiki/articles/no-such-article", { session })
        expect(unknown.status).toBe(404)
        expect(unknown.body._tag).toBe("NotFound")

        // progress never goes down; 100 completes the article once
        const progress = (slug: string, progress_pct: unknown, s = session) =>
          call("POST", "/v1/coaching/wiki/articles/progress", { session: s, body: { slug, progress_pct } })
        const p40 = yield* progress(second.slug, 40)
        expect(p40.status).toBe(200)
        expect(p40.body).toEqual({
          slug: second.slug,
          progress_pct: 40,
          completed: false,
          completed_at: null,
          updated_at: expect.any(String),
          articles_read: 0,
          articles_total: order.length
        })
        expect((yield* progress(second.slug, 20)).body).toMatchObject({ progress_pct: 40, completed: false })
        const full = (yield* progress(second.slug, 100)).body
        expect(full).toMatchObject({ progress_pct: 100, completed: true, articles_read: 1 })
        expect(Date.parse(full.completed_at)).toBeGreaterThan(Date.now() - 60_000)
        expect((yield* progress(second.slug, 50)).body).toMatchObject({ progress_pct: 100, completed: true, completed_at: full.completed_at })
        expect((yield* progress(first.slug, 12.5)).body).toMatchObject({ progress_pct: 12.5, articles_read: 1 })

        const after = (yield* call("GET", "/v1/coaching/wiki/sections", { session })).body
        const bySlug = new Map(after.sections.flatMap((s: any) => s.articles.map((a: any) => [a.slug, a])))
        expect(bySlug.get(second.slug)).toMatchObject({ progress_pct: 100, completed: true })
        expect(bySlug.get(first.slug)).toMatchObject({ progress_pct: 12.5, completed: false })
        expect(after.articles_read).toBe(1)
        expect((yield* call("GET", `/v1/coaching/wiki/articles/${second.slug}`, { session })).body).toMatchObject({
          progress_pct: 100,
          completed_at: full.completed_at
        })
        expect((yield* auditActions(clientId, ["wiki_article."])).map((r) => r.target_id)).toEqual([second.slug])

        // progress is the user's: another user of the tenant, and another tenant, start at 0
        const member = yield* memberSession(smtp, clientId, freshEmail("reader"))
        const other = yield* newTenant()
        for (const s of [member, other.session]) {
          const theirs = (yield* call("GET", "/v1/coaching/wiki/sections", { session: s })).body
          expect(theirs.articles_read).toBe(0)
          expect(theirs.sections.every((sec: any) => sec.articles.every((a: any) => a.progress_pct === 0))).toBe(true)
          expect((yield* call("GET", `/v1/coaching/wiki/articles/${second.slug}`, { session: s })).body.progress_pct).toBe(0)
        }

        // bad input
        expect((yield* progress("no-such-article", 10)).status).toBe(404)
        for (const pct of [101, -1, "half", null]) expect((yield* progress(second.slug, pct)).status, String(pct)).toBe(422)
        expect((yield* call("POST", "/v1/coaching/wiki/articles/progress", { session, body: { progress_pct: 10 } })).status).toBe(422)
        expect((yield* call("POST", "/v1/coaching/wiki/articles/progress", { session, body: { slug: second.slug } })).status).toBe(422)
      }))
  })
})
