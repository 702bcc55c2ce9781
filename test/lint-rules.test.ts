/**
 * The shape `npm run lint` enforces (.dependency-cruiser.cjs, drawn in docs/architecture.md) fails
 * the imports it forbids: a small tree laid out like ours, with one import of each kind, cruised
 * with the repository's own rules. The allowed imports beside them must pass.
 */
import { describe, expect, it } from "@effect/vitest"
import { cruise, type ICruiseResult } from "dependency-cruiser"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { ROOT } from "./utils/Server.js"

const config = createRequire(import.meta.url)(join(ROOT, ".dependency-cruiser.cjs"))

/** Each file of the tree with the modules it imports (paths from the tree's root). */
const TREE: Record<string, ReadonlyArray<string>> = {
  "packages/server/src/config.ts": [],
  "packages/server/src/lib/Ids.ts": [],
  "packages/server/src/ports/SpeechIntegrations.ts": [],
  "packages/server/src/tenancy/RuntimeFlags.ts": [],
  "packages/server/src/mcp/Tools.ts": ["../views/Search.js"],
  "packages/server/src/views/Search.ts": [],
  "packages/server/src/portal/Closers.ts": ["../mcp/Tools.js", "../ports/SpeechIntegrations.js"],
  "packages/server/src/llm/Assessor.ts": ["../ports/SpeechIntegrations.js", "../lib/Ids.js", "../config.js", "./ProviderHttp.js", "../tenancy/RuntimeFlags.js", "../transcription/Deepgram.js"],
  "packages/server/src/llm/ProviderHttp.ts": [],
  "packages/server/src/transcription/Deepgram.ts": ["../ports/SpeechIntegrations.js", "../views/Search.js"],
  "packages/server/src/ports/MeetingCalendars.ts": ["../mcp/Tools.js"],
  "packages/analysis/src/Method.ts": ["../../server/src/config.js", "./Types.js"],
  "packages/analysis/src/Types.ts": []
}

const violationsOf = async (root: string): Promise<Array<string>> => {
  const { output } = await cruise(["packages"], {
    ...config.options,
    baseDir: root,
    validate: true,
    ruleSet: { forbidden: config.forbidden },
    outputType: "json"
  })
  const result = (typeof output === "string" ? JSON.parse(output) : output) as ICruiseResult
  return result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort()
}

describe("the lint's rules", () => {
  it("fail each forbidden import and pass the allowed ones", async () => {
    const root = mkdtempSync(join(tmpdir(), "callsight-lint-"))
    try {
      for (const [file, imports] of Object.entries(TREE)) {
        mkdirSync(dirname(join(root, file)), { recursive: true })
        writeFileSync(join(root, file), `${imports.map((i) => `import "${i}"`).join("\n")}\nexport {}\n`)
      }
      expect(await violationsOf(root)).toEqual([
        "analysis-stays-pure: packages/analysis/src/Method.ts → packages/server/src/config.ts",
        "engines-use-ports: packages/server/src/llm/Assessor.ts → packages/server/src/tenancy/RuntimeFlags.ts",
        "engines-use-ports: packages/server/src/llm/Assessor.ts → packages/server/src/transcription/Deepgram.ts",
        "engines-use-ports: packages/server/src/transcription/Deepgram.ts → packages/server/src/views/Search.ts",
        "feature-imports-feature: packages/server/src/portal/Closers.ts → packages/server/src/mcp/Tools.ts",
        "floor-imports-feature: packages/server/src/ports/MeetingCalendars.ts → packages/server/src/mcp/Tools.ts"
      ])
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
