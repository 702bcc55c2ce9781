/**
 * Settings, one section at a time (`/settings/:section`): the team's profiles, the integrations
 * (calendars and video per closer, CRM, LLM and speech-to-text keys), the recorder, API keys, and
 * the completion webhooks, the account's data (retention, export, closing). Each section is shown
 * to the roles the policy table lets use it (docs/policy.md): a member reads and saves the
 * profiles, reads the recorder's status and the retention setting; the rest is the managers'. The
 * sections are in `settings/*.tsx`.
 */
import type { ComponentType } from "react"
import { Link, Redirect, useParams } from "wouter"
import { isManager, type Role, useMe } from "../session.js"
import { Failure, Loading, Page } from "../ui/kit.js"
import { AccountSection } from "./settings/Account.js"
import { ApiKeysSection } from "./settings/ApiKeys.js"
import { IntegrationsSection } from "./settings/Integrations.js"
import { ProfilesSection } from "./settings/Profiles.js"
import { RecorderSection } from "./settings/Recorder.js"
import { WebhooksSection } from "./settings/Webhooks.js"

interface Section {
  readonly slug: string
  readonly label: string
  readonly managersOnly: boolean
  readonly component: ComponentType<{ readonly role: Role }>
}

const SECTIONS: ReadonlyArray<Section> = [
  { slug: "profiles", label: "Profiles", managersOnly: false, component: ProfilesSection },
  { slug: "integrations", label: "Integrations", managersOnly: true, component: IntegrationsSection },
  { slug: "recorder", label: "Recorder", managersOnly: false, component: RecorderSection },
  { slug: "api-keys", label: "API keys", managersOnly: true, component: ApiKeysSection },
  { slug: "webhooks", label: "Webhooks", managersOnly: true, component: WebhooksSection },
  { slug: "account", label: "Data and account", managersOnly: false, component: AccountSection }
]

export const SettingsScreen = () => {
  const { section } = useParams<{ section?: string }>()
  const me = useMe()
  if (me.isPending) return <Loading what="your account" />
  if (me.isError) return <Page title="Settings"><Failure error={me.error} /></Page>
  const role = me.data.role
  const sections = SECTIONS.filter((s) => !s.managersOnly || isManager(role))
  const current = sections.find((s) => s.slug === (section ?? "profiles"))
  if (current === undefined) {
    return SECTIONS.some((s) => s.slug === section)
      ? <Page title="Settings"><p role="alert">Only owners and admins manage this part of the settings. <Link href="/settings">Back to the settings</Link>.</p></Page>
      : <Redirect to="/settings" />
  }
  const Body = current.component
  return (
    <Page title="Settings">
      <nav className="subnav" aria-label="Settings sections">
        <ul>
          {sections.map((s) => (
            <li key={s.slug}>
              <Link href={`/settings/${s.slug}`} aria-current={s === current ? "page" : undefined}>{s.label}</Link>
            </li>
          ))}
        </ul>
      </nav>
      <Body role={role} />
    </Page>
  )
}
