/**
 * The CLI loads the server only for the commands that run it (`serve`, `worker`): a client command
 * such as `--version`, `upload` or `status` starts from the client bundle (bundle/client.cjs), the
 * stdio `mcp` from the ES bundle (bundle/callsight.js), both without it (the built CLI, as a user
 * runs it; every module it loads recorded by a module hook). The client bundle's compiled code is
 * kept between runs (bin/compile-cache.js). How fast it starts is `bench/cli.bench.ts`'s.
 */
import { describe, expect, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { CLI_BIN, ROOT } from "./utils/Server.js"

const HOOK = join(ROOT, "test/utils/RecordImports.mjs")
const CLI_ROOT = join(ROOT, "packages/cli")

/** The modules `callsight …args` loads, as file paths from the repository's root. */
const loadedBy = (args: ReadonlyArray<string>, env: Record<string, string> = {}) => {
  const run = spawnSync(process.execPath, ["--import", HOOK, CLI_BIN, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, CALLSIGHT_API_KEY: "", CALLSIGHT_URL: "http://127.0.0.1:9", ...env }
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
    expect(loaded.filter((path) => path.includes("/packages/cli/bundle/"))).toEqual([`${CLI_ROOT}/bundle/client.cjs`])
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
    expect(loaded).toContain(`${CLI_ROOT}/bundle/callsight.js`)
    expect(loaded).not.toContain(`${CLI_ROOT}/bundle/client.cjs`)
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

describe("the client bundle's compile cache", () => {
  it("runs a bundle without import(), which a script run from V8's cache could not do", () => {
    const bundle = readFileSync(join(CLI_ROOT, "bundle/client.cjs"), "utf8")
    expect(bundle.length).toBeGreaterThan(100_000)
    expect(bundle).not.toMatch(/\bimport\(/)
  })

  const version = (cacheHome: string, env: Record<string, string> = {}) => {
    const run = spawnSync(process.execPath, [CLI_BIN, "--version"], {
      encoding: "utf8",
      timeout: 60_000,
      env: { ...process.env, XDG_CACHE_HOME: cacheHome, NODE_DISABLE_COMPILE_CACHE: "", ...env }
    })
    expect(run.status).toBe(0)
    expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/)
  }
  const caches = (directory: string) =>
    existsSync(directory) ? readdirSync(directory).filter((name) => name.startsWith("v8-client-")) : []

  /** Runs `check` with a cache home of its own (and the cache's directory in it), removed afterwards. */
  const inCacheHome = (check: (home: string, directory: string) => void) => {
    const home = mkdtempSync(join(tmpdir(), "callsight-cache-"))
    try {
      check(home, join(home, "callsight"))
    } finally {
      rmSync(home, { recursive: true, force: true })
    }
  }

  it("is written once, privately, by the first run; later runs use it and leave it as it is", () =>
    inCacheHome((home, directory) => {
      version(home)
      const [name] = caches(directory)
      expect(caches(directory)).toHaveLength(1)
      expect(name).toContain(`-${process.version}-${process.arch}`)
      expect(statSync(directory).mode & 0o777).toBe(0o700)
      const written = statSync(join(directory, name!))
      expect(written.mode & 0o777).toBe(0o600)
      expect(written.size).toBeGreaterThan(100_000)
      version(home)
      // accepted by V8, so not written again (a rejected one would be replaced by a new file)
      expect(statSync(join(directory, name!)).ino).toBe(written.ino)
      expect(caches(directory)).toEqual([name])
    }))

  it("replaces a cache V8 rejects, removes an earlier build's, and is off with NODE_DISABLE_COMPILE_CACHE", () => {
    inCacheHome((home, directory) => {
      version(home)
      const [name] = caches(directory)
      writeFileSync(join(directory, name!), "not V8's data")
      const earlier = `v8-client-${"0".repeat(32)}-${process.version}-${process.arch}`
      writeFileSync(join(directory, earlier), "an earlier build's")
      version(home)
      expect(caches(directory)).toEqual([name])
      expect(statSync(join(directory, name!)).size).toBeGreaterThan(100_000)
    })
    inCacheHome((home, directory) => {
      version(home, { NODE_DISABLE_COMPILE_CACHE: "1" })
      expect(caches(directory)).toEqual([])
    })
  })
})
