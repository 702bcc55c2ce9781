/**
 * The report's header: the call's title, its facts (ids, closer, date, duration, audio, speakers,
 * the transcript's provider, the call type given or detected, the stereo rep channel), why the
 * call type and the rep channel are what they are, and a chip for each speaker with its role and share of talk.
 */
import { e, formatClock, formatDate, formatDuration, isNum, pct } from "./Format.js"
import { roleLabel } from "./Speakers.js"
import { BRAND_MARK } from "./Svg.js"
import type { ReportView } from "./View.js"

const TYPE_LABELS: Readonly<Record<string, string>> = {
  cold_call: "Cold call",
  discovery: "Discovery",
  demo: "Demo",
  negotiation: "Negotiation",
  renewal: "Renewal",
  support_upsell: "Support/upsell"
}

/** "Demo · detected, 84 % sure" or "Negotiation · given". */
const callTypeText = (t: { readonly type: string; readonly source: "given" | "detected"; readonly confidence: number }) =>
  `${TYPE_LABELS[t.type] ?? t.type} · ${t.source === "given" ? "given" : `detected, ${pct(t.confidence)} sure`}`

/** The header. */
export const headerSection = (view: ReportView): string => {
  const { duration, hasTranscript, input, lanes, providerName, transcription } = view
  const facts: Array<[string, string, boolean]> = [
    ["Call ID", input.call_id, true],
    ["External ID", input.external_call_id ?? "—", input.external_call_id !== null],
    ["Date", formatDate(input.created_at), false],
    ["Duration", `${formatClock(duration)} (${formatDuration(duration)})`, false],
    ["Audio", input.channels === 2 ? "Stereo, 2 channels" : input.channels === 1 ? "Mono" : "—", false],
    ["Speakers", String(lanes.length), false]
  ]
  if (input.closer_email) facts.splice(2, 0, ["Closer", input.closer_email, false])
  if (hasTranscript && transcription !== null) {
    facts.push(["Transcript", `${providerName} · ${transcription.model}`, false])
  }
  const callType = input.call_type ?? null
  facts.push(["Call type", callType === null ? "unknown (default weights)" : callTypeText(callType), false])
  const repChannel = input.rep_channel ?? null
  if (repChannel !== null) facts.push(["Rep channel", `${repChannel.chosen} (${repChannel.requested === "auto" ? "auto" : "set"})`, false])
  const why = [
    ...(callType === null ? [] : [`Call type: ${callType.reason}.`]),
    ...(repChannel === null ? [] : [`Rep channel ${repChannel.chosen}: ${repChannel.reason}.`])
  ]
  return `<header class="masthead"><div class="wrap">
<div class="brand">${BRAND_MARK}<span>Callsight · Call report</span></div>
<h1>${e(input.external_call_id ?? "Sales call")}<span class="sub">Acoustic analysis${hasTranscript ? " with transcript" : ""} · ${e(formatDate(input.created_at))}</span></h1>
<dl class="facts">${facts.map(([k, v, mono]) => `<div><dt>${e(k)}</dt><dd${mono ? ` class="mono"` : ""}>${e(v)}</dd></div>`).join("")}</dl>${
    why.length > 0 ? `\n<p id="call-setup" style="color:#cbd5e1;font-size:13px;margin:0 0 12px">${why.map(e).join(" ")}</p>` : ""
  }
<div class="chips">${
    lanes
      .map((l) =>
        `<span class="chip"><span class="dot" style="background:${l.colour}"></span>${e(l.speaker)} <span class="role">${e(roleLabel(l.role))}${
          isNum(l.share) ? ` · ${pct(l.share)} of talk` : ""
        }${l.confidence !== null && l.role !== "unknown" ? ` · role ${pct(l.confidence)} sure` : ""}</span></span>`
      )
      .join("")
  }</div>
</div></header>`
}
