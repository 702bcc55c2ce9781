/**
 * The companion's rows (migration 0010): connect codes (by hash), links of chats to tenants,
 * inbound updates handled (by the platform's id) and deliveries sent. Every statement is one of
 * the services' changes or reads; tenant reads take the tenant first, or null for all tenants
 * (the staff's views).
 */
import { ClientId, CompanionChannel, UserId } from "@callsight/api-spec"
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { IsoTimestamp, NullableIsoTimestamp } from "../db/Rows.js"
import * as Rows from "../db/Rows.js"
import { newId } from "../lib/Ids.js"

/** An active link, with its tenant's name. */
export const LinkRow = Schema.Struct({
  link_id: Schema.String,
  client_id: ClientId,
  company_name: Schema.String,
  user_id: Schema.NullOr(UserId),
  channel: CompanionChannel,
  chat_id: Schema.String
})
export type LinkRow = typeof LinkRow.Type

/** A link as the staff's status shows it. */
export const LinkView = Schema.Struct({
  link_id: Schema.String,
  client_id: ClientId,
  company_name: Schema.String,
  user_id: Schema.NullOr(UserId),
  channel: CompanionChannel,
  chat_id: Schema.String,
  linked_at: IsoTimestamp,
  last_message_at: NullableIsoTimestamp,
  last_push_at: NullableIsoTimestamp,
  active: Schema.Boolean,
  unlinked_at: NullableIsoTimestamp
})

const ChannelSummary = Schema.Struct({
  channel: CompanionChannel,
  linked_chats: Schema.Number,
  last_update_at: NullableIsoTimestamp
})

const UsableCode = Schema.Struct({ code_id: Schema.String, client_id: ClientId, user_id: Schema.NullOr(UserId), company_name: Schema.String })

const NullableClient = Schema.NullOr(ClientId)

export class CompanionRepo extends Effect.Service<CompanionRepo>()("CompanionRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const tenantName = Rows.findOne({
      Request: ClientId,
      Result: Schema.Struct({ company_name: Schema.String }),
      execute: (clientId) => sql`SELECT company_name FROM tenants WHERE client_id = ${clientId}`
    })

    const userByEmail = Rows.findOne({
      Request: Schema.Struct({ clientId: ClientId, email: Schema.String }),
      Result: Schema.Struct({ user_id: UserId }),
      execute: ({ clientId, email }) =>
        sql`SELECT user_id FROM users WHERE client_id = ${clientId} AND lower(email) = lower(${email})`
    })

    const insertCode = Rows.single({
      Request: Schema.Struct({
        codeId: Schema.String,
        clientId: ClientId,
        userId: Schema.NullOr(UserId),
        channel: CompanionChannel,
        codeHash: Schema.String,
        createdBy: Schema.String,
        ttlMinutes: Schema.Number
      }),
      Result: Schema.Struct({ created_at: IsoTimestamp, expires_at: IsoTimestamp }),
      execute: (c) =>
        sql`INSERT INTO companion_connect_codes (code_id, client_id, user_id, channel, code_hash, created_by, expires_at)
            VALUES (${c.codeId}, ${c.clientId}, ${c.userId}, ${c.channel}, ${c.codeHash}, ${c.createdBy},
                    now() + make_interval(mins => ${c.ttlMinutes}))
            RETURNING created_at, expires_at`
    })

    /** The code of that hash on that channel, not used and not expired, locked until the transaction ends. */
    const lockUsableCode = Rows.findOne({
      Request: Schema.Struct({ channel: CompanionChannel, codeHash: Schema.String }),
      Result: UsableCode,
      execute: ({ channel, codeHash }) =>
        sql`SELECT c.code_id, c.client_id, c.user_id, t.company_name
            FROM companion_connect_codes c JOIN tenants t ON t.client_id = c.client_id
            WHERE c.code_hash = ${codeHash} AND c.channel = ${channel} AND c.used_at IS NULL AND c.expires_at > now()
            FOR UPDATE OF c`
    })

    const markCodeUsed = Rows.execute({
      Request: Schema.Struct({ codeId: Schema.String, linkId: Schema.String }),
      execute: ({ codeId, linkId }) =>
        sql`UPDATE companion_connect_codes SET used_at = now(), used_by_link = ${linkId} WHERE code_id = ${codeId}`
    })

    const activeLink = Rows.findOne({
      Request: Schema.Struct({ channel: CompanionChannel, chatId: Schema.String }),
      Result: LinkRow,
      execute: ({ channel, chatId }) =>
        sql`SELECT l.link_id, l.client_id, t.company_name, l.user_id, l.channel, l.chat_id
            FROM companion_links l JOIN tenants t ON t.client_id = l.client_id
            WHERE l.channel = ${channel} AND l.chat_id = ${chatId} AND l.active`
    })

    const insertLink = Rows.execute({
      Request: Schema.Struct({
        linkId: Schema.String,
        clientId: ClientId,
        userId: Schema.NullOr(UserId),
        channel: CompanionChannel,
        chatId: Schema.String,
        codeId: Schema.String
      }),
      execute: (l) =>
        sql`INSERT INTO companion_links (link_id, client_id, user_id, channel, chat_id, code_id, last_message_at)
            VALUES (${l.linkId}, ${l.clientId}, ${l.userId}, ${l.channel}, ${l.chatId}, ${l.codeId}, now())`
    })

    const unlink = Rows.execute({
      Request: Schema.String,
      execute: (linkId) => sql`UPDATE companion_links SET active = false, unlinked_at = now() WHERE link_id = ${linkId} AND active`
    })

    const touchLink = Rows.execute({
      Request: Schema.String,
      execute: (linkId) => sql`UPDATE companion_links SET last_message_at = now() WHERE link_id = ${linkId}`
    })

    const markPushed = Rows.execute({
      Request: Schema.String,
      execute: (linkId) => sql`UPDATE companion_links SET last_push_at = now() WHERE link_id = ${linkId}`
    })

    const updateSeen = Rows.single({
      Request: Schema.Struct({ channel: CompanionChannel, key: Schema.String }),
      Result: Schema.Struct({ seen: Schema.Boolean }),
      execute: ({ channel, key }) =>
        sql`SELECT EXISTS (SELECT 1 FROM companion_updates WHERE channel = ${channel} AND update_key = ${key}) AS seen`
    })

    /** Records an update as handled; none when it was already (a platform's second delivery). */
    const recordUpdate = Rows.findOne({
      Request: Schema.Struct({ channel: CompanionChannel, key: Schema.String, kind: Schema.String, linkId: Schema.NullOr(Schema.String) }),
      Result: Schema.Struct({ update_key: Schema.String }),
      execute: (u) =>
        sql`INSERT INTO companion_updates (channel, update_key, kind, link_id) VALUES (${u.channel}, ${u.key}, ${u.kind}, ${u.linkId})
            ON CONFLICT (channel, update_key) DO NOTHING RETURNING update_key`
    })

    /** Forgets the updates handled long ago: messenger-a's after 3 days, messenger-b's after 14. */
    const pruneUpdates = sql`DELETE FROM companion_updates
                             WHERE (channel = 'messenger-a' AND received_at < now() - interval '3 days')
                                OR (channel = 'messenger-b' AND received_at < now() - interval '14 days')`.pipe(Effect.asVoid)

    const insertDelivery = Rows.execute({
      Request: Schema.Struct({
        clientId: NullableClient,
        linkId: Schema.NullOr(Schema.String),
        channel: CompanionChannel,
        chatId: Schema.String,
        kind: Schema.Literal("reply", "push"),
        purpose: Schema.String,
        status: Schema.Literal("sent", "failed"),
        providerMessageId: Schema.NullOr(Schema.String),
        error: Schema.NullOr(Schema.String)
      }),
      execute: (d) =>
        sql`INSERT INTO companion_deliveries (delivery_id, client_id, link_id, channel, chat_id, kind, purpose, status, provider_message_id, error)
            VALUES (${newId("cdl")}, ${d.clientId}, ${d.linkId}, ${d.channel}, ${d.chatId}, ${d.kind}, ${d.purpose}, ${d.status},
                    ${d.providerMessageId}, ${d.error})`
    })

    /**
     * A status the platform reported for a message we sent; the deliveries it moved forward. Statuses
     * rank in the order they happen (sent, delivered, read; failed last): a late or repeated report
     * never moves a delivery back, and one the service does not know moves nothing.
     */
    const applyStatus = Rows.findAll({
      Request: Schema.Struct({ channel: CompanionChannel, providerMessageId: Schema.String, status: Schema.String, error: Schema.NullOr(Schema.String) }),
      Result: Schema.Struct({ delivery_id: Schema.String }),
      execute: (s) =>
        sql`UPDATE companion_deliveries
            SET status = ${s.status}, status_at = now(), error = COALESCE(${s.error}, error)
            WHERE channel = ${s.channel} AND provider_message_id = ${s.providerMessageId}
              AND (CASE ${s.status}::text WHEN 'sent' THEN 1 WHEN 'delivered' THEN 2 WHEN 'read' THEN 3 WHEN 'failed' THEN 4 ELSE 0 END)
                > (CASE status WHEN 'sent' THEN 1 WHEN 'delivered' THEN 2 WHEN 'read' THEN 3 WHEN 'failed' THEN 4 ELSE 0 END)
            RETURNING delivery_id`
    })

    /** The active links of a tenant (or all), on a channel (or all), oldest first. */
    const activeLinks = Rows.findAll({
      Request: Schema.Struct({ clientId: NullableClient, channel: Schema.NullOr(CompanionChannel) }),
      Result: LinkRow,
      execute: ({ channel, clientId }) =>
        sql`SELECT l.link_id, l.client_id, t.company_name, l.user_id, l.channel, l.chat_id
            FROM companion_links l JOIN tenants t ON t.client_id = l.client_id
            WHERE l.active
              ${clientId === null ? sql`` : sql`AND l.client_id = ${clientId}`}
              ${channel === null ? sql`` : sql`AND l.channel = ${channel}`}
            ORDER BY l.client_id, l.linked_at, l.link_id`
    })

    /** The links of a tenant (or all), active first, then the latest linked; at most 1000. */
    const links = Rows.findAll({
      Request: NullableClient,
      Result: LinkView,
      execute: (clientId) =>
        sql`SELECT l.link_id, l.client_id, t.company_name, l.user_id, l.channel, l.chat_id, l.linked_at, l.last_message_at,
                   l.last_push_at, l.active, l.unlinked_at
            FROM companion_links l JOIN tenants t ON t.client_id = l.client_id
            ${clientId === null ? sql`` : sql`WHERE l.client_id = ${clientId}`}
            ORDER BY l.active DESC, l.linked_at DESC, l.link_id DESC LIMIT 1000`
    })

    /**
     * Per channel: active links, and the last inbound update (of the tenant's chats when one is
     * given, else of the channel).
     */
    const channelSummary = Rows.findAll({
      Request: NullableClient,
      Result: ChannelSummary,
      execute: (clientId) =>
        clientId === null
          ? sql`SELECT ch.channel,
                       (SELECT count(*)::int FROM companion_links l WHERE l.channel = ch.channel AND l.active) AS linked_chats,
                       GREATEST(
                         (SELECT max(u.received_at) FROM companion_updates u WHERE u.channel = ch.channel),
                         (SELECT max(l.last_message_at) FROM companion_links l WHERE l.channel = ch.channel)
                       ) AS last_update_at
                FROM (VALUES ('messenger-a'), ('messenger-b')) AS ch (channel)`
          : sql`SELECT ch.channel,
                       (SELECT count(*)::int FROM companion_links l
                        WHERE l.channel = ch.channel AND l.client_id = ${clientId} AND l.active) AS linked_chats,
                       (SELECT max(l.last_message_at) FROM companion_links l
                        WHERE l.channel = ch.channel AND l.client_id = ${clientId}) AS last_update_at
                FROM (VALUES ('messenger-a'), ('messenger-b')) AS ch (channel)`
    })

    const pendingCodes = Rows.single({
      Request: NullableClient,
      Result: Schema.Struct({ pending: Schema.Number }),
      execute: (clientId) =>
        sql`SELECT count(*)::int AS pending FROM companion_connect_codes
            WHERE used_at IS NULL AND expires_at > now() ${clientId === null ? sql`` : sql`AND client_id = ${clientId}`}`
    })

    return {
      tenantName,
      userByEmail: (clientId: ClientId, email: string) => userByEmail({ clientId, email }),
      insertCode,
      lockUsableCode,
      markCodeUsed,
      activeLink,
      insertLink,
      unlink,
      touchLink,
      markPushed,
      updateSeen: (channel: typeof CompanionChannel.Type, key: string) => Effect.map(updateSeen({ channel, key }), (r) => r.seen),
      recordUpdate,
      pruneUpdates,
      insertDelivery,
      applyStatus,
      activeLinks,
      links,
      channelSummary,
      pendingCodes: (clientId: ClientId | null) => Effect.map(pendingCodes(clientId), (r) => r.pending)
    } as const
  })
}) {}
