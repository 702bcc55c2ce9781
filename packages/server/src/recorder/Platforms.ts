/**
 * The meeting platforms the bot joins, told apart by the meeting link's host. The names are the
 * ones `ActivateRecallRequest.platforms` takes (`RECALL_PLATFORMS` in api-spec): `video` is Zoom,
 * the service's video integration.
 */
import { RECALL_PLATFORMS, type RecallPlatform, ValidationFailed } from "@callsight/api-spec"

const HOSTS: ReadonlyArray<readonly [RecallPlatform, (host: string) => boolean]> = [
  ["video", (h) => h === "zoom.us" || h.endsWith(".zoom.us") || h === "zoomgov.com" || h.endsWith(".zoomgov.com")],
  ["google_meet", (h) => h === "meet.google.com"],
  ["teams", (h) => h === "teams.microsoft.com" || h === "teams.live.com" || h.endsWith(".teams.microsoft.com")],
  ["webex", (h) => h === "webex.com" || h.endsWith(".webex.com")]
]

export const PLATFORM_NAMES = Object.keys(RECALL_PLATFORMS) as ReadonlyArray<RecallPlatform>

export const isPlatform = (name: string): name is RecallPlatform => (PLATFORM_NAMES as ReadonlyArray<string>).includes(name)

/** The platform of a meeting link (https only), or undefined when it is none the bot joins. */
export const platformOf = (meetingUrl: string): RecallPlatform | undefined => {
  let url: URL
  try {
    url = new URL(meetingUrl)
  } catch {
    return undefined
  }
  if (url.protocol !== "https:") return undefined
  const host = url.hostname.toLowerCase()
  return HOSTS.find(([, matches]) => matches(host))?.[0]
}

/** The platforms asked for, each known (422 naming the unknown ones otherwise), without repeats. */
export const validPlatforms = (names: ReadonlyArray<string>) => {
  const detail = names.flatMap((name, i) =>
    isPlatform(name)
      ? []
      : [{
        loc: ["body", "platforms", i],
        msg: `unknown platform ${JSON.stringify(name)}: one of ${PLATFORM_NAMES.join(", ")}`,
        type: "value_error"
      }]
  )
  return detail.length > 0
    ? { _tag: "Left" as const, error: new ValidationFailed({ detail }) }
    : { _tag: "Right" as const, platforms: [...new Set(names as ReadonlyArray<RecallPlatform>)] }
}
