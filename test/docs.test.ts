/**
 * The documentation stands alone: every Markdown file a source comment names is in the repository,
 * every relative link of the README and of docs/ resolves, the coaching wiki (which customers read)
 * names no internal document, and the README stays a five-minute read.
 */
import { describe, expect, it } from "@effect/vitest"
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { ROOT } from "./utils/Server.js"

const SOURCE_DIRS = ["packages", "test", "eval", "bench", "scripts"]
const SKIP = new Set(["node_modules", "dist", "build", ".cache", "calls"])

const filesUnder = (dir: string, keep: (name: string) => boolean): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name)) return []
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path, keep) : keep(name) ? [path] : []
  })

/**
 * The Markdown files a source file names: paths with a folder (`docs/method.md`, `../README.md`)
 * and capitalised names (`README.md`, `DOMAIN.md`); a bare lower-case `x.md` in a test is data.
 */
const namedMarkdown = (text: string): Array<string> =>
  [...text.matchAll(/(?<![\w*/.${}-])((?:\.{1,2}\/)*(?:[\w-]+\/)*[\w-]+\.md)\b/g)]
    .map((m) => m[1]!)
    .filter((name) => name.includes("/") || /^[A-Z][A-Z_]*\.md$/.test(name))

/** Where a named file is: relative to the naming file when it starts with `.`, else from the root. */
const located = (from: string, name: string) => (name.startsWith(".") ? resolve(dirname(from), name) : join(ROOT, name))

describe("the documentation", () => {
  it("holds every Markdown file a source comment names", () => {
    // this file names missing ones on purpose, as data
    const sources = SOURCE_DIRS.flatMap((d) => filesUnder(join(ROOT, d), (n) => /\.(ts|mts|mjs|cjs)$/.test(n)))
      .filter((file) => file !== fileURLToPath(import.meta.url))
    expect(sources.length).toBeGreaterThan(300)
    const missing = sources.flatMap((file) =>
      namedMarkdown(readFileSync(file, "utf8"))
        .filter((name) => !existsSync(located(file, name)))
        .map((name) => `${relative(ROOT, file)} names ${name}`)
    )
    expect(missing).toEqual([])
  })

  it("finds the names it looks for (the check can fail)", () => {
    expect(namedMarkdown("see DOMAIN.md, \"Integrations\" and docs/method.md step 4; `*.md`, x.md, ${slug}.md"))
      .toEqual(["DOMAIN.md", "docs/method.md"])
  })

  it("has every relative link of the README and of docs/ resolve", () => {
    const pages = [join(ROOT, "README.md"), ...filesUnder(join(ROOT, "docs"), (n) => n.endsWith(".md"))]
    const broken = pages.flatMap((page) =>
      [...readFileSync(page, "utf8").matchAll(/\]\(([^)\s]+)\)/g)]
        .map((m) => m[1]!.split("#")[0]!)
        .filter((target) => target !== "" && !/^[a-z]+:/.test(target))
        .filter((target) => !existsSync(resolve(dirname(page), target)))
        .map((target) => `${relative(ROOT, page)} → ${target}`)
    )
    expect(broken).toEqual([])
  })

  it("lets the coaching wiki, which customers read, name no internal document", () => {
    const articles = filesUnder(join(ROOT, "packages/server/src/views/wiki"), (n) => n.endsWith(".md"))
    expect(articles.length).toBeGreaterThan(0)
    const internal = articles.filter((file) => /\b[\w/-]+\.md\b|\bdocs\/|\bREADME\b/.test(readFileSync(file, "utf8")))
    expect(internal.map((file) => relative(ROOT, file))).toEqual([])
  })

  it("keeps the README to 300 lines", () => {
    expect(readFileSync(join(ROOT, "README.md"), "utf8").trimEnd().split("\n").length).toBeLessThanOrEqual(300)
  })
})
