/** The blob store: what a crash left half-written is removed when the store starts, nothing else. */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { BlobStore, STALE_STAGED_MS } from "../src/calls/BlobStore.js"
import { AppConfig } from "../src/config.js"

describe("BlobStore", () => {
  it.scoped("removes staged files a crash left behind at start-up, and keeps an upload still being written", () =>
    Effect.gen(function* () {
      const blobDir = mkdtempSync(join(tmpdir(), "callsight-sweep-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(blobDir, { recursive: true, force: true })))
      mkdirSync(join(blobDir, "tmp"))
      const stale = join(blobDir, "tmp", "stale-upload")
      const fresh = join(blobDir, "tmp", "upload-in-progress")
      const stored = join(blobDir, "cli_a", "call_a.wav")
      mkdirSync(join(blobDir, "cli_a"))
      for (const path of [stale, fresh, stored]) writeFileSync(path, "bytes")
      const past = (Date.now() - STALE_STAGED_MS - 60_000) / 1000
      utimesSync(stale, past, past)
      utimesSync(stored, past, past)
      yield* Effect.provide(BlobStore, BlobStore.Default.pipe(Layer.provide(AppConfig.layerWith({ blobDir }))))
      expect(existsSync(stale)).toBe(false)
      expect(existsSync(fresh)).toBe(true)
      expect(existsSync(stored)).toBe(true)
    }))
})
