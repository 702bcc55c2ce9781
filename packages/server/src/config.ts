/**
 * The whole configuration, from the environment only (docs/architecture.md, "Configuration").
 * Nothing else reads `process.env`. Every value is validated at start-up; a bad one stops the
 * server with a message that names the variable.
 */
import { Config, ConfigError, ConfigProvider, Context, Data, Effect, Either, Layer, Option, Redacted } from "effect"

/** The log format when `LOG_FORMAT` is unset: for people on a terminal, JSON lines otherwise (a file, a pipe, a collector). */
export const defaultLogFormat = (stdoutIsTerminal: boolean): "json" | "pretty" => (stdoutIsTerminal ? "pretty" : "json")

const LogFormat = Config.literal("json", "pretty")("LOG_FORMAT").pipe(
  Config.option,
  Config.map(Option.getOrElse(() => defaultLogFormat(process.stdout.isTTY === true)))
)

const positiveInt = (name: string) =>
  Config.integer(name).pipe(Config.validate({ message: "must be a positive integer", validation: (n) => n > 0 }))

/** A provider's base URL, kept without a trailing slash. */
const baseUrl = (name: string, fallback: string) =>
  Config.url(name).pipe(
    Config.map((url) => url.toString().replace(/\/+$/, "")),
    Config.withDefault(fallback)
  )

const OPENAI_BASE_URL = "https://api.openai.com"

/**
 * An OAuth 2 provider of the closers' meeting tools (`CALENDAR_*`, `VIDEO_*`): its client, and
 * endpoints defaulting to the provider's own, so a self-hosted or test provider works the same.
 */
const oauthProvider = (
  prefix: string,
  defaults: { readonly authorizeUrl: string; readonly tokenUrl: string; readonly revokeUrl: string; readonly apiUrl: string }
) =>
  Config.all({
    clientId: Config.option(Config.string(`${prefix}_CLIENT_ID`)),
    clientSecret: Config.option(Config.redacted(`${prefix}_CLIENT_SECRET`)),
    authorizeUrl: baseUrl(`${prefix}_AUTHORIZE_URL`, defaults.authorizeUrl),
    tokenUrl: baseUrl(`${prefix}_TOKEN_URL`, defaults.tokenUrl),
    revokeUrl: baseUrl(`${prefix}_REVOKE_URL`, defaults.revokeUrl),
    apiUrl: baseUrl(`${prefix}_API_URL`, defaults.apiUrl)
  })

export type OAuthProviderConfig = Config.Config.Success<ReturnType<typeof oauthProvider>>

/** A key for integration secrets: 32 bytes, base64 (`openssl rand -base64 32`). */
const secretsKeyConfig = (name: string) =>
  Config.redacted(name).pipe(
    Config.mapOrFail((key) =>
      Buffer.from(Redacted.value(key).trim(), "base64").length === 32
        ? Either.right(key)
        : Either.left(ConfigError.InvalidData([name], "must be 32 bytes in base64 (openssl rand -base64 32)"))
    )
  )

/** A webhook signing secret as Svix issues them: `whsec_` and base64 (the prefix may be left out). */
const webhookSecretConfig = (name: string) =>
  Config.redacted(name).pipe(
    Config.mapOrFail((secret) => {
      const body = Redacted.value(secret).trim().replace(/^whsec_/, "")
      return /^[A-Za-z0-9+/]+={0,2}$/.test(body) && Buffer.from(body, "base64").length >= 16
        ? Either.right(Redacted.make(body))
        : Either.left(ConfigError.InvalidData([name], "must be a signing secret whsec_<base64> of at least 16 bytes"))
    })
  )

/** A secret that may be left out; set but blank counts as left out (an empty secret would match an empty header). */
const optionalSecret = (name: string) =>
  Config.option(Config.redacted(name)).pipe(
    Config.map(Option.filter((secret) => Redacted.value(secret).trim() !== ""))
  )

/**
 * messenger-a's webhook secret, as the Telegram Bot API takes it in `setWebhook`'s `secret_token`:
 * 1 to 256 characters of A-Z, a-z, 0-9, `_` and `-`.
 */
const botApiSecretConfig = (name: string) =>
  optionalSecret(name).pipe(
    Config.mapOrFail((secret) =>
      Option.isNone(secret) || /^[A-Za-z0-9_-]{1,256}$/.test(Redacted.value(secret.value))
        ? Either.right(secret)
        : Either.left(ConfigError.InvalidData([name], "must be 1 to 256 characters of A-Z, a-z, 0-9, _ and - (the platform's secret_token)"))
    )
  )

/**
 * The variable missing for the server-wide TRANSCRIBER, if any: each provider needs its key, except
 * an OpenAI-compatible self-hosted server (OPENAI_BASE_URL set), which may take none.
 */
/** S3 caps a single CopyObject (how a staged upload is moved under its key) at 5 GiB. */
export const S3_MAX_UPLOAD_MB = 5120

/**
 * Object storage for the blobs (`S3_*`), used when `S3_BUCKET` is set; the local `BLOB_DIR`
 * otherwise. Credentials: `S3_ACCESS_KEY_ID` and `S3_SECRET_ACCESS_KEY` together, or neither (the
 * AWS SDK's own chain then: AWS_* variables, shared config files, container or instance roles).
 */
const s3Config = Config.all({
  bucket: Config.option(Config.string("S3_BUCKET")).pipe(Config.map(Option.filter((bucket) => bucket.trim() !== ""))),
  endpoint: Config.option(Config.url("S3_ENDPOINT")).pipe(Config.map(Option.map((url) => url.toString().replace(/\/+$/, "")))),
  region: Config.string("S3_REGION").pipe(Config.withDefault("us-east-1")),
  forcePathStyle: Config.boolean("S3_FORCE_PATH_STYLE").pipe(Config.withDefault(false)),
  // A key prefix, kept without leading slashes and with one trailing slash ("" for none).
  prefix: Config.string("S3_PREFIX").pipe(
    Config.withDefault(""),
    Config.map((prefix) => prefix.trim().replace(/^\/+/, "").replace(/\/*$/, "/").replace(/^\/$/, ""))
  ),
  accessKeyId: optionalSecret("S3_ACCESS_KEY_ID"),
  secretAccessKey: optionalSecret("S3_SECRET_ACCESS_KEY")
}).pipe(
  Config.mapOrFail((c) => {
    if (Option.isSome(c.bucket) && !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(c.bucket.value.trim())) {
      return Either.left(ConfigError.InvalidData(["S3_BUCKET"], "must be a bucket name: 3 to 63 characters of a-z, 0-9, . and -"))
    }
    if (Option.isSome(c.accessKeyId) !== Option.isSome(c.secretAccessKey)) {
      const missing = Option.isSome(c.accessKeyId) ? "S3_SECRET_ACCESS_KEY" : "S3_ACCESS_KEY_ID"
      return Either.left(ConfigError.InvalidData([missing], "must be set with S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY together (or neither, for the AWS credential chain)"))
    }
    const { bucket, ...rest } = c
    return Either.right(Option.map(bucket, (name) => ({ ...rest, bucket: name.trim() })))
  })
)

export type S3Config = Option.Option.Value<Config.Config.Success<typeof s3Config>>

export const missingTranscriberKey = (c: {
  transcriber: string
  deepgramApiKey: Option.Option<unknown>
  assemblyaiApiKey: Option.Option<unknown>
  openaiApiKey: Option.Option<unknown>
  openaiBaseUrl: string
}): string | undefined =>
  c.transcriber === "deepgram" && Option.isNone(c.deepgramApiKey)
    ? "DEEPGRAM_API_KEY"
    : c.transcriber === "assemblyai" && Option.isNone(c.assemblyaiApiKey)
    ? "ASSEMBLYAI_API_KEY"
    : c.transcriber === "openai" && Option.isNone(c.openaiApiKey) && c.openaiBaseUrl === OPENAI_BASE_URL
    ? "OPENAI_API_KEY"
    : undefined

export const appConfig = Config.all({
  port: Config.port("PORT").pipe(Config.withDefault(8080)),
  host: Config.string("HOST").pipe(Config.withDefault("0.0.0.0")),
  databaseUrl: Config.option(Config.redacted("DATABASE_URL")),
  dataDir: Config.string("DATA_DIR").pipe(Config.withDefault("./.callsight")),
  dbPoolMax: positiveInt("DB_POOL_MAX").pipe(Config.withDefault(10)),
  dbConnectionCap: positiveInt("DB_CONNECTION_CAP").pipe(Config.withDefault(200)),
  adminApiKey: Config.option(Config.redacted("ADMIN_API_KEY")),
  assistantApiKey: Config.option(Config.redacted("ASSISTANT_API_KEY")),
  secretsKey: Config.option(secretsKeyConfig("SECRETS_KEY")),
  secretsKeyPrevious: Config.option(secretsKeyConfig("SECRETS_KEY_PREVIOUS")),
  production: Config.string("NODE_ENV").pipe(Config.withDefault("development"), Config.map((env) => env === "production")),
  publicBaseUrl: Config.url("PUBLIC_BASE_URL").pipe(Config.option),
  smtpUrl: Config.option(Config.redacted("SMTP_URL")),
  mailFrom: Config.string("MAIL_FROM").pipe(Config.withDefault("Callsight <no-reply@localhost>")),
  // Without SMTP_URL, production refuses to start unless SIGN_IN_LINKS=log says, knowingly, that
  // sign-in links may be written to the log (unsafe: whoever reads the log can sign in as anyone).
  signInLinksLog: Config.literal("log")("SIGN_IN_LINKS").pipe(Config.option, Config.map(Option.isSome)),
  // Hosts, addresses and CIDR ranges that tenant-supplied URLs may reach although they are
  // internal (lib/Outbound.ts): comma-separated, e.g. `crm.corp.example,10.20.0.0/16`.
  outboundAllowHosts: Config.string("OUTBOUND_ALLOW_HOSTS").pipe(
    Config.withDefault(""),
    Config.map((list) => list.split(",").map((h) => h.trim().toLowerCase()).filter((h) => h !== ""))
  ),
  cookieSecure: Config.option(Config.boolean("COOKIE_SECURE")),
  trustProxy: Config.boolean("TRUST_PROXY").pipe(Config.withDefault(false)),
  signInLimitPerEmail: positiveInt("SIGN_IN_LIMIT_PER_EMAIL").pipe(Config.withDefault(5)),
  signInLimitPerAddress: positiveInt("SIGN_IN_LIMIT_PER_ADDRESS").pipe(Config.withDefault(30)),
  // Credits a self-serve signup starts with, granted once in its ledger (reason `trial`): the first
  // uploads through the API work before anyone pays. 0 grants none; staff-created tenants get what staff say.
  trialCredits: Config.integer("TRIAL_CREDITS").pipe(
    Config.validate({ message: "must be 0 or a positive integer", validation: (n) => n >= 0 }),
    Config.withDefault(5)
  ),
  // The price of a Team Closing Audit (docs/closing-audit.md), charged once when it is made; 0 makes it free.
  closingAuditCredits: Config.integer("CLOSING_AUDIT_CREDITS").pipe(
    Config.validate({ message: "must be 0 or a positive integer", validation: (n) => n >= 0 }),
    Config.withDefault(10)
  ),
  // The PDF engine of the audit's report: Chromium (Debian's `chromium`), and how long one print may take.
  chromiumPath: Config.string("CHROMIUM_PATH").pipe(Config.withDefault("/usr/bin/chromium")),
  pdfTimeoutSeconds: positiveInt("PDF_TIMEOUT_SECONDS").pipe(Config.withDefault(30)),
  // The payment platform (Stripe Checkout; issue 36): without a secret key the upgrade links are the UPGRADE_URL_* below.
  payments: Config.all({
    secretKey: Config.option(Config.redacted("PAYMENTS_SECRET_KEY")),
    webhookSecret: Config.option(Config.redacted("PAYMENTS_WEBHOOK_SECRET")),
    apiUrl: Config.url("PAYMENTS_API_URL").pipe(Config.withDefault(new URL("https://api.stripe.com"))),
    prices: Config.all({
      starter: Config.option(Config.string("PAYMENTS_PRICE_STARTER")),
      growth: Config.option(Config.string("PAYMENTS_PRICE_GROWTH")),
      scale: Config.option(Config.string("PAYMENTS_PRICE_SCALE")),
      credit_pack: Config.option(Config.string("PAYMENTS_PRICE_CREDIT_PACK"))
    }),
    creditPackCredits: positiveInt("PAYMENTS_CREDIT_PACK_CREDITS").pipe(Config.withDefault(100))
  }),
  // How often the retention pass removes what tenants keep no longer (issue 36), with the background work.
  retentionIntervalSeconds: positiveInt("RETENTION_INTERVAL_SECONDS").pipe(Config.withDefault(3600)),
  // How often the trends' settling pass sums the stale days and builds the months and weeks over (issue 39), with the background work.
  trendsSettleIntervalSeconds: positiveInt("TRENDS_SETTLE_INTERVAL_SECONDS").pipe(Config.withDefault(60)),
  // How long a closed account's data is kept before the retention pass deletes it (issue 36).
  accountCloseGraceDays: positiveInt("ACCOUNT_CLOSE_GRACE_DAYS").pipe(Config.withDefault(30)),
  upgradeUrls: Config.all({
    starter: Config.option(Config.url("UPGRADE_URL_STARTER")),
    growth: Config.option(Config.url("UPGRADE_URL_GROWTH")),
    scale: Config.option(Config.url("UPGRADE_URL_SCALE"))
  }),
  blobDir: Config.option(Config.string("BLOB_DIR")),
  // Object storage instead of BLOB_DIR when S3_BUCKET is set (calls/S3BlobStore.ts).
  s3: s3Config,
  maxUploadMb: positiveInt("MAX_UPLOAD_MB").pipe(Config.withDefault(500)),
  workerConcurrency: positiveInt("WORKER_CONCURRENCY").pipe(Config.withDefault(2)),
  workerLeaseSeconds: positiveInt("WORKER_LEASE_SECONDS").pipe(Config.withDefault(60)),
  // How often an idle worker looks for a ready job when it hears of none: a queued job wakes it at once (audio/Worker.ts).
  workerPollMs: positiveInt("WORKER_POLL_MS").pipe(Config.withDefault(1000)),
  // Completion webhooks (webhooks/): whether this process's background loop sends them, how often it
  // looks for due deliveries, and the first retry's delay, which scales the whole schedule (5 s, 30 s, 2 min, ...).
  webhookDelivery: Config.boolean("WEBHOOK_DELIVERY").pipe(Config.withDefault(true)),
  webhookPollMs: positiveInt("WEBHOOK_POLL_MS").pipe(Config.withDefault(1000)),
  webhookRetryBaseMs: positiveInt("WEBHOOK_RETRY_BASE_MS").pipe(Config.withDefault(5000)),
  transcriber: Config.literal("none", "deepgram", "assemblyai", "openai")("TRANSCRIBER").pipe(Config.withDefault("none" as const)),
  deepgramApiKey: Config.option(Config.redacted("DEEPGRAM_API_KEY")),
  deepgramBaseUrl: baseUrl("DEEPGRAM_BASE_URL", "https://api.deepgram.com"),
  assemblyaiApiKey: Config.option(Config.redacted("ASSEMBLYAI_API_KEY")),
  assemblyaiBaseUrl: baseUrl("ASSEMBLYAI_BASE_URL", "https://api.assemblyai.com"),
  // The wait between two requests for an AssemblyAI transcript's status (tests make it short).
  assemblyaiPollMs: positiveInt("ASSEMBLYAI_POLL_MS").pipe(Config.withDefault(3000)),
  openaiApiKey: Config.option(Config.redacted("OPENAI_API_KEY")),
  openaiBaseUrl: baseUrl("OPENAI_BASE_URL", OPENAI_BASE_URL),
  anthropicBaseUrl: baseUrl("ANTHROPIC_BASE_URL", "https://api.anthropic.com"),
  calendar: oauthProvider("CALENDAR", {
    authorizeUrl: "https://accounts.google.com/o/oauth2/v2/auth",
    tokenUrl: "https://oauth2.googleapis.com/token",
    revokeUrl: "https://oauth2.googleapis.com/revoke",
    apiUrl: "https://www.googleapis.com/calendar/v3"
  }),
  video: oauthProvider("VIDEO", {
    authorizeUrl: "https://zoom.us/oauth/authorize",
    tokenUrl: "https://zoom.us/oauth/token",
    revokeUrl: "https://zoom.us/oauth/revoke",
    apiUrl: "https://api.zoom.us/v2"
  }),
  // The CRMs a tenant connects (integrations/Crm*.ts): crm-a speaks HubSpot's CRM API v3.
  crmAApiUrl: baseUrl("CRM_A_API_URL", "https://api.hubapi.com"),
  salesforceLoginUrl: baseUrl("SALESFORCE_LOGIN_URL", "https://login.salesforce.com"),
  pipedriveApiUrl: baseUrl("PIPEDRIVE_API_URL", "https://api.pipedrive.com"),
  // The meeting-recording bot (recorder/): a provider speaking the Recall.ai API v1.
  recorderApiUrl: baseUrl("RECORDER_API_URL", "https://us-east-1.recall.ai"),
  recorderApiKey: Config.option(Config.redacted("RECORDER_API_KEY")),
  recorderWebhookSecret: Config.option(webhookSecretConfig("RECORDER_WEBHOOK_SECRET")),
  // The companion channels (companion/): messenger-a speaks the Telegram Bot API, messenger-b the
  // WhatsApp Cloud API (Graph API). A channel works once all its variables are set.
  messengerABotToken: optionalSecret("MESSENGER_A_BOT_TOKEN"),
  messengerASecretToken: botApiSecretConfig("MESSENGER_A_SECRET_TOKEN"),
  messengerAApiUrl: baseUrl("MESSENGER_A_API_URL", "https://api.telegram.org"),
  messengerBVerifyToken: optionalSecret("MESSENGER_B_VERIFY_TOKEN"),
  messengerBAppSecret: optionalSecret("MESSENGER_B_APP_SECRET"),
  messengerBAccessToken: optionalSecret("MESSENGER_B_ACCESS_TOKEN"),
  messengerBPhoneNumberId: Config.option(
    Config.string("MESSENGER_B_PHONE_NUMBER_ID").pipe(
      Config.validate({ message: "must be the phone number's id (digits)", validation: (id) => /^\d{1,32}$/.test(id) })
    )
  ),
  messengerBApiUrl: baseUrl("MESSENGER_B_API_URL", "https://graph.facebook.com/v21.0"),
  // The first wait before a send to a channel's platform is retried; it doubles on each retry (tests make it short).
  messengerRetryBaseMs: positiveInt("MESSENGER_RETRY_BASE_MS").pipe(Config.withDefault(1000)),
  // How often the calendars are read for the next 24 hours, and bots past their meeting polled.
  recorderScheduleIntervalSeconds: positiveInt("RECORDER_SCHEDULE_INTERVAL_SECONDS").pipe(Config.withDefault(300)),
  // How often closed deals are read back from crm-a and recorded outcomes written to it.
  crmSyncIntervalSeconds: positiveInt("CRM_SYNC_INTERVAL_SECONDS").pipe(Config.withDefault(900)),
  openaiTranscribeModel: Config.string("OPENAI_TRANSCRIBE_MODEL").pipe(Config.withDefault("gpt-4o-transcribe-diarize")),
  transcriberTimeoutSeconds: positiveInt("TRANSCRIBER_TIMEOUT_SECONDS").pipe(Config.withDefault(600)),
  // The tenant's LLM (its integration): the model when the integration names none, and how long
  // the one assessment request of a call may take, retries included.
  openaiLlmModel: Config.string("OPENAI_LLM_MODEL").pipe(Config.withDefault("gpt-4.1-mini")),
  anthropicLlmModel: Config.string("ANTHROPIC_LLM_MODEL").pipe(Config.withDefault("claude-sonnet-4-5")),
  llmTimeoutSeconds: positiveInt("LLM_TIMEOUT_SECONDS").pipe(Config.withDefault(120)),
  // How long a tenant API key found live is remembered (0: looked up on every request).
  apiKeyCacheSeconds: Config.integer("API_KEY_CACHE_SECONDS").pipe(
    Config.validate({ message: "must be 0 or a positive integer", validation: (n) => n >= 0 }),
    Config.withDefault(5)
  ),
  // A request's headers, and the whole request with its body, must arrive in time (408 otherwise).
  httpHeadersTimeoutSeconds: positiveInt("HTTP_HEADERS_TIMEOUT_SECONDS").pipe(Config.withDefault(20)),
  httpRequestTimeoutSeconds: positiveInt("HTTP_REQUEST_TIMEOUT_SECONDS").pipe(Config.withDefault(600)),
  // A connection with nothing sent either way for this long is closed.
  httpIdleTimeoutSeconds: positiveInt("HTTP_IDLE_TIMEOUT_SECONDS").pipe(Config.withDefault(120)),
  otlpEndpoint: Config.option(Config.url("OTEL_EXPORTER_OTLP_ENDPOINT")),
  logFormat: LogFormat
}).pipe(
  Config.validate({
    message: "DB_POOL_MAX must not be above DB_CONNECTION_CAP",
    validation: (c) => c.dbPoolMax <= c.dbConnectionCap
  }),
  Config.validate({
    message: "HTTP_HEADERS_TIMEOUT_SECONDS must not be above HTTP_REQUEST_TIMEOUT_SECONDS",
    validation: (c) => c.httpHeadersTimeoutSeconds <= c.httpRequestTimeoutSeconds
  }),
  Config.validate({
    message: `MAX_UPLOAD_MB must not be above ${S3_MAX_UPLOAD_MB} when S3_BUCKET is set (an object is moved under its key with one copy)`,
    validation: (c) => Option.isNone(c.s3) || c.maxUploadMb <= S3_MAX_UPLOAD_MB
  }),
  Config.mapOrFail((c) => {
    const missing = missingTranscriberKey(c)
    return missing === undefined
      ? Either.right(c)
      : Either.left(ConfigError.InvalidData([missing], `must be set when TRANSCRIBER=${c.transcriber}`))
  }),
  Config.map((c) => {
    const publicBaseUrl = Option.match(c.publicBaseUrl, {
      onNone: () => `http://localhost:${c.port}`,
      onSome: (url) => url.toString().replace(/\/$/, "")
    })
    const localHttp = /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(publicBaseUrl)
    return {
      ...c,
      publicBaseUrl,
      cookieSecure: Option.getOrElse(c.cookieSecure, () => !localHttp),
      blobDir: Option.getOrElse(c.blobDir, () => `${c.dataDir}/blobs`)
    }
  })
)

export type AppConfigShape = Config.Config.Success<typeof appConfig>

export class AppConfig extends Context.Tag("@callsight/AppConfig")<AppConfig, AppConfigShape>() {
  /** Reads and validates the environment; fails with a readable message naming the variable. */
  static readonly layer = Layer.effect(
    AppConfig,
    Effect.mapError(appConfig, (error) => new InvalidConfig({ message: formatConfigError(error) }))
  )

  /** A fixed configuration for tests, over the defaults. */
  static readonly layerWith = (overrides: Partial<AppConfigShape>) =>
    Layer.effect(
      AppConfig,
      Effect.map(Effect.orDie(appConfig.pipe(Effect.withConfigProvider(emptyProvider))), (c) => ({ ...c, ...overrides }))
    )
}

export class InvalidConfig extends Data.TaggedError("InvalidConfig")<{ readonly message: string }> {}

const emptyProvider = ConfigProvider.fromMap(new Map())

const formatConfigError = (error: ConfigError.ConfigError): string =>
  ConfigError.reduceWithContext(error, undefined, {
    andCase: (_, l: string, r: string) => `${l}; ${r}`,
    orCase: (_, l: string, r: string) => `${l}; ${r}`,
    invalidDataCase: (_, path, message) => `${path.join(".")}: ${message}`,
    missingDataCase: (_, path, message) => `${path.join(".")}: ${message}`,
    sourceUnavailableCase: (_, path, message) => `${path.join(".")}: ${message}`,
    unsupportedCase: (_, path, message) => `${path.join(".")}: ${message}`
  })
