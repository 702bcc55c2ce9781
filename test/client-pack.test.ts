/**
 * @callsight/client outside the repository: `npm pack` gives a tarball that a fresh project
 * installs (its dependencies from the npm registry, the local cache first) and imports as the
 * README says. The README's two client examples are taken from the README as they are written,
 * type-checked against the installed package's declarations, and run with Node against the real
 * `callsight serve` started here.
 *
 * The package is packed from the build (`npm test` builds first; `--ignore-scripts` so that its
 * `prepack` does not rebuild dist/ under the other test files running at the same time).
 */
import { createCallsightClient } from "@callsight/client"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { existsSync } from "node:fs"
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { FIXTURE_FILES, writeWavClip } from "./utils/Audio.js"
import { ROOT, sharedServer } from "./utils/Server.js"

const NPM = process.platform === "win32" ? "npm.cmd" : "npm"

/** The client's examples (packages/client/examples), which its README carries and the package ships. */
const EXAMPLES = ["analyze-call.ts", "effect-agent.ts", "errors.ts", "own-http-client.ts", "webhook-receiver.ts"]

/** The environment of a child process: no vitest, no npm lifecycle of the parent, plus `extra`. */
const childEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(VITEST|npm_lifecycle_|npm_package_|npm_config_workspace|npm_config_include_workspace_root)/.test(name)) continue
    if (["NODE_OPTIONS", "CALLSIGHT_URL", "CALLSIGHT_API_KEY", "CALLSIGHT_ADMIN_KEY", "INIT_CWD"].includes(name)) continue
    env[name] = value
  }
  return { ...env, NO_COLOR: "1", ...extra }
}

interface Run {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs a command to its end, killed after `timeoutMs`. */
const run = (command: string, args: ReadonlyArray<string>, options: { cwd: string; timeoutMs: number; env?: Record<string, string> }) =>
  new Promise<Run>((resolve) => {
    execFile(
      command,
      args,
      { cwd: options.cwd, env: childEnv(options.env), timeout: options.timeoutMs, killSignal: "SIGKILL", maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : null
        resolve({ code, stdout, stderr: error !== null && error.killed ? `${stderr}\n(killed after ${options.timeoutMs} ms)` : stderr })
      }
    )
  })

const expectOk = (result: Run, what: string) =>
  expect(result.code, `${what}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`).toBe(0)

/** The `ts` code blocks of the README's "Client SDK" section, as they are written. */
const readmeClientExamples = async (): Promise<Array<string>> => {
  const readme = await readFile(join(ROOT, "README.md"), "utf8")
  const start = readme.indexOf("\n## Client SDK\n")
  expect(start, "the README has a Client SDK section").toBeGreaterThan(0)
  const end = readme.indexOf("\n## ", start + 1)
  const section = readme.slice(start, end === -1 ? undefined : end)
  return [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!)
}

let server: { readonly url: string; readonly adminKey: string } | undefined
let project: string
let packDir: string

beforeAll(async () => {
  if (!existsSync(join(ROOT, "packages/client/dist/index.js"))) {
    throw new Error("packages/client/dist is missing: run `npm run build` before the end-to-end tests")
  }
  project = await mkdtemp(join(tmpdir(), "callsight-client-pack-"))
  packDir = await mkdtemp(join(tmpdir(), "callsight-client-tgz-"))
  server = await sharedServer()
}, 120_000)

afterAll(async () => {
  for (const dir of [project, packDir]) if (dir !== undefined) await rm(dir, { recursive: true, force: true })
})

describe("the packed client in a fresh project", () => {
  let tarball: string

  it("npm pack gives one tarball with the bundled declaration and no workspace dependency", async () => {
    const packed = await run(NPM, ["pack", "-w", "@callsight/client", "--ignore-scripts", "--pack-destination", packDir, "--json"], {
      cwd: ROOT,
      timeoutMs: 60_000
    })
    expectOk(packed, "npm pack")
    const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>
    expect(info!.files.map((f) => f.path).sort()).toEqual([
      "README.md",
      "dist/index.d.ts",
      "dist/index.js",
      "dist/index.js.map",
      ...EXAMPLES.map((name) => `examples/${name}`),
      "package.json"
    ])
    tarball = join(packDir, info!.filename)
    expect(await readdir(packDir)).toEqual([info!.filename])
    // api-spec is bundled (code and types): nothing of the installed package asks for it
    const [js, dts] = await Promise.all([
      readFile(join(ROOT, "packages/client/dist/index.js"), "utf8"),
      readFile(join(ROOT, "packages/client/dist/index.d.ts"), "utf8")
    ])
    expect(js).not.toContain("@callsight/api-spec")
    expect(dts).not.toContain("@callsight/api-spec")
  }, 90_000)

  it("installs into a project outside the repository (npm install <tarball>)", async () => {
    expect(tarball, "packed by the previous test").toBeDefined()
    await writeFile(
      join(project, "package.json"),
      JSON.stringify({ name: "callsight-client-pack-test", version: "1.0.0", private: true, type: "module" }, null, 2)
    )
    const installed = await run(NPM, ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", tarball], {
      cwd: project,
      timeoutMs: 120_000
    })
    expectOk(installed, "npm install")
    const manifest = JSON.parse(await readFile(join(project, "node_modules/@callsight/client/package.json"), "utf8"))
    expect(Object.keys(manifest.dependencies).sort()).toEqual(["@effect/platform", "effect"])
    expect(existsSync(join(project, "node_modules/@callsight/api-spec"))).toBe(false)
    // the package's README is the repository's, byte for byte
    expect(await readFile(join(project, "node_modules/@callsight/client", "README.md"), "utf8")).toBe(
      await readFile(join(ROOT, "packages/client", "README.md"), "utf8")
    )
  }, 150_000)

  it("the README's examples and the package's own type-check against the installed declarations", async () => {
    const examples = await readmeClientExamples()
    expect(examples).toHaveLength(2)
    for (const [i, code] of examples.entries()) await writeFile(join(project, `example-${i + 1}.ts`), code)
    // the examples the package ships (packages/client/examples, which its README carries)
    for (const name of EXAMPLES) {
      const code = await readFile(join(project, "node_modules/@callsight/client/examples", name), "utf8")
      await writeFile(join(project, `example-client-${name}`), code)
    }
    await writeFile(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "es2022",
          module: "nodenext",
          moduleResolution: "nodenext",
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          // Node's types from the repository (the fresh project has only the client and its dependencies)
          typeRoots: [join(ROOT, "node_modules/@types")],
          types: ["node"]
        },
        include: ["example-*.ts"]
      })
    )
    const checked = await run(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], {
      cwd: project,
      timeoutMs: 60_000
    })
    expectOk(checked, "tsc")
  }, 90_000)

  it("the README's examples run with Node against a running server", async () => {
    const examples = await readmeClientExamples()
    for (const [i, code] of examples.entries()) await writeFile(join(project, `example-${i + 1}.mjs`), code)
    const url = server!.url

    // the admin example: a tenant, then a withdrawal refused as Conflict 409
    const adminRun = await run(process.execPath, ["example-1.mjs"], {
      cwd: project,
      timeoutMs: 30_000,
      env: { CALLSIGHT_URL: url, CALLSIGHT_ADMIN_KEY: server!.adminKey }
    })
    expectOk(adminRun, "example 1")
    expect(adminRun.stdout).toMatch(/^409 /m)

    // the agent example: the upload of calls/discovery.wav, followed to its end, report and analysis
    const admin = createCallsightClient({ baseUrl: url, apiKey: server!.adminKey })
    const tenant = await admin.admin.createClient({ company_name: "Pack Test Co", credits: 2 })
    await mkdir(join(project, "calls"))
    await writeWavClip(FIXTURE_FILES.wav, join(project, "calls/discovery.wav"), 20)
    const agentRun = await run(process.execPath, ["example-2.mjs"], {
      cwd: project,
      timeoutMs: 120_000,
      env: { CALLSIGHT_URL: url, CALLSIGHT_API_KEY: tenant.api_key }
    })
    expectOk(agentRun, "example 2")
    const tenantClient = createCallsightClient({ baseUrl: url, apiKey: tenant.api_key })
    const { calls } = await tenantClient.listCalls()
    expect(calls).toHaveLength(1)
    expect(calls[0]).toMatchObject({ external_call_id: "crm-123", status: "completed" })
  }, 180_000)
})
