/**
 * crm-a: the HubSpot CRM API v3 (and v4 associations) at `CRM_A_API_URL`, with a private-app token
 * as a bearer token. Only the documented calls the integration needs:
 *
 * - the token check: `GET /crm/v3/objects/deals?limit=1` (the deals read scope the sync needs);
 * - deals: `POST /crm/v3/objects/deals/search` by id (`hs_object_id`), by associated contact
 *   (`associations.contact`), or closed (`dealstage` IN closedwon, closedlost) modified since;
 * - contacts: `POST /crm/v3/objects/contacts/search` by e-mail, `POST /crm/v3/objects/contacts/batch/read`;
 * - the contacts of deals: `POST /crm/v4/associations/deals/contacts/batch/read`;
 * - notes: `POST /crm/v3/objects/notes` associated with a deal (type 214, note to deal).
 */
import { HttpClientRequest } from "@effect/platform"
import { Effect, Schema } from "effect"
import { AppConfig } from "../config.js"
import { CrmAnswer, CrmRequests } from "./CrmRequests.js"

/** A deal as the sync reads it. */
export interface Deal {
  readonly id: string
  readonly name: string | null
  readonly stage: string | null
  readonly amount: string | null
  readonly currency: string | null
  readonly closeDate: string | null
  readonly closedLostReason: string | null
  readonly lastModified: string | null
}

/** The API refused the token or the request (4xx), or could not be reached: why, without the token. */
export class HubSpotFailed extends Schema.TaggedError<HubSpotFailed>()("HubSpotFailed", {
  status: Schema.NullOr(Schema.Number),
  reason: Schema.String
}) {}

const Properties = Schema.Record({ key: Schema.String, value: Schema.NullishOr(Schema.String) })
const SearchPage = Schema.Struct({
  results: Schema.Array(Schema.Struct({ id: Schema.String, properties: Properties })),
  paging: Schema.optional(Schema.Struct({ next: Schema.optional(Schema.Struct({ after: Schema.String })) }))
})
const Associations = Schema.Struct({
  results: Schema.Array(Schema.Struct({
    from: Schema.Struct({ id: Schema.String }),
    to: Schema.Array(Schema.Struct({ toObjectId: Schema.Union(Schema.String, Schema.Number) }))
  }))
})
const Created = Schema.Struct({ id: Schema.String })

const DEAL_PROPERTIES = ["dealname", "dealstage", "amount", "deal_currency_code", "closedate", "closed_lost_reason", "hs_lastmodifieddate"]
export const CLOSED_STAGES = ["closedwon", "closedlost"]
/** HubSpot's association type of a note to a deal. */
const NOTE_TO_DEAL = 214
/** Search pages of HubSpot hold at most 200; batch reads take 100 inputs. */
const PAGE = 100

const dealOf = (r: { readonly id: string; readonly properties: typeof Properties.Type }): Deal => ({
  id: r.id,
  name: r.properties["dealname"] ?? null,
  stage: r.properties["dealstage"] ?? null,
  amount: r.properties["amount"] ?? null,
  currency: r.properties["deal_currency_code"] ?? null,
  closeDate: r.properties["closedate"] ?? null,
  closedLostReason: r.properties["closed_lost_reason"] ?? null,
  lastModified: r.properties["hs_lastmodifieddate"] ?? null
})

export class CrmHubSpot extends Effect.Service<CrmHubSpot>()("CrmHubSpot", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig
    const requests = yield* CrmRequests
    const url = (path: string) => `${config.crmAApiUrl}${path}`

    /** The body of a 2xx decoded by `schema`; anything else a `HubSpotFailed`. */
    const run = <A, I>(token: string, request: HttpClientRequest.HttpClientRequest, schema: Schema.Schema<A, I>) =>
      Effect.flatMap(
        requests.send(request.pipe(HttpClientRequest.bearerToken(token), HttpClientRequest.acceptJson), [token]),
        CrmAnswer.$match({
          Ok: ({ body }) =>
            Schema.decodeUnknown(schema)(body).pipe(
              Effect.mapError(() => new HubSpotFailed({ status: null, reason: "an answer not in the shape the API documents" }))
            ),
          Refused: ({ reason, status }) => Effect.fail(new HubSpotFailed({ status, reason })),
          Unreachable: ({ reason }) => Effect.fail(new HubSpotFailed({ status: null, reason }))
        })
      )

    const post = <A, I>(token: string, path: string, body: unknown, schema: Schema.Schema<A, I>) =>
      run(token, HttpClientRequest.bodyUnsafeJson(HttpClientRequest.post(url(path)), body), schema)

    /** Whether the account takes the token: one deal of the list. */
    const check = (token: string) =>
      requests.send(
        HttpClientRequest.get(url("/crm/v3/objects/deals")).pipe(
          HttpClientRequest.setUrlParam("limit", "1"),
          HttpClientRequest.bearerToken(token),
          HttpClientRequest.acceptJson
        ),
        [token]
      )

    const searchDeals = (token: string, filterGroups: unknown, options: { readonly sortDescending: boolean; readonly after?: string | undefined; readonly limit: number }) =>
      post(token, "/crm/v3/objects/deals/search", {
        filterGroups,
        properties: DEAL_PROPERTIES,
        sorts: [{ propertyName: "hs_lastmodifieddate", direction: options.sortDescending ? "DESCENDING" : "ASCENDING" }],
        limit: options.limit,
        ...(options.after === undefined ? {} : { after: options.after })
      }, SearchPage)

    /** The deal of that id, if the account has it. */
    const dealById = (token: string, dealId: string) =>
      Effect.map(
        searchDeals(token, [{ filters: [{ propertyName: "hs_object_id", operator: "EQ", value: dealId }] }], { sortDescending: true, limit: 1 }),
        (page) => page.results.map(dealOf)[0]
      )

    /** The most recently changed deal of the contact with that e-mail, if any. */
    const latestDealOfContact = (token: string, email: string) =>
      Effect.gen(function* () {
        const contacts = yield* post(token, "/crm/v3/objects/contacts/search", {
          filterGroups: [{ filters: [{ propertyName: "email", operator: "EQ", value: email }] }],
          properties: ["email"],
          limit: 1
        }, SearchPage)
        const contact = contacts.results[0]
        if (contact === undefined) return undefined
        const deals = yield* searchDeals(
          token,
          [{ filters: [{ propertyName: "associations.contact", operator: "EQ", value: contact.id }] }],
          { sortDescending: true, limit: 1 }
        )
        return deals.results.map(dealOf)[0]
      })

    /** Closed deals (won or lost) modified at or after `since` (all when null), oldest change first. */
    const closedDeals = (token: string, since: Date | null, after: string | undefined) =>
      Effect.map(
        searchDeals(token, [{
          filters: [
            { propertyName: "dealstage", operator: "IN", values: CLOSED_STAGES },
            ...(since === null ? [] : [{ propertyName: "hs_lastmodifieddate", operator: "GTE", value: String(since.getTime()) }])
          ]
        }], { sortDescending: false, after, limit: PAGE }),
        (page) => ({ deals: page.results.map(dealOf), after: page.paging?.next?.after })
      )

    /** The e-mail addresses of the contacts of each deal (lower case), by deal id. */
    const contactEmails = (token: string, dealIds: ReadonlyArray<string>) =>
      Effect.gen(function* () {
        const byDeal = new Map<string, Array<string>>()
        if (dealIds.length === 0) return byDeal
        const links = yield* post(token, "/crm/v4/associations/deals/contacts/batch/read", { inputs: dealIds.map((id) => ({ id })) }, Associations)
        const contactIds = [...new Set(links.results.flatMap((r) => r.to.map((t) => String(t.toObjectId))))]
        if (contactIds.length === 0) return byDeal
        const chunks = Array.from({ length: Math.ceil(contactIds.length / PAGE) }, (_, i) => contactIds.slice(i * PAGE, (i + 1) * PAGE))
        const contacts = yield* Effect.forEach(chunks, (chunk) =>
          post(token, "/crm/v3/objects/contacts/batch/read", { properties: ["email"], inputs: chunk.map((id) => ({ id })) }, SearchPage))
        const emails = new Map(contacts.flatMap((page) => page.results).flatMap((c) => {
          const email = c.properties["email"]
          return typeof email === "string" && email !== "" ? [[c.id, email.toLowerCase()] as const] : []
        }))
        for (const link of links.results) {
          byDeal.set(link.from.id, link.to.flatMap((t) => emails.get(String(t.toObjectId)) ?? []))
        }
        return byDeal
      })

    /** Writes a note on the deal; answers the note's id. */
    const addNote = (token: string, dealId: string, body: string) =>
      Effect.map(
        post(token, "/crm/v3/objects/notes", {
          properties: { hs_timestamp: new Date().toISOString(), hs_note_body: body },
          associations: [{ to: { id: dealId }, types: [{ associationCategory: "HUBSPOT_DEFINED", associationTypeId: NOTE_TO_DEAL }] }]
        }, Created),
        (created) => created.id
      )

    return { check, dealById, latestDealOfContact, closedDeals, contactEmails, addNote } as const
  }),
  dependencies: [CrmRequests.Default]
}) {}
