/**
 * The CLI loads the server only for the commands that run it (`serve`, `worker`): a client command
 * such as `--version`, `upload` or the stdio `mcp` starts from the bundled build (bundle/) without
 * it (the built CLI, as a user runs it; every module it loads recorded by a module hook). How fast
 * it starts is `bench/cli.bench.ts`'s.
 */
import { describe, expect, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { join } from "node:path"
import { CLI_BIN, ROOT } from "./utils/Server.js"

const HOOK = join(ROOT, "test/utils/RecordImports.mjs")

/** The modules `callsight …args` loads, as file paths from the repository's root. */
const loadedBy = (args: ReadonlyArray<string>) => {
  const run = spawnSync(process.execPath, ["--import", HOOK, CLI_BIN, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, CALLSIGHT_API_KEY: "", CALLSIGHT_URL: "http://127.0.0.1:9" }
  })
  const loaded = run.stderr.split("\n").filter((l) => l.startsWith("loaded file://")).map((l) => l.slice("loaded file://".length))
  return { status: run.status, stdout: run.stdout, loaded }
}

const fromServer = (loaded: ReadonlyArray<string>) => loaded.filter((path) => path.includes("/packages/server/"))
/** Modules read from node_modules: none for a bundled command (its dependencies are in the bundle). */
const fromNodeModules = (loaded: ReadonlyArray<string>) => loaded.filter((path) => path.includes("/node_modules/"))

describe("the CLI's start", () => {
  it("prints its version without loading the server", () => {
    const { status, stdout, loaded } = loadedBy(["--version"])
    expect(status).toBe(0)
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/)
    expect(loaded.filter((path) => path.includes("/packages/cli/bundle/")).length).toBeGreaterThan(0)
    expect(loaded.filter((path) => path.includes("/packages/cli/dist/"))).toEqual([])
    expect(fromServer(loaded)).toEqual([])
    expect(fromNodeModules(loaded)).toEqual([])
  })

  it("runs a client command (status, a usage error without a key) without loading the server", () => {
    const { status, loaded } = loadedBy(["status", "call_01JQ8ZK4V3M2N7P5R6S8T9W0XY"])
    expect(status).toBe(2)
    expect(fromServer(loaded)).toEqual([])
    expect(fromNodeModules(loaded)).toEqual([])
  })

  it("runs the stdio MCP server without the server (a usage error without a key, before any request)", () => {
    const { status, loaded } = loadedBy(["mcp"])
    expect(status).toBe(2)
    expect(fromServer(loaded)).toEqual([])
  })

  it("sees the server when it is loaded, so the checks above can fail; `serve` refuses a bad option before loading it", () => {
    const { status, loaded } = loadedBy(["serve", "--definitely-not-an-option"])
    expect(status).toBe(2)
    // serve runs from dist/, with its dependencies from node_modules as the server's
    expect(loaded.filter((path) => path.includes("/packages/cli/dist/")).length).toBeGreaterThan(0)
    expect(fromNodeModules(loaded).length).toBeGreaterThan(0)
    expect(fromServer(loaded)).toEqual([])
    const withServer = spawnSync(process.execPath, ["--import", HOOK, "-e", "await import('@callsight/server')"], {
      cwd: join(ROOT, "packages/cli"),
      encoding: "utf8",
      timeout: 60_000
    })
    expect(fromServer(withServer.stderr.split("\n").filter((l) => l.startsWith("loaded file://"))).length).toBeGreaterThan(0)
  })
})
