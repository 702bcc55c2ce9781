/**
 * Where the audio of calls lives (uploads and the recorder's recordings): a local directory
 * (`BLOB_DIR`). On the shared floor, as both features write it. A file is streamed to a temporary
 * file while its size, SHA-256 and first bytes are taken, so memory stays flat whatever its size;
 * it is moved under its key once the call row is about to commit. Partial files of uploads a crash
 * interrupted are removed when the store starts.
 */
import { Data, Effect, Stream } from "effect"
import { createHash, randomUUID } from "node:crypto"
import { createWriteStream } from "node:fs"
import { mkdir, readdir, rename, rm, stat } from "node:fs/promises"
import { dirname, join } from "node:path"
import { AppConfig } from "../config.js"

/** The stream was longer than the limit; what was written is removed. */
export class BlobTooLarge extends Data.TaggedError("BlobTooLarge")<{ readonly limitBytes: number }> {}

export class BlobWriteFailed extends Data.TaggedError("BlobWriteFailed")<{ readonly cause: unknown }> {}

export interface StagedBlob {
  readonly tmpPath: string
  readonly size: number
  readonly sha256: string
  /** The first bytes (up to `headBytes` of `stage`), to sniff the format. */
  readonly head: Uint8Array
}

/**
 * A staged file untouched this long belongs to no upload in progress (an upload writes as its bytes
 * arrive, and a request's body times out long before): it was left by a process that died.
 */
export const STALE_STAGED_MS = 10 * 60 * 1000

/** Removes the staged files of uploads interrupted by a crash; answers how many. */
const sweepStale = async (dir: string, olderThanMs: number): Promise<number> => {
  const now = Date.now()
  let removed = 0
  for (const name of await readdir(dir)) {
    const path = join(dir, name)
    const info = await stat(path).catch(() => undefined)
    if (info?.isFile() === true && now - info.mtimeMs > olderThanMs) {
      await rm(path, { force: true })
      removed += 1
    }
  }
  return removed
}

export class BlobStore extends Effect.Service<BlobStore>()("BlobStore", {
  effect: Effect.gen(function* () {
    const { blobDir } = yield* AppConfig
    const tmpDir = join(blobDir, "tmp")
    yield* Effect.promise(() => mkdir(tmpDir, { recursive: true }))
    const swept = yield* Effect.promise(() => sweepStale(tmpDir, STALE_STAGED_MS))
    if (swept > 0) yield* Effect.logInfo(`removed ${swept} partial upload(s) left in ${tmpDir}`)

    const pathOf = (key: string) => join(blobDir, key)

    /** Writes a stream to a temporary file, failing with `BlobTooLarge` past `limitBytes`. */
    const stage = <E>(content: Stream.Stream<Uint8Array, E>, options: { limitBytes: number; headBytes: number }) =>
      Effect.acquireUseRelease(
        Effect.sync(() => join(tmpDir, randomUUID())),
        (tmpPath) =>
          Effect.gen(function* () {
            const hash = createHash("sha256")
            const { headBytes, limitBytes } = options
            const head = new Uint8Array(headBytes)
            let size = 0
            const out = createWriteStream(tmpPath)
            const closed = Effect.async<void, BlobWriteFailed>((resume) => {
              out.once("error", (cause) => resume(Effect.fail(new BlobWriteFailed({ cause }))))
              out.once("finish", () => resume(Effect.void))
            })
            const write = (chunk: Uint8Array) =>
              Effect.async<void>((resume) => {
                // Back-pressure: wait for the disk when its buffer is full.
                if (out.write(chunk)) resume(Effect.void)
                else out.once("drain", () => resume(Effect.void))
              })
            yield* Stream.runForEach(content, (chunk) => {
              if (size < headBytes) head.set(chunk.subarray(0, headBytes - size), size)
              size += chunk.length
              if (size > limitBytes) return Effect.fail(new BlobTooLarge({ limitBytes }))
              hash.update(chunk)
              return write(chunk)
            }).pipe(Effect.onExit(() => Effect.sync(() => out.end())))
            yield* closed
            return { tmpPath, size, sha256: hash.digest("hex"), head: head.slice(0, Math.min(size, headBytes)) }
          }),
        // On failure the partial file goes; on success `commit` or `discard` takes it over.
        (tmpPath, exit) => (exit._tag === "Failure" ? Effect.promise(() => rm(tmpPath, { force: true })) : Effect.void)
      )

    /** Moves a staged file under its key. */
    const commit = (staged: StagedBlob, key: string) =>
      Effect.tryPromise({
        try: async () => {
          await mkdir(dirname(pathOf(key)), { recursive: true })
          await rename(staged.tmpPath, pathOf(key))
        },
        catch: (cause) => new BlobWriteFailed({ cause })
      })

    const discard = (staged: StagedBlob) => Effect.promise(() => rm(staged.tmpPath, { force: true }))

    const remove = (key: string) => Effect.promise(() => rm(pathOf(key), { force: true }))

    /** Whether the file under `key` is still kept. */
    const exists = (key: string) => Effect.promise(() => stat(pathOf(key)).then((info) => info.isFile(), () => false))

    return { stage, commit, discard, remove, pathOf, exists } as const
  })
}) {}
