/**
 * `npm run test:quick`: the tests that need no server, no database and no browser (the packages'
 * unit tests, the providers' parsing, the configuration, the docs and the lint rules, the CLI's
 * help), for the edit-test loop: well under 90 s on a 2-core machine. `npm test` runs them too.
 */
import { defineConfig } from "vitest/config"
import base from "./vitest.config.js"

const QUICK = [
  "packages/analysis/test/**/*.test.ts",
  "packages/api-spec/test/**/*.test.ts",
  "packages/client/test/**/*.test.ts",
  "packages/server/test/transcription/*.test.ts",
  "packages/server/test/conversation/*.test.ts",
  "packages/server/test/{Config,ConfigDocs,Redact,Secrets,BlobStore,EvalLlm,ClosingAuditFigures}.test.ts",
  "test/{docs,lint-rules,cli-help}.test.ts"
]

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: QUICK,
    // Chromium's screenshot of the report is not quick
    exclude: ["packages/analysis/test/ReportScreenshot.test.ts", "**/node_modules/**"],
    // the wiki's module only: no database template
    globalSetup: ["packages/server/test/utils/WikiSetup.ts"],
    poolMatchGlobs: []
  }
})
