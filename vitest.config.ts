import { availableParallelism } from "node:os"
import { defineConfig } from "vitest/config"

// Workspace packages resolve to their TypeScript sources (the "source" export condition),
// so tests never run stale builds.
const conditions = ["source", "node", "development|production"]

/**
 * Test files that need modules of their own (a fresh module graph): each builds a server of its
 * own configuration or an HttpApi of its own beside the service's, and module-level state of
 * @effect/platform (the API router, the multipart limits) carried over from another file changes
 * what they see. Every other file shares its worker's modules with the files before it
 * (`isolate: false`): the server's graph is imported once per worker, not once per file, which was
 * most of the suite's time after the tests themselves.
 */
const ALL = ["packages/*/test/**/*.test.ts", "test/**/*.test.ts"]
const ISOLATED = ["packages/server/test/Audio.test.ts", "packages/server/test/Middleware.test.ts"]

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    // the wiki's Markdown, written into the module the server imports (as `npm run build` does);
    // one migrated database that every test file's starts from; one `callsight serve` that the
    // end-to-end files without a server of their own share
    globalSetup: [
      "packages/server/test/utils/WikiSetup.ts",
      "packages/server/test/utils/DatabaseTemplate.ts",
      "test/utils/SharedServer.ts"
    ],
    // a turn of the event loop after each test, so that a fork reads the main process's answers
    // between synchronous tests (test/utils/YieldBetweenTests.ts)
    setupFiles: ["test/utils/YieldBetweenTests.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // most tests wait on servers, child processes and timers: one worker per core, at least two
    // (vitest's default is one less than the cores, a single worker on a 2-core machine)
    maxWorkers: Math.max(2, availableParallelism()),
    minWorkers: 1,
    // packages that publish their TypeScript under a "source" export condition too (the MCP SDK's
    // client reads server-sent events with them): transformed by Vitest, not handed to Node as .ts
    server: { deps: { inline: [/@modelcontextprotocol\/sdk\/dist\/esm\/client\/(streamableHttp|sse)\.js$/, "eventsource-parser", "eventsource"] } },
    include: ALL,
    // every file but ISOLATED shares its worker's modules with the files before it; ISOLATED run in
    // the threads pool, isolated. (`poolMatchGlobs` is deprecated for `projects`, but projects would
    // each run the global setup, the migrated template included, again.)
    poolOptions: { forks: { isolate: false }, threads: { isolate: true } },
    poolMatchGlobs: ISOLATED.map((file) => [`**/${file}`, "threads"])
  }
})
