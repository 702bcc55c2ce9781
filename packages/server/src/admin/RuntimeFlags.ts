/**
 * Runtime flags per tenant (`/v1/internal/admin/settings/runtime-flags`). The object is kept as
 * saved, unknown keys included; the keys the service reads are validated and documented here.
 */
import { NotFound, ValidationFailed } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { TenantsRepo } from "./TenantsRepo.js"

/** The flags the service reads, with the schema a value must satisfy. */
export const KNOWN_FLAGS = [
  {
    key: "transcriber",
    type: "string" as const,
    default: null,
    description: "Speech-to-text provider for this tenant's calls (none, deepgram, assemblyai, openai); wins over TRANSCRIBER",
    schema: Schema.Literal("none", "deepgram", "assemblyai", "openai")
  },
  {
    key: "report.include_transcript",
    type: "boolean" as const,
    default: true,
    description: "Whether the HTML report shows the transcript",
    schema: Schema.Boolean
  },
  {
    key: "companion.enabled",
    type: "boolean" as const,
    default: true,
    description: "Whether the messaging companion answers this tenant's chats",
    schema: Schema.Boolean
  }
]

type Flags = Readonly<Record<string, unknown>>

interface FlagsRow {
  readonly client_id: string
  readonly flags: Flags
  readonly updated_at: Date
}

const view = (clientId: string, flags: Flags, updatedAt: Date | null) => ({
  client_id: clientId,
  flags,
  unknown_keys: Object.keys(flags).filter((key) => !KNOWN_FLAGS.some((f) => f.key === key)),
  updated_at: updatedAt === null ? null : updatedAt.toISOString()
})

export class RuntimeFlags extends Effect.Service<RuntimeFlags>()("RuntimeFlags", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const tenants = yield* TenantsRepo

    const stored = (clientId: string) =>
      sql<FlagsRow>`SELECT client_id, flags, updated_at FROM tenant_runtime_flags WHERE client_id = ${clientId}`.pipe(
        Effect.map((rows) => Option.fromNullable(rows[0])),
        Effect.orDie
      )

    /** The flags of one tenant, `{}` when none were saved. */
    const forTenant = (clientId: string) =>
      Effect.map(stored(clientId), Option.match({ onNone: () => ({}) as Flags, onSome: (row) => row.flags }))

    const list = Effect.fn("RuntimeFlags.list")(function* (clientId: string | undefined) {
      const known_flags = KNOWN_FLAGS.map(({ schema: _, ...flag }) => flag)
      if (clientId === undefined) {
        const rows = yield* Effect.orDie(
          sql<FlagsRow>`SELECT client_id, flags, updated_at FROM tenant_runtime_flags ORDER BY client_id`
        )
        return { known_flags, tenants: rows.map((r) => view(r.client_id, r.flags, r.updated_at)) }
      }
      if (!(yield* Effect.orDie(tenants.exists(clientId)))) return yield* new NotFound({ message: `no client ${clientId}` })
      const row = yield* stored(clientId)
      return {
        known_flags,
        tenants: [view(clientId, Option.match(row, { onNone: () => ({}), onSome: (r) => r.flags }), Option.match(row, { onNone: () => null, onSome: (r) => r.updated_at }))]
      }
    })

    const replace = Effect.fn("RuntimeFlags.replace")(function* (clientId: string, flags: Flags) {
      const detail = KNOWN_FLAGS.flatMap((flag) =>
        flag.key in flags && !Schema.is(flag.schema as Schema.Schema<unknown>)(flags[flag.key])
          ? [{ loc: ["body", flag.key], msg: `must be ${flag.type === "string" ? "one of none, deepgram, assemblyai, openai" : `a ${flag.type}`}`, type: "value_error" }]
          : []
      )
      if (detail.length > 0) return yield* new ValidationFailed({ detail })
      if (!(yield* Effect.orDie(tenants.exists(clientId)))) return yield* new NotFound({ message: `no client ${clientId}` })
      const rows = yield* Effect.orDie(sql<FlagsRow>`
        INSERT INTO tenant_runtime_flags (client_id, flags) VALUES (${clientId}, ${JSON.stringify(flags)}::jsonb)
        ON CONFLICT (client_id) DO UPDATE SET flags = EXCLUDED.flags, updated_at = now()
        RETURNING client_id, flags, updated_at`)
      return view(clientId, rows[0].flags, rows[0].updated_at)
    })

    return { list, replace, forTenant } as const
  }),
  dependencies: [TenantsRepo.Default]
}) {}
