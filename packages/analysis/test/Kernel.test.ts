/**
 * The WebAssembly kernels: the bytes the package runs are kernel.wat's build, and the kernel's
 * memory keeps every placed mixture right when it starts its arena again or grows.
 */
import { describe, expect, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { logLikelihood, logLikelihoods, trainGmm } from "../src/signal/Gmm.js"
import { kernel } from "../src/signal/wasm/Kernel.js"
import { KERNEL_BASE64 } from "../src/signal/wasm/kernelBytes.js"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..")

let seed = 7
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
const rows = (n: number, dims: number, shift: number) => Float32Array.from({ length: n * dims }, (_, i) => random() * 3 + ((i % dims) % 4) * shift)

describe("Kernel", () => {
  it("runs kernel.wat's build (npm run build:wasm writes kernelBytes.ts)", () => {
    const built = execFileSync("node", [path.join(root, "scripts/build-wasm.mjs"), "--print"], { encoding: "utf8" }).trim()
    expect(KERNEL_BASE64).toBe(built)
  })

  it("scores a mixture the same after the arena started again and after the memory grew", () => {
    const dims = 12
    const x = rows(400, dims, 1)
    const a = trainGmm(x, 400, dims, 6, 3)
    const b = trainGmm(rows(400, dims, -2), 400, dims, 6, 3)
    const before = Array.from({ length: 400 }, (_, i) => logLikelihood(a, x, i * dims))
    const generation = kernel.generation
    // fill the arena: every placement before is dropped
    for (let i = 0; i < 40; i++) kernel.place(64 * 1024)
    expect(kernel.generation).toBeGreaterThan(generation)
    expect(Array.from({ length: 400 }, (_, i) => logLikelihood(a, x, i * dims))).toEqual(before)
    // a mixture larger than the memory (14,000 dimensions: 1.8 MB placed): the memory grows
    const wide = 14_000
    const bytes = kernel.f64.buffer.byteLength
    const w = trainGmm(rows(4, wide, 0.5), 4, wide, 1, 2)
    expect(Number.isFinite(logLikelihood(w, rows(1, wide, 0.5)))).toBe(true)
    expect(kernel.f64.buffer.byteLength).toBeGreaterThan(bytes)
    expect(Array.from({ length: 400 }, (_, i) => logLikelihood(a, x, i * dims))).toEqual(before)
    // several models on one row, a missing one answered -Infinity
    const out = new Float64Array(3)
    logLikelihoods([a, undefined, b], x, 5 * dims, out)
    expect([...out]).toEqual([before[5], -Infinity, logLikelihood(b, x, 5 * dims)])
  })
})
