/**
 * The export of a tenant's data (issue 36; docs/portal.md "Export"), for its owners: NDJSON, one
 * `{type, data}` record a line, streamed as read (calls a page at a time, so memory stays flat
 * whatever the tenant's size), with the audit row `account.exported` written first. What it reads
 * is `ExportRepo`'s columns, which hold no secret.
 */
import { Forbidden } from "@callsight/api-spec"
import { HttpServerResponse } from "@effect/platform"
import { Chunk, Effect, Option, Stream } from "effect"
import { AuditLog } from "../tenancy/AuditLog.js"
import type { Caller } from "../tenancy/Caller.js"
import { EXPORT_PAGE, ExportRepo } from "./ExportRepo.js"

const encoder = new TextEncoder()
const line = (type: string, data: unknown): Uint8Array => encoder.encode(`${JSON.stringify({ type, data })}\n`)

export class Export extends Effect.Service<Export>()("Export", {
  effect: Effect.gen(function* () {
    const repo = yield* ExportRepo
    const audit = yield* AuditLog

    const exportAll = Effect.fn("Export.exportAll")(function* (caller: Caller) {
      if (caller.user.role !== "owner") return yield* new Forbidden({ message: "only an owner can export the account's data" })
      yield* Effect.orDie(audit.record(caller.clientId, caller.actor, { action: "account.exported", targetType: "tenant", targetId: caller.clientId }))
      const section = (type: keyof typeof repo.sections) =>
        Stream.fromIterableEffect(repo.sections[type](caller.clientId)).pipe(Stream.map((r) => line(type, r.data)))
      const calls = Stream.paginateChunkEffect(null as string | null, (after) =>
        Effect.map(repo.calls({ clientId: caller.clientId, after }), (page) => [
          Chunk.fromIterable(page.map((r) => line("call", r.data))),
          page.length < EXPORT_PAGE ? Option.none() : Option.some(page[page.length - 1]!.call_id)
        ]))
      const body: Stream.Stream<Uint8Array> = Stream.concatAll(Chunk.make(
        section("tenant"), section("setting"), section("member"), section("closer"), section("account"), section("deal"), calls,
        section("outcome"), section("manual_audit"), section("tracker"), section("closing_audit"), section("ledger"), section("audit_log")
      )).pipe(Stream.orDie)
      return HttpServerResponse.stream(body, {
        contentType: "application/x-ndjson",
        headers: { "content-disposition": `attachment; filename="callsight-${caller.clientId}.ndjson"` }
      })
    })

    return { exportAll } as const
  }),
  dependencies: [ExportRepo.Default, AuditLog.Default]
}) {}
