/**
 * Each user's coaching: the onboarding steps (`coaching_onboarding`: the welcome, the oath) and
 * the reading of the wiki (`wiki_progress`). Every statement takes the tenant and the user; the
 * writes that can be done once (the welcome, the oath) answer a row only when they did it.
 */
import { ClientId, UserId } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { IsoTimestamp, NullableIsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"

const TenantUser = Schema.Struct({ tenantId: ClientId, userId: UserId })

const Onboarding = Schema.Struct({
  welcome_completed_at: NullableIsoTimestamp,
  oath_signature_name: Schema.NullOr(Schema.String),
  oath_commitments: Schema.NullOr(Schema.Array(Schema.String)),
  oath_signed_at: NullableIsoTimestamp
})
export type Onboarding = typeof Onboarding.Type

const Progress = Schema.Struct({
  slug: Schema.String,
  progress_pct: Schema.Number,
  completed_at: NullableIsoTimestamp,
  updated_at: IsoTimestamp
})
export type Progress = typeof Progress.Type

const Oath = Schema.Struct({ tenantId: ClientId, userId: UserId, signatureName: Schema.String, commitments: Schema.Array(Schema.String) })

const ProgressReport = Schema.Struct({ tenantId: ClientId, userId: UserId, slug: Schema.String, progressPct: Schema.Number })

const onboardingColumns = "welcome_completed_at, oath_signature_name, oath_commitments, oath_signed_at"

export class CoachingRepo extends Effect.Service<CoachingRepo>()("CoachingRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const onboarding = Rows.findOne({
      Request: TenantUser,
      Result: Onboarding,
      execute: ({ tenantId, userId }) =>
        sql`SELECT ${sql.literal(onboardingColumns)} FROM coaching_onboarding WHERE client_id = ${tenantId} AND user_id = ${userId}`
    })

    /** Marks the welcome done; a row only when it was not done before (the first time is kept). */
    const completeWelcome = Rows.findOne({
      Request: TenantUser,
      Result: Schema.Struct({ welcome_completed_at: IsoTimestamp }),
      execute: ({ tenantId, userId }) =>
        sql`INSERT INTO coaching_onboarding (user_id, client_id, welcome_completed_at) VALUES (${userId}, ${tenantId}, now())
            ON CONFLICT (user_id) DO UPDATE SET welcome_completed_at = now(), updated_at = now()
              WHERE coaching_onboarding.welcome_completed_at IS NULL AND coaching_onboarding.client_id = ${tenantId}
            RETURNING welcome_completed_at`
    })

    /** Signs the oath; a row only when it was not signed before (a signature is never replaced). */
    const signOath = Rows.findOne({
      Request: Oath,
      Result: Schema.Struct({ oath_signed_at: IsoTimestamp }),
      execute: (o) =>
        sql`INSERT INTO coaching_onboarding (user_id, client_id, oath_signature_name, oath_commitments, oath_signed_at)
            VALUES (${o.userId}, ${o.tenantId}, ${o.signatureName}, ${JSON.stringify(o.commitments)}::jsonb, now())
            ON CONFLICT (user_id) DO UPDATE SET oath_signature_name = EXCLUDED.oath_signature_name,
              oath_commitments = EXCLUDED.oath_commitments, oath_signed_at = now(), updated_at = now()
              WHERE coaching_onboarding.oath_signed_at IS NULL AND coaching_onboarding.client_id = ${o.tenantId}
            RETURNING oath_signed_at`
    })

    /** The user's reading of every article they opened. */
    const progress = Rows.findAll({
      Request: TenantUser,
      Result: Progress,
      execute: ({ tenantId, userId }) =>
        sql`SELECT slug, progress_pct, completed_at, updated_at FROM wiki_progress
            WHERE client_id = ${tenantId} AND user_id = ${userId} ORDER BY slug`
    })

    /**
     * Records a reading: the highest progress is kept; reaching 100 completes the article, once.
     * `completed_now`: this statement completed it (its time is this transaction's).
     */
    const recordProgress = Rows.single({
      Request: ProgressReport,
      Result: Schema.Struct({ ...Progress.fields, completed_now: Schema.Boolean }),
      execute: (p) =>
        sql`INSERT INTO wiki_progress (user_id, client_id, slug, progress_pct, completed_at)
            VALUES (${p.userId}, ${p.tenantId}, ${p.slug}, ${p.progressPct}, CASE WHEN ${p.progressPct}::float8 = 100 THEN now() END)
            ON CONFLICT (user_id, slug) DO UPDATE SET
              progress_pct = GREATEST(wiki_progress.progress_pct, EXCLUDED.progress_pct),
              completed_at = COALESCE(wiki_progress.completed_at, EXCLUDED.completed_at),
              updated_at = now()
            RETURNING slug, progress_pct, completed_at, updated_at, COALESCE(completed_at = now(), false) AS completed_now`
    })

    /** How many manual audits the user made, and when the first. */
    const auditsBy = Rows.single({
      Request: TenantUser,
      Result: Schema.Struct({ audits: Schema.Number, first_at: NullableIsoTimestamp }),
      execute: ({ tenantId, userId }) =>
        sql`SELECT count(*)::int AS audits, min(created_at) AS first_at FROM manual_audits
            WHERE client_id = ${tenantId} AND auditor_user_id = ${userId}`
    })

    return {
      onboarding: (tenantId: ClientId, userId: UserId) => onboarding({ tenantId, userId }),
      completeWelcome: (tenantId: ClientId, userId: UserId) => completeWelcome({ tenantId, userId }),
      signOath: (tenantId: ClientId, userId: UserId, signatureName: string, commitments: ReadonlyArray<string>) =>
        signOath({ tenantId, userId, signatureName, commitments }),
      progress: (tenantId: ClientId, userId: UserId) => progress({ tenantId, userId }),
      recordProgress: (tenantId: ClientId, userId: UserId, slug: string, progressPct: number) =>
        recordProgress({ tenantId, userId, slug, progressPct }),
      auditsBy: (tenantId: ClientId, userId: UserId) => auditsBy({ tenantId, userId })
    } as const
  })
}) {}
