/**
 * What both blob stores (calls/BlobStore.ts: a local directory; calls/S3BlobStore.ts: object
 * storage) offer, how they fail, and the local directory of temporary files both keep. Callers
 * import it through BlobStore.ts.
 */
import { Data, Effect, type Option, type Stream } from "effect"
import { mkdir, readdir, rm, stat } from "node:fs/promises"
import { join } from "node:path"

/** The stream was longer than the limit; what was written is removed. */
export class BlobTooLarge extends Data.TaggedError("BlobTooLarge")<{ readonly limitBytes: number }> {}

export class BlobWriteFailed extends Data.TaggedError("BlobWriteFailed")<{ readonly cause: unknown }> {}

/** A stored blob could not be read (missing, or the store could not be reached). */
export class BlobReadFailed extends Data.TaggedError("BlobReadFailed")<{ readonly key: string; readonly message: string }> {}

/** The store cannot be used now (`/ready` answers 503 with the message). */
export class BlobStoreUnavailable extends Data.TaggedError("BlobStoreUnavailable")<{ readonly message: string }> {}

/**
 * A request to the object storage failed: what was asked and why, in words (never the
 * credentials). The `cause` of a `BlobWriteFailed` of the S3 store.
 */
export class S3RequestFailed extends Data.TaggedError("S3RequestFailed")<{ readonly message: string }> {}

/** A span of bytes of a file: the first and the last (included), counted from 0. */
export interface ByteSpan {
  readonly start: number
  readonly end: number
}

export interface StagedBlob {
  /** Where the staged file is until `commit` or `discard`: a local path, or an object's key. */
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

export interface BlobStoreShape {
  /** "local" or "s3". */
  readonly backend: "local" | "s3"
  /** Where the blobs are, for logs: a directory, or `s3://bucket/prefix`. */
  readonly location: string
  /**
   * Writes a stream to a staging place while its size, SHA-256 and first bytes are taken (memory
   * stays flat whatever its size), failing with `BlobTooLarge` past `limitBytes`. What was written
   * of a failed stream is removed.
   */
  readonly stage: <E>(
    content: Stream.Stream<Uint8Array, E>,
    options: { limitBytes: number; headBytes: number }
  ) => Effect.Effect<StagedBlob, E | BlobTooLarge | BlobWriteFailed>
  /** Moves a staged file under its key. */
  readonly commit: (staged: StagedBlob, key: string) => Effect.Effect<void, BlobWriteFailed>
  /** Removes a staged file that will not be committed. */
  readonly discard: (staged: StagedBlob) => Effect.Effect<void>
  /** Removes the file under `key`, if any. */
  readonly remove: (key: string) => Effect.Effect<void>
  /** Whether the file under `key` is still kept. */
  readonly exists: (key: string) => Effect.Effect<boolean>
  /**
   * The local path of the file under `key`: the local store only. Readers that work in both
   * stores use `withLocalFile` or `read`.
   */
  readonly pathOf: (key: string) => string
  /** The file under `key` as a stream of bytes. */
  readonly read: (key: string) => Stream.Stream<Uint8Array, BlobReadFailed>
  /** The size in bytes of the file under `key`; none when it is not kept. Unreachable storage fails. */
  readonly size: (key: string) => Effect.Effect<Option.Option<number>, BlobReadFailed>
  /**
   * The bytes `start` to `end` (both included, `end` within the file) of the file under `key`, as a
   * stream: a range of a local file, a ranged GetObject (`Range: bytes=start-end`) in object storage.
   */
  readonly readRange: (key: string, range: ByteSpan) => Stream.Stream<Uint8Array, BlobReadFailed>
  /**
   * Runs `use` with a local path of the file under `key`: the file itself in the local store, a
   * temporary copy (removed afterwards) in object storage.
   */
  readonly withLocalFile: <A, E, R>(
    key: string,
    use: (path: string) => Effect.Effect<A, E, R>
  ) => Effect.Effect<A, E | BlobReadFailed, R>
  /** Whether the store can be used now (the bucket answers): for `/ready`. */
  readonly check: Effect.Effect<void, BlobStoreUnavailable>
}

/** Removes the staged files of uploads interrupted by a crash; answers how many. */
export const sweepStale = async (dir: string, olderThanMs: number): Promise<number> => {
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

/**
 * The local directory for temporary files (staged uploads here, downloaded copies in object
 * storage), swept of what a crash left.
 */
export const localTmpDir = (blobDir: string) =>
  Effect.gen(function* () {
    const tmpDir = join(blobDir, "tmp")
    yield* Effect.promise(() => mkdir(tmpDir, { recursive: true }))
    const swept = yield* Effect.promise(() => sweepStale(tmpDir, STALE_STAGED_MS))
    if (swept > 0) yield* Effect.logInfo(`removed ${swept} partial upload(s) left in ${tmpDir}`)
    return tmpDir
  })
