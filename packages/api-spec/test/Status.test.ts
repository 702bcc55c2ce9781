/** The README's status table is the one derived from the declaration and its `Pending` lists. */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { statusTable, withStatusTable } from "../../../scripts/status.js"

describe("the README's status table", () => {
  it("is the table of the declaration and its pending lists (npm run status writes it)", () => {
    const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8")
    expect(withStatusTable(readme, statusTable())).toBe(readme)
  })

  it("counts the spec's 114 operations, the 12 extensions, the 5 webhook, the 12 members (6 for staff) the 2 payments, the 5 account, the 5 tracker, the 5 closing-audit and the 3 trends operations", () => {
    expect(statusTable().split("\n").at(-1)).toMatch(/^\| \*\*all\*\* \| \*\*164\*\* \|/)
  })
})
