/**
 * The one guard on outbound requests to URLs that tenants and callers supply: an LLM's or a
 * speech-to-text provider's base URL, a CRM's login and instance URLs, webhook endpoints and
 * callback URLs, an MCP upload's URL. Without it such a URL turns the server into a proxy into its
 * own network (loopback, the cloud's metadata service, private hosts).
 *
 * What is refused (docs/security.md, "Outbound requests"):
 *
 * - in production, every address that is not public unicast as `ipaddr.js` classifies it: loopback,
 *   private, link-local, unique-local, carrier-grade NAT, multicast, broadcast, unspecified,
 *   reserved and the other special-purpose ranges; an IPv4-mapped IPv6 address (`::ffff:7f00:1`) is
 *   judged as its IPv4 address, an IPv4-compatible one (`::7f00:1`) and the transition prefixes
 *   (6to4, NAT64, Teredo) are refused. Names that are internal by definition are refused before any
 *   lookup: `localhost` and `*.localhost`, `*.local`, `*.internal`, `*.home.arpa`, `*.localdomain`,
 *   and single-label names (which a resolver completes with its search domains), with or without
 *   the trailing dot;
 * - in development, loopback, private and unique-local addresses and every name stay allowed, for
 *   the local servers tests and developers run; the rest (link-local, multicast, unspecified, ...)
 *   is refused there too;
 * - always allowed: the origins of the providers the operator configured in the environment
 *   (`OPENAI_BASE_URL`, `SALESFORCE_LOGIN_URL`, ...: not tenant input), and what
 *   `OUTBOUND_ALLOW_HOSTS` names: host names (whatever they resolve to), addresses and CIDR ranges.
 *
 * Every spelling of an address is one address here: the WHATWG URL parser turns decimal, octal,
 * hex and short IPv4 forms into dotted quads, and `ipaddr.js` reads every IPv6 form. The check is
 * made where the connection is made: the HTTP clients of these requests (`OutboundHttpClient`,
 * `Outbound.dispatcher`) resolve the name once, refuse it if any of its addresses is refused, and
 * connect to the address that was checked, so a name that answers differently the second time (DNS
 * rebinding) gains nothing, and a redirect is checked like the first URL. `check` says the same
 * before anything is stored, so that a refused URL is a 422 naming its field.
 */
import { HttpClient } from "@effect/platform"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { Effect, Layer, Option } from "effect"
import ipaddr from "ipaddr.js"
import { lookup, type LookupAddress, type LookupOptions } from "node:dns"
import { isIP } from "node:net"
import { Agent, buildConnector } from "undici"
import { AppConfig, type AppConfigShape } from "../config.js"

export interface OutboundPolicy {
  readonly production: boolean
  /** Host names `OUTBOUND_ALLOW_HOSTS` allows, whatever they resolve to (lower case, no trailing dot). */
  readonly allowNames: ReadonlySet<string>
  /** Addresses and ranges `OUTBOUND_ALLOW_HOSTS` allows. */
  readonly allowRanges: ReadonlyArray<readonly [ipaddr.IPv4 | ipaddr.IPv6, number]>
  /** The operator's configured providers, as `protocol//host:port`: never tenant input. */
  readonly trustedOrigins: ReadonlySet<string>
  /** How names are resolved: `dns.lookup` (a test gives a resolver that answers differently each time). */
  readonly lookup: typeof lookup
}

const DEFAULT_PORTS: Record<string, string> = { "http:": "80", "https:": "443" }

/** `protocol//host:port`, the port written out, the host as the URL writes it (IPv6 in brackets). */
const originKey = (protocol: string, host: string, port: string) =>
  `${protocol}//${host.toLowerCase()}:${port === "" ? DEFAULT_PORTS[protocol] ?? "" : port}`

const originOf = (url: string): string | undefined => {
  try {
    const parsed = new URL(url)
    return originKey(parsed.protocol, parsed.hostname, parsed.port)
  } catch {
    return undefined
  }
}

/** A host as a lookup takes it: lower case, without IPv6 brackets and trailing dots. */
export const normalizeHost = (host: string) => host.toLowerCase().replace(/^\[(.*)\]$/, "$1").replace(/\.+$/, "")

/** The policy of the configuration: production or not, `OUTBOUND_ALLOW_HOSTS`, the operator's providers. */
export const policyOf = (config: AppConfigShape): OutboundPolicy => {
  const allowNames = new Set<string>()
  const allowRanges: Array<readonly [ipaddr.IPv4 | ipaddr.IPv6, number]> = []
  for (const entry of config.outboundAllowHosts) {
    const host = normalizeHost(entry)
    if (host.includes("/") && ipaddr.isValidCIDR(host)) allowRanges.push(ipaddr.parseCIDR(host))
    else if (ipaddr.isValid(host) && isIP(host) !== 0) allowRanges.push([ipaddr.parse(host), isIP(host) === 4 ? 32 : 128])
    else allowNames.add(host)
  }
  const configured = [
    config.openaiBaseUrl,
    config.anthropicBaseUrl,
    config.deepgramBaseUrl,
    config.assemblyaiBaseUrl,
    config.crmAApiUrl,
    config.salesforceLoginUrl,
    config.pipedriveApiUrl,
    config.recorderApiUrl,
    config.messengerAApiUrl,
    config.messengerBApiUrl,
    ...[config.calendar, config.video].flatMap((p) => [p.authorizeUrl, p.tokenUrl, p.revokeUrl, p.apiUrl]),
    ...Option.toArray(Option.map(config.s3, (s3) => Option.getOrUndefined(s3.endpoint)))
  ]
  const trustedOrigins = new Set(configured.flatMap((url) => {
    const origin = url === undefined ? undefined : originOf(url)
    return origin === undefined ? [] : [origin]
  }))
  return { production: config.production, allowNames, allowRanges, trustedOrigins, lookup }
}

/**
 * The range of an address as `ipaddr.js` names it (`unicast` for a public one); an IPv4-mapped
 * IPv6 address has its IPv4 address's range, an IPv4-compatible one (`::a.b.c.d`, deprecated) is
 * `ipv4Compatible`.
 */
export const rangeOf = (address: string): string => {
  const parsed = ipaddr.parse(address)
  if (parsed.kind() === "ipv4") return parsed.range()
  const v6 = parsed as ipaddr.IPv6
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range()
  const range = v6.range()
  return range === "unicast" && v6.parts.slice(0, 6).every((part) => part === 0) ? "ipv4Compatible" : range
}

/** Allowed in development besides public addresses: this machine and the private networks. */
const DEVELOPMENT_RANGES: ReadonlySet<string> = new Set(["loopback", "private", "uniqueLocal"])

const RANGE_NAMES: Record<string, string> = {
  loopback: "a loopback address",
  private: "a private address",
  uniqueLocal: "a private address",
  linkLocal: "a link-local address",
  carrierGradeNat: "a shared (carrier-grade NAT) address",
  unspecified: "the unspecified address",
  multicast: "a multicast address",
  broadcast: "the broadcast address",
  ipv4Mapped: "an IPv4-mapped address"
}

const inAllowedRange = (address: string, policy: OutboundPolicy) => {
  const parsed = ipaddr.process(address)
  return policy.allowRanges.some(([base, bits]) => {
    const range = base.kind() === "ipv6" && (base as ipaddr.IPv6).isIPv4MappedAddress()
      ? (base as ipaddr.IPv6).toIPv4Address()
      : base
    return range.kind() === parsed.kind() && parsed.match(range, bits)
  })
}

/** Why requests may not go to `address` (an IP address), or undefined when they may. */
export const addressRefusal = (address: string, policy: OutboundPolicy): string | undefined => {
  if (!ipaddr.isValid(address)) return "not an IP address"
  if (inAllowedRange(address, policy)) return undefined
  const range = rangeOf(address)
  if (range === "unicast") return undefined
  if (!policy.production && DEVELOPMENT_RANGES.has(range)) return undefined
  return `${RANGE_NAMES[range] ?? "a special-purpose address"}, which outbound requests do not reach`
}

/** Names that can only be internal: special-use names (RFC 6761, 6762, 8375) and the private-use TLD. */
const INTERNAL_NAME = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/

/**
 * Why requests may not go to `host` judged without a lookup (an address, or an internal name), or
 * undefined when it may, or when only its addresses can tell.
 */
export const hostRefusal = (rawHost: string, policy: OutboundPolicy): string | undefined => {
  const host = normalizeHost(rawHost)
  if (host === "") return "no host"
  if (isIP(host) !== 0) {
    const refused = addressRefusal(host, policy)
    return refused === undefined ? undefined : `${host} is ${refused}`
  }
  if (policy.allowNames.has(host) || !policy.production) return undefined
  if (INTERNAL_NAME.test(host)) return `${host} is an internal name, which outbound requests do not reach`
  if (!host.includes(".")) return `${host} is a single-label name, which outbound requests do not reach: give the full name`
  return undefined
}

/** The error of a refused connection (its message is ours and names no resolved address). */
export class OutboundRefused extends Error {
  readonly code = "ERR_OUTBOUND_REFUSED"
  constructor(message: string) {
    super(message)
    this.name = "OutboundRefused"
  }
}

/** Whether `error`, or one of its causes, is the guard's refusal. */
export const isOutboundRefusal = (error: unknown): boolean => {
  let current: unknown = error
  for (let i = 0; i < 6 && typeof current === "object" && current !== null; i++) {
    if ((current as { readonly code?: unknown }).code === "ERR_OUTBOUND_REFUSED") return true
    current = (current as { readonly cause?: unknown }).cause
  }
  return false
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | Array<LookupAddress>, family?: number) => void

/**
 * A `dns.lookup` that refuses a name with any refused address: the socket connects to what this
 * answered, so the address checked is the address reached.
 */
const guardedLookup = (policy: OutboundPolicy) => (hostname: string, options: LookupOptions, callback: LookupCallback) => {
  policy.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error !== null) return callback(error, [])
    if (!policy.allowNames.has(normalizeHost(hostname)) && addresses.some((a) => addressRefusal(a.address, policy) !== undefined)) {
      return callback(new OutboundRefused(`${hostname} resolves to an internal address, which outbound requests do not reach`), [])
    }
    if (options.all === true) return callback(null, addresses)
    const first = addresses[0]
    if (first === undefined) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), [])
    callback(null, first.address, first.family)
  })
}

/**
 * undici's connector with the guard in front: an operator's origin or an allowed name connects as
 * usual, an address is judged as it is, and a name is resolved once by `guardedLookup`.
 */
const guardedConnector = (policy: OutboundPolicy): buildConnector.connector => {
  const plain = buildConnector({})
  const guarded = buildConnector({ lookup: guardedLookup(policy) } as buildConnector.BuildOptions)
  return (options, callback) => {
    const host = options.hostname
    const origin = originKey(options.protocol, isIP(host) === 6 ? `[${host}]` : host, options.port)
    if (policy.trustedOrigins.has(origin) || policy.allowNames.has(normalizeHost(host))) return plain(options, callback)
    const refused = hostRefusal(host, policy)
    if (refused !== undefined) return callback(new OutboundRefused(refused), null)
    return isIP(normalizeHost(host)) !== 0 ? plain(options, callback) : guarded(options, callback)
  }
}

/** A tenant-supplied URL that may not be used, and why (a sentence of ours, for the field's 422). */
export interface UrlRefusal {
  readonly _tag: "UrlRefusal"
  readonly reason: string
}

const LOOKUP_TIMEOUT = "5 seconds"

/** The guard of `policy`: its checks and its dispatcher (closed with the scope). */
export const makeOutbound = (policy: OutboundPolicy) =>
  Effect.gen(function* () {
    /** The undici dispatcher whose every connection passes the guard. */
    const dispatcher = yield* Effect.acquireRelease(
      Effect.sync(() => new Agent({ connect: guardedConnector(policy) })),
      (agent) => Effect.promise(() => agent.destroy().catch(() => undefined))
    )

    /**
     * Whether `raw` may be requested: an absolute http(s) URL without credentials whose host is
     * no refused address, names none, and resolves to none (a name that does not resolve now is
     * left to the connection, which checks again). The URL, or why not.
     */
    const check = (raw: string): Effect.Effect<URL, UrlRefusal> =>
      Effect.gen(function* () {
        const refuse = (reason: string) => Effect.fail<UrlRefusal>({ _tag: "UrlRefusal", reason })
        let url: URL
        try {
          url = new URL(raw)
        } catch {
          return yield* refuse("must be an absolute http(s) URL")
        }
        if (url.protocol !== "http:" && url.protocol !== "https:") return yield* refuse("must be an http(s) URL")
        if (url.username !== "" || url.password !== "") return yield* refuse("must not carry a user name or password")
        if (policy.trustedOrigins.has(originKey(url.protocol, url.hostname, url.port))) return url
        const host = normalizeHost(url.hostname)
        const refused = hostRefusal(host, policy)
        if (refused !== undefined) return yield* refuse(refused)
        if (isIP(host) !== 0 || policy.allowNames.has(host)) return url
        const addresses = yield* Effect.async<ReadonlyArray<string>>((resume) => {
          policy.lookup(host, { all: true }, (error, found) => resume(Effect.succeed(error === null ? found.map((a) => a.address) : [])))
        }).pipe(Effect.timeoutTo({ duration: LOOKUP_TIMEOUT, onTimeout: () => [], onSuccess: (found) => found }))
        if (addresses.some((address) => addressRefusal(address, policy) !== undefined)) {
          return yield* refuse(`${host} resolves to an internal address, which outbound requests do not reach`)
        }
        return url
      })

    /** `check`, for a base URL the service appends paths to: no query or fragment either (it would swallow them). */
    const checkBaseUrl = (raw: string): Effect.Effect<URL, UrlRefusal> =>
      Effect.flatMap(check(raw), (url) =>
        url.search === "" && url.hash === "" && !raw.includes("?") && !raw.includes("#")
          ? Effect.succeed(url)
          : Effect.fail<UrlRefusal>({ _tag: "UrlRefusal", reason: "must not carry a query or fragment: the service appends the API's paths to it" }))

    return { policy, dispatcher, check, checkBaseUrl } as const
  })

export class Outbound extends Effect.Service<Outbound>()("Outbound", {
  scoped: Effect.flatMap(AppConfig, (config) => makeOutbound(policyOf(config)))
}) {}

/**
 * The HTTP client of requests to tenant-supplied URLs (and to the operator's providers, which pass
 * as configured): every connection through `Outbound`'s guarded dispatcher.
 */
export const OutboundHttpClient: Layer.Layer<HttpClient.HttpClient, never, AppConfig> = NodeHttpClient.layerUndiciWithoutDispatcher.pipe(
  Layer.provide(Layer.effect(NodeHttpClient.Dispatcher, Effect.map(Outbound, (outbound) => outbound.dispatcher))),
  Layer.provide(Outbound.Default)
)
