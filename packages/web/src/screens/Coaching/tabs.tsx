/**
 * The tabs of the Coaching screens: the dashboard, the trends, the wiki, the manual audits and, for
 * managers (the policy: a member's session is refused them), the team closing audits.
 */
import { isManager, useMe } from "../../session.js"
import { Tabs } from "./parts.js"

const TABS = [
  { href: "/coaching", label: "Dashboard", exact: true },
  { href: "/coaching/trends", label: "Trends" },
  { href: "/coaching/wiki", label: "Wiki" },
  { href: "/coaching/audits", label: "Manual audits" }
]

const MANAGER_TABS = [...TABS, { href: "/coaching/closing-audits", label: "Closing audits" }]

export const CoachingTabs = () => {
  const me = useMe()
  return <Tabs label="Coaching" tabs={isManager(me.data?.role) ? MANAGER_TABS : TABS} />
}
