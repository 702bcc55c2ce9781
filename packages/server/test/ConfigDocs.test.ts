/**
 * docs/configuration.md lists every environment variable the server reads. The variables are found
 * from config.ts itself, two ways, so neither a hand-kept list nor one reading can miss one:
 *
 * - by running `appConfig` against a recording ConfigProvider (an empty environment whose every
 *   lookup is written down): every variable the configuration actually asks for, those that prefix
 *   helpers such as `oauthProvider("CALENDAR")` build included;
 * - by reading config.ts's source for the quoted names it passes to `Config.*` and to its helpers,
 *   in case one is ever read only when another is set (the empty environment would not reach it).
 *
 * Each must appear on the page as `` `NAME` ``.
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, ConfigProviderPathPatch, Effect, HashSet } from "effect"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { appConfig } from "../src/config.js"

const root = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url))

/** An empty environment that records the name of every variable looked up in it. */
const recordingProvider = () => {
  const asked = new Set<string>()
  const empty = ConfigProvider.fromMap(new Map(), { pathDelim: "_", seqDelim: "," }).flattened
  const provider = ConfigProvider.fromFlat(
    ConfigProvider.makeFlat({
      load: (path, primitive, split) => {
        asked.add(path.join("_"))
        return empty.load(path, primitive, split)
      },
      enumerateChildren: (path) => Effect.as(Effect.sync(() => asked.add(path.join("_"))), HashSet.empty<string>()),
      patch: ConfigProviderPathPatch.empty
    })
  )
  return { asked, provider }
}

/** The variables config.ts reads, as the configuration asks for them. */
const variablesRead = Effect.gen(function* () {
  const { asked, provider } = recordingProvider()
  // The defaults are all valid, so the whole configuration is read; its value does not matter here.
  yield* Effect.either(Effect.withConfigProvider(appConfig, provider))
  return [...asked].filter((name) => name !== "").sort()
})

const NAME = "[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*"

/**
 * The variables config.ts's source names: every quoted upper-case name (`Config.string("PORT")`,
 * `positiveInt("DB_POOL_MAX")`, `ConfigError.InvalidData(["S3_BUCKET"], ...)`), with the prefix
 * helpers expanded: a function of the file whose body reads `${prefix}_SUFFIX` (`oauthProvider`)
 * turns each call `oauthProvider("CALENDAR", ...)` into `CALENDAR_SUFFIX`, for each of its suffixes.
 */
const variablesNamed = (source: string): ReadonlyArray<string> => {
  // a top-level function and its body: from `const name = (param: string` to the next top-level declaration
  const helpers = new Map<string, ReadonlyArray<string>>()
  for (const match of source.matchAll(/^(?:export )?const (\w+) = \(\s*(\w+): string[\s\S]*?(?=^(?:export |const |\/\*\*))/gm)) {
    const [body, name, param] = match as unknown as [string, string, string]
    const suffixes = Array.from(body.matchAll(new RegExp(`\\$\\{${param}\\}_(${NAME})`, "g")), (m) => m[1]!)
    if (suffixes.length > 0) helpers.set(name, suffixes)
  }
  const names = new Set<string>()
  for (const match of source.matchAll(new RegExp(`(?:(\\w+)\\(\\s*)?["\`](${NAME})["\`]`, "g"))) {
    const [, callee, name] = match as unknown as [string, string | undefined, string]
    const suffixes = callee === undefined ? undefined : helpers.get(callee)
    if (suffixes === undefined) names.add(name)
    else for (const suffix of suffixes) names.add(`${name}_${suffix}`)
  }
  return [...names].sort()
}

/** The names the page lists, each written as code: `` `NAME` ``. */
const variablesListed = (page: string): ReadonlySet<string> =>
  new Set(Array.from(page.matchAll(/`([A-Z][A-Z0-9_]*)`/g), (match) => match[1]!))

describe("docs/configuration.md", () => {
  const page = readFileSync(root("docs/configuration.md"), "utf8")
  const source = readFileSync(root("packages/server/src/config.ts"), "utf8")

  it.effect("lists every variable the configuration reads", () =>
    Effect.gen(function* () {
      const read = yield* variablesRead
      // The recorder sees the prefix helpers' variables and the plain ones alike.
      expect(read).toEqual(expect.arrayContaining(["PORT", "DATABASE_URL", "CALENDAR_CLIENT_ID", "VIDEO_API_URL", "S3_BUCKET", "LOG_FORMAT"]))
      const listed = variablesListed(page)
      expect(read.filter((name) => !listed.has(name)), "variables config.ts reads that docs/configuration.md does not list").toEqual([])
    }))

  it("lists every variable named in config.ts's source", () => {
    const quoted = variablesNamed(source)
    expect(quoted).toEqual(expect.arrayContaining(["PORT", "SECRETS_KEY", "OPENAI_API_KEY", "CALENDAR_CLIENT_SECRET", "VIDEO_TOKEN_URL"]))
    expect(quoted).not.toContain("CALENDAR")
    const listed = variablesListed(page)
    expect(quoted.filter((name) => !listed.has(name)), "variables named in config.ts that docs/configuration.md does not list").toEqual([])
  })

  it.effect("the recording provider sees every variable the source names (the two readings agree)", () =>
    Effect.gen(function* () {
      const read = new Set(yield* variablesRead)
      const missed = variablesNamed(source).filter((name) => !read.has(name))
      // A name the source quotes but the configuration never asks for with an empty environment would
      // be read only when another variable is set, or the source reading went wrong: either is worth a
      // look (the page must list it all the same, as the test above checks). Today there is none.
      expect(missed).toEqual([])
    }))
})
