/**
 * The screens, in the navigation's order, each with the roles that may use it (the policy table,
 * docs/policy.md: a member is a rep and sees their own calls; team-wide views are the managers')
 * and its routes under `/app`.
 */
import { type ComponentType, lazy } from "react"
import type { Role } from "../session.js"

/**
 * A screen loaded when first opened: the first load carries the frame and the client, each screen
 * comes as its own file (the build splits them).
 */
const later = <M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string): ComponentType =>
  lazy(() => load().then((m) => ({ default: m[name] as ComponentType })))

const CallsScreen = later(() => import("./Calls.js"), "CallsScreen")
const CallPage = later(() => import("./CallPage.js"), "CallPage")
const SettingsScreen = later(() => import("./Settings.js"), "SettingsScreen")
const TeamScreen = later(() => import("./Team.js"), "TeamScreen")
const CoachingScreen = later(() => import("./Coaching.js"), "CoachingScreen")
const WikiScreen = later(() => import("./Coaching.js"), "WikiScreen")
const ArticleScreen = later(() => import("./Coaching.js"), "ArticleScreen")
const AuditsScreen = later(() => import("./Coaching.js"), "AuditsScreen")
const AuditScreen = later(() => import("./Coaching.js"), "AuditScreen")
const TrendsScreen = later(() => import("./Trends.js"), "TrendsScreen")
const ClosingAuditsScreen = later(() => import("./ClosingAudits.js"), "ClosingAuditsScreen")
const ClosingAuditScreen = later(() => import("./ClosingAudits.js"), "ClosingAuditScreen")
const SearchScreen = later(() => import("./Workspace.js"), "SearchScreen")
const ChatScreen = later(() => import("./Workspace.js"), "ChatScreen")
const BriefsScreen = later(() => import("./Workspace.js"), "BriefsScreen")
const ValueScreen = later(() => import("./Value.js"), "ValueScreen")
const DigestScreen = later(() => import("./Value.js"), "DigestScreen")
const ReviewPackScreen = later(() => import("./Value.js"), "ReviewPackScreen")
const EventsScreen = later(() => import("./Activity.js"), "EventsScreen")
const AuditLogScreen = later(() => import("./Activity.js"), "AuditLogScreen")

export interface Screen {
  readonly label: string
  readonly path: string
  readonly roles: ReadonlyArray<Role>
  /** Each route, with the roles that may use it when fewer than the screen's (a route of the managers' in a screen of everyone's). */
  readonly routes: ReadonlyArray<{ readonly path: string; readonly component: ComponentType; readonly roles?: ReadonlyArray<Role> }>
}

const everyone: ReadonlyArray<Role> = ["owner", "admin", "member"]
const managers: ReadonlyArray<Role> = ["owner", "admin"]

export const SCREENS: ReadonlyArray<Screen> = [
  { label: "Calls", path: "/calls", roles: everyone, routes: [{ path: "/calls", component: CallsScreen }, { path: "/calls/:id", component: CallPage }] },
  { label: "Workspace", path: "/workspace", roles: everyone, routes: [{ path: "/workspace", component: SearchScreen }, { path: "/workspace/chat", component: ChatScreen }, { path: "/workspace/briefs", component: BriefsScreen }] },
  {
    label: "Coaching", path: "/coaching", roles: everyone, routes: [
      { path: "/coaching", component: CoachingScreen }, { path: "/coaching/trends", component: TrendsScreen },
      { path: "/coaching/wiki", component: WikiScreen }, { path: "/coaching/wiki/:slug", component: ArticleScreen },
      { path: "/coaching/audits", component: AuditsScreen }, { path: "/coaching/audits/:id", component: AuditScreen },
      // the team closing audits are the managers' (a member's session is refused them)
      { path: "/coaching/closing-audits", component: ClosingAuditsScreen, roles: managers },
      { path: "/coaching/closing-audits/:id", component: ClosingAuditScreen, roles: managers }
    ]
  },
  // members see the plan and its usage only; the value views (and their tabs) are the managers'
  { label: "Value", path: "/value", roles: everyone, routes: [{ path: "/value", component: ValueScreen }, { path: "/value/digest", component: DigestScreen }, { path: "/value/review", component: ReviewPackScreen }] },
  { label: "Activity", path: "/activity", roles: managers, routes: [{ path: "/activity", component: EventsScreen }, { path: "/activity/audit-log", component: AuditLogScreen }] },
  { label: "Team", path: "/team", roles: everyone, routes: [{ path: "/team", component: TeamScreen }] },
  { label: "Settings", path: "/settings", roles: everyone, routes: [{ path: "/settings", component: SettingsScreen }, { path: "/settings/:section", component: SettingsScreen }] }
]
