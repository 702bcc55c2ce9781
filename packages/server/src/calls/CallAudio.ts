/**
 * A call's recording for the player (`GET /v1/client-portal/calls/{call_id}/audio`): the file as it
 * was uploaded, streamed from the blob store (a local file or an object), whole (200) or one range
 * of bytes (206, lib/ByteRange.ts), typed by the format sniffed at upload. Another tenant's call,
 * and for a rep another closer's, is 404 like an unknown one; a recording the retention policy
 * removed (`audio_removed_at`) is 410, the analysis staying. Never cached by a shared cache
 * (`private, no-store`): the recording is the tenant's.
 */
import { type CallId, type ClientId, Gone, NotFound, RangeNotSatisfiable, type Sees } from "@callsight/api-spec"
import { HttpApp, HttpServerResponse } from "@effect/platform"
import { Effect, Option } from "effect"
import { rangeOf } from "../lib/ByteRange.js"
import { sees } from "../tenancy/Sees.js"
import { BlobStore } from "./BlobStore.js"
import { CallsRepo } from "./CallsRepo.js"

/** The media type of each stored format. */
export const AUDIO_TYPES = { mp3: "audio/mpeg", wav: "audio/wav", m4a: "audio/mp4" } as const

/** What the player's request carries of ranges: `Range`, and whether an `If-Range` came with it. */
export interface RangeRequest {
  readonly range: string | undefined
  /**
   * An `If-Range` was sent. This answer has no validator (no ETag, no Last-Modified), so no
   * If-Range can match it: the range is ignored and the whole file sent (RFC 9110 §13.1.5).
   */
  readonly ifRange: boolean
}

export class CallAudio extends Effect.Service<CallAudio>()("CallAudio", {
  effect: Effect.gen(function* () {
    const repo = yield* CallsRepo
    const blobs = yield* BlobStore

    const answer = Effect.fn("CallAudio.answer")(function* (clientId: ClientId, callId: CallId, seen: Sees, request: RangeRequest) {
      const notFound = new NotFound({ message: `no call ${callId}` })
      const found = yield* Effect.orDie(repo.findAudio(clientId, callId))
      if (Option.isNone(found) || !sees(seen, found.value.closer_email)) return yield* notFound
      const call = found.value
      if (call.audio_removed_at !== null) {
        return yield* new Gone({
          message: `the recording of call ${callId} was removed on ${call.audio_removed_at.slice(0, 10)} by the account's retention setting; its analysis stays`
        })
      }
      const size = yield* Effect.orDie(blobs.size(call.blob_key))
      if (Option.isNone(size)) {
        yield* Effect.logWarning("a call's recording is not in the blob store").pipe(Effect.annotateLogs({ call_id: callId }))
        return yield* new NotFound({ message: `no recording is kept for call ${callId}` })
      }
      const total = size.value
      const headers = { "accept-ranges": "bytes", "cache-control": "private, no-store" }
      const asked = request.ifRange ? ({ _tag: "Whole" } as const) : rangeOf(request.range, total)
      if (asked._tag === "Unsatisfiable") {
        // the platform writes the error's body; the answer gets the size it needs to ask again
        yield* HttpApp.appendPreResponseHandler((_request, response) =>
          Effect.succeed(
            response.status === 416
              ? HttpServerResponse.setHeaders(response, { ...headers, "content-range": `bytes */${total}` })
              : response
          )
        )
        return yield* new RangeNotSatisfiable({ message: `the range ${request.range} starts past the end of the recording (${total} bytes)` })
      }
      const contentType = AUDIO_TYPES[call.format]
      if (asked._tag === "Whole") {
        return HttpServerResponse.stream(blobs.read(call.blob_key), { status: 200, contentType, contentLength: total, headers })
      }
      return HttpServerResponse.stream(blobs.readRange(call.blob_key, asked), {
        status: 206,
        contentType,
        contentLength: asked.end - asked.start + 1,
        headers: { ...headers, "content-range": `bytes ${asked.start}-${asked.end}/${total}` }
      })
    })

    return { answer } as const
  }),
  dependencies: [CallsRepo.Default, BlobStore.Default]
}) {}
