/**
 * The README's status table, derived from the declaration and its `Pending` lists: which groups
 * there are, how many operations each has, and which still answer 501. `npm run status` writes it
 * into README.md between its markers; a test (packages/api-spec/test/Status.test.ts) fails when
 * the README's table is not this one.
 */
import { CallsightApi, isPending } from "@callsight/api-spec"
import { HttpApi, OpenApi } from "@effect/platform"
import { Context } from "effect"
import { readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

export const START = "<!-- status:start (npm run status writes this table) -->"
export const END = "<!-- status:end -->"

interface GroupStatus {
  readonly title: string
  operations: number
  readonly pending: Array<string>
}

const groups = (): Array<GroupStatus> => {
  const out: Array<GroupStatus> = []
  HttpApi.reflect(CallsightApi as unknown as HttpApi.HttpApi.AnyWithProps, {
    onGroup: ({ group }) => {
      out.push({ title: Context.getOrElse(group.annotations, OpenApi.Title, () => group.identifier), operations: 0, pending: [] })
    },
    onEndpoint: ({ endpoint, group }) => {
      const status = out.at(-1)!
      status.operations += 1
      if (isPending(group.identifier, endpoint.name)) {
        status.pending.push(`\`${endpoint.method} ${endpoint.path.replace(/:(\w+)/g, "{$1}")}\``)
      }
    }
  })
  return out
}

/** The table, as Markdown. */
export const statusTable = (): string => {
  const rows = groups().map((g) => {
    const built = g.operations - g.pending.length
    const pending = g.pending.length === 0 ? "" : built === 0 ? "all" : g.pending.join(", ")
    return `| ${g.title} | ${g.operations} | ${built} | ${pending} |`
  })
  const all = groups()
  const total = all.reduce((n, g) => n + g.operations, 0)
  const pending = all.reduce((n, g) => n + g.pending.length, 0)
  return [
    "| group | operations | built | not built yet (501 `NotImplemented`) |",
    "|---|---|---|---|",
    ...rows,
    `| **all** | **${total}** | **${total - pending}** | **${pending}** |`
  ].join("\n")
}

/** README.md with its status table replaced by `table`. */
export const withStatusTable = (readme: string, table: string): string => {
  const start = readme.indexOf(START)
  const end = readme.indexOf(END)
  if (start < 0 || end < start) throw new Error(`README.md has no ${START} … ${END} markers`)
  return `${readme.slice(0, start + START.length)}\n${table}\n${readme.slice(end)}`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const path = new URL("../README.md", import.meta.url)
  writeFileSync(path, withStatusTable(readFileSync(path, "utf8"), statusTable()))
}
