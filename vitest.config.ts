import { defineConfig } from "vitest/config"

export default defineConfig({
  resolve: {
    // Workspace packages resolve to their TypeScript sources (the "source" export condition).
    conditions: ["source"]
  },
  test: {
    include: ["packages/*/test/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks"
  }
})
