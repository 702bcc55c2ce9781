/**
 * Where the audio of calls lives (uploads and the recorder's recordings): a local directory
 * (`BLOB_DIR`), or S3-compatible object storage when `S3_BUCKET` is set (calls/S3BlobStore.ts,
 * loaded only then). On the shared floor, as both features write it. A file is streamed to a
 * staging place (a temporary file here, a temporary object there) while its size, SHA-256 and
 * first bytes are taken, so memory stays flat whatever its size; it is moved under its key once the
 * call row is about to commit. Partial files of uploads a crash interrupted are removed when the
 * store starts.
 */
import { Effect, Option, Stream } from "effect"
import { createHash, randomUUID } from "node:crypto"
import { createReadStream, createWriteStream } from "node:fs"
import { mkdir, rename, rm, stat } from "node:fs/promises"
import { dirname, join } from "node:path"
import { AppConfig } from "../config.js"
import { BlobReadFailed, type BlobStoreShape, BlobTooLarge, BlobWriteFailed, type ByteSpan, localTmpDir, type StagedBlob } from "./Blob.js"

export {
  BlobReadFailed,
  type BlobStoreShape,
  BlobStoreUnavailable,
  BlobTooLarge,
  BlobWriteFailed,
  type ByteSpan,
  S3RequestFailed,
  STALE_STAGED_MS,
  type StagedBlob,
  sweepStale
} from "./Blob.js"

/** The blobs in a local directory. */
export const makeLocalBlobStore = (blobDir: string) =>
  Effect.gen(function* () {
    const tmpDir = yield* localTmpDir(blobDir)

    const pathOf = (key: string) => join(blobDir, key)

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

    const exists = (key: string) => Effect.promise(() => stat(pathOf(key)).then((info) => info.isFile(), () => false))

    const read = (key: string) =>
      Stream.fromAsyncIterable(
        createReadStream(pathOf(key)) as AsyncIterable<Uint8Array>,
        (cause) => new BlobReadFailed({ key, message: String(cause) })
      )

    const size = (key: string) =>
      Effect.promise(() => stat(pathOf(key)).then((info) => (info.isFile() ? Option.some(info.size) : Option.none()), () => Option.none<number>()))

    const readRange = (key: string, range: ByteSpan) =>
      Stream.fromAsyncIterable(
        createReadStream(pathOf(key), { start: range.start, end: range.end }) as AsyncIterable<Uint8Array>,
        (cause) => new BlobReadFailed({ key, message: String(cause) })
      )

    const withLocalFile = <A, E, R>(key: string, use: (path: string) => Effect.Effect<A, E, R>) =>
      Effect.suspend(() => use(pathOf(key)))

    const store: BlobStoreShape = {
      backend: "local",
      location: blobDir,
      stage,
      commit,
      discard,
      remove,
      exists,
      pathOf,
      read,
      size,
      readRange,
      withLocalFile,
      check: Effect.void
    }
    return store
  })

export class BlobStore extends Effect.Service<BlobStore>()("BlobStore", {
  scoped: Effect.gen(function* () {
    const { blobDir, s3 } = yield* AppConfig
    if (Option.isNone(s3)) return yield* makeLocalBlobStore(blobDir)
    // The AWS SDK is loaded only by a server that uses it.
    const { makeS3BlobStore } = yield* Effect.promise(() => import("./S3BlobStore.js"))
    return yield* makeS3BlobStore(s3.value, blobDir)
  })
}) {}
