import { defineConfig } from "vitest/config"

// Workspace packages resolve to their TypeScript sources (the "source" export condition),
// so tests never run stale builds.
const conditions = ["source", "node", "development|production"]

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ["packages/*/test/**/*.test.ts", "test/**/*.test.ts"],
    // the wiki's Markdown, written into the module the server imports (as `npm run build` does)
    globalSetup: ["packages/server/test/utils/WikiSetup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // packages that publish their TypeScript under a "source" export condition too (the MCP SDK's
    // client reads server-sent events with them): transformed by Vitest, not handed to Node as .ts
    server: { deps: { inline: [/@modelcontextprotocol\/sdk\/dist\/esm\/client\/(streamableHttp|sse)\.js$/, "eventsource-parser", "eventsource"] } }
  }
})
