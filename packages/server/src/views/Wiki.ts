/**
 * The coaching wiki: Markdown articles with a front matter, grouped in sections, written for this
 * product and kept in the repository (`views/wiki/*.md` and `views/wiki/sections.json`). The
 * build carries them as text (scripts/wiki.mjs writes `WikiFiles.generated.ts`); this reads them
 * once, checks them and answers them in reading order. It is on the floor because both coaching/
 * (the wiki's operations) and the coaching dashboard (the article that teaches a dimension) read it.
 *
 * An article starts with its front matter, a flat YAML block:
 *
 *     ---
 *     slug: asking-discovery-questions        (the file's name without .md)
 *     section: discovery                      (a section_id of sections.json)
 *     title: Ask more, and better, discovery questions
 *     summary: One or two sentences.
 *     dimensions: [discovery]                 (the scorecard dimensions it teaches)
 *     metrics: [question_count, question_rate]
 *     position: 1                             (its place in its section)
 *     ---
 *
 * A value is plain or quoted text, an integer, or a list (`[a, b]`, or `- a` lines below the key).
 * `reading_minutes` is the body's words at 200 a minute, rounded up, at least 1. Content that does
 * not follow these rules is a defect found when the service starts (and by the tests).
 */
import { ScorecardDimensionName } from "@callsight/api-spec"
import { Effect, Schema } from "effect"
import { articleFiles, sectionsJson } from "./WikiFiles.generated.js"

export const WORDS_PER_MINUTE = 200

/** The words of a text: runs between spaces holding a letter or a digit (Markdown's marks are not words). */
export const countWords = (text: string): number => text.split(/\s+/).filter((token) => /[\p{L}\p{N}]/u.test(token)).length

export const readingMinutes = (body: string): number => Math.max(1, Math.ceil(countWords(body) / WORDS_PER_MINUTE))

export type FrontMatterValue = string | number | ReadonlyArray<string>

const unquote = (value: string): string => {
  const v = value.trim()
  if (v.length >= 2 && ((v.startsWith("\"") && v.endsWith("\"")) || (v.startsWith("'") && v.endsWith("'")))) {
    return v.startsWith("\"") ? JSON.parse(v) as string : v.slice(1, -1).replaceAll("''", "'")
  }
  return v
}

const scalar = (raw: string): FrontMatterValue => {
  const v = raw.trim()
  if (/^-?\d+$/.test(v)) return Number(v)
  if (v.startsWith("[")) {
    if (!v.endsWith("]")) throw new Error(`a list must close on its line: ${v}`)
    const inner = v.slice(1, -1).trim()
    return inner === "" ? [] : inner.split(",").map(unquote)
  }
  return unquote(v)
}

/** The front matter of a Markdown text (the flat form above) and the body after it. */
export const parseFrontMatter = (text: string): { readonly data: Record<string, FrontMatterValue>; readonly body: string } => {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/)
  if (lines[0]?.trim() !== "---") throw new Error("the text does not start with a front matter (---)")
  const end = lines.findIndex((line, i) => i > 0 && line.trim() === "---")
  if (end < 0) throw new Error("the front matter is not closed (---)")
  const data: Record<string, FrontMatterValue> = {}
  let listKey: string | null = null
  for (const line of lines.slice(1, end)) {
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue
    const item = /^\s+-\s+(.*)$/.exec(line) ?? /^-\s+(.*)$/.exec(line)
    if (item !== null) {
      if (listKey === null) throw new Error(`a list item without its key: ${line}`)
      data[listKey] = [...(data[listKey] as ReadonlyArray<string>), unquote(item[1]!)]
      continue
    }
    const field = /^([A-Za-z_][\w-]*):(.*)$/.exec(line)
    if (field === null) throw new Error(`not a "key: value" line: ${line}`)
    const [, key, value] = field as unknown as [string, string, string]
    if (key in data) throw new Error(`${key} is given twice`)
    if (value.trim() === "") {
      data[key] = []
      listKey = key
    } else {
      data[key] = scalar(value)
      listKey = null
    }
  }
  return { data, body: lines.slice(end + 1).join("\n").replace(/^\s*\n/, "") }
}

const Slug = Schema.String.pipe(Schema.pattern(/^[a-z0-9]+(?:-[a-z0-9]+)*$/))
const Line = Schema.String.pipe(Schema.trimmed(), Schema.minLength(1))

const FrontMatter = Schema.Struct({
  slug: Slug,
  section: Slug,
  title: Line,
  summary: Line,
  dimensions: Schema.Array(ScorecardDimensionName),
  metrics: Schema.Array(Line),
  position: Schema.Number.pipe(Schema.int()),
  updated: Schema.optional(Schema.String)
})

const Section = Schema.Struct({
  section_id: Slug,
  title: Line,
  description: Line,
  position: Schema.Number
})

export interface WikiArticleContent {
  readonly slug: string
  readonly section_id: string
  readonly section_title: string
  readonly title: string
  readonly summary: string
  readonly body_markdown: string
  readonly reading_minutes: number
  readonly dimensions: ReadonlyArray<typeof ScorecardDimensionName.Type>
  readonly metrics: ReadonlyArray<string>
  /** Its place in its section. */
  readonly position: number
  readonly updated_at: string
}

export interface WikiSectionContent {
  readonly section_id: string
  readonly title: string
  readonly description: string
  readonly position: number
  readonly articles: ReadonlyArray<WikiArticleContent>
}

export interface WikiContent {
  readonly sections: ReadonlyArray<WikiSectionContent>
  /** Every article in reading order: sections by position, then articles by position and slug. */
  readonly articles: ReadonlyArray<WikiArticleContent>
}

export interface WikiFile {
  readonly file: string
  readonly updatedAt: string
  readonly text: string
}

/** Reads and checks the wiki's files; throws, naming the file, at the first broken one. */
export const loadWiki = (files: ReadonlyArray<WikiFile>, sectionsText: string): WikiContent => {
  const sections = Schema.decodeUnknownSync(Schema.Array(Section))(JSON.parse(sectionsText))
  const sectionIds = new Set<string>()
  for (const s of sections) {
    if (sectionIds.has(s.section_id)) throw new Error(`sections.json: section ${s.section_id} is given twice`)
    sectionIds.add(s.section_id)
  }
  const bySection = new Map(sections.map((s) => [s.section_id, s]))
  const articles = files.map((file): WikiArticleContent => {
    try {
      const { body, data } = parseFrontMatter(file.text)
      const meta = Schema.decodeUnknownSync(FrontMatter, { onExcessProperty: "error" })(data)
      if (`${meta.slug}.md` !== file.file) throw new Error(`its slug ${meta.slug} is not its file's name`)
      const section = bySection.get(meta.section)
      if (section === undefined) throw new Error(`its section ${meta.section} is not in sections.json`)
      if (body.trim() === "") throw new Error("it has no text")
      return {
        slug: meta.slug,
        section_id: section.section_id,
        section_title: section.title,
        title: meta.title,
        summary: meta.summary,
        body_markdown: body,
        reading_minutes: readingMinutes(body),
        dimensions: meta.dimensions,
        metrics: meta.metrics,
        position: meta.position,
        updated_at: meta.updated === undefined ? file.updatedAt : new Date(meta.updated).toISOString()
      }
    } catch (error) {
      throw new Error(`wiki article ${file.file}: ${error instanceof Error ? error.message : String(error)}`)
    }
  })
  const ordered = [...sections]
    .sort((a, b) => a.position - b.position || a.section_id.localeCompare(b.section_id))
    .map((s): WikiSectionContent => ({
      ...s,
      articles: articles
        .filter((a) => a.section_id === s.section_id)
        .sort((a, b) => a.position - b.position || a.slug.localeCompare(b.slug))
    }))
  return { sections: ordered, articles: ordered.flatMap((s) => s.articles) }
}

export class Wiki extends Effect.Service<Wiki>()("Wiki", {
  sync: () => {
    const content = loadWiki(articleFiles, sectionsJson)
    const bySlug = new Map(content.articles.map((a, i) => [a.slug, i]))
    const sectionPosition = new Map(content.sections.map((s) => [s.section_id, s.position]))

    /** An article with its neighbours in reading order; undefined for an unknown slug. */
    const find = (slug: string) => {
      const i = bySlug.get(slug)
      if (i === undefined) return undefined
      return {
        article: content.articles[i]!,
        previous_slug: content.articles[i - 1]?.slug ?? null,
        next_slug: content.articles[i + 1]?.slug ?? null
      }
    }

    /**
     * The article that teaches a scorecard dimension: of those whose `dimensions` name it, the one
     * with the lowest position, then of the earlier section, then by slug.
     */
    const teaching = (dimension: string): WikiArticleContent | undefined =>
      content.articles
        .filter((a) => (a.dimensions as ReadonlyArray<string>).includes(dimension))
        .sort((a, b) =>
          a.position - b.position ||
          sectionPosition.get(a.section_id)! - sectionPosition.get(b.section_id)! ||
          a.slug.localeCompare(b.slug)
        )[0]

    return { sections: content.sections, articles: content.articles, find, teaching } as const
  }
}) {}

/** Whether a dimension name is one of the scorecard's. */
export const isDimension = Schema.is(ScorecardDimensionName)
