/**
 * The app's frame: a skip link, the navigation (the screens the signed-in role may use, as the
 * policy table says), the signed-in person (with the closer they are, as `me` says) and sign-out,
 * a banner while the account is closing (when its data goes, and where to keep it or export it),
 * and the screen of the address. Routes are under `/app` (wouter's base); `/portal` leads here.
 */
import { useMutation } from "@tanstack/react-query"
import { Suspense, useEffect } from "react"
import { Link, Redirect, Route, Switch, useLocation } from "wouter"
import { call } from "./api.js"
import { SCREENS } from "./screens/index.js"
import { type Me, useMe } from "./session.js"
import { Failure, Loading, When } from "./ui/kit.js"

const SignOut = () => {
  const signOut = useMutation({
    mutationFn: () => call((c) => c.clientAuth.logout()),
    onSettled: () => window.location.assign("/sign-in")
  })
  return <button type="button" className="link" onClick={() => signOut.mutate()}>Sign out</button>
}

/** While the account is closing: when its data goes, and where an owner keeps the account (or anyone exports it). */
const ClosingBanner = ({ user }: { readonly user: Me }) => {
  const closing = user.account_closing
  if (closing === null) return null
  return (
    <div className="callout banner" role="status">
      <p>
        <strong>The account is closing.</strong> Its API keys are revoked; all its data, recordings and calls are deleted after{" "}
        <When at={closing.deleted_after} />.{" "}
        {user.role === "owner"
          ? <Link href="/settings/account">Keep the account, or export its data first</Link>
          : <>An owner can keep it in <Link href="/settings/account">Settings, Data and account</Link>.</>}
      </p>
    </div>
  )
}

export const App = () => {
  const me = useMe()
  const [location] = useLocation()
  const company = me.data?.company_name
  useEffect(() => {
    if (company !== undefined) document.title = `${company} · Callsight`
  }, [company])
  if (me.isPending) return <main id="main"><Loading what="your account" /></main>
  if (me.isError) return <main id="main"><Failure error={me.error} /></main>
  const user = me.data
  const screens = SCREENS.filter((s) => s.roles.includes(user.role))
  return (
    <>
      <a className="skip" href="#main">Skip to the content</a>
      <header className="top">
        <span className="brand">Callsight <span className="muted">· {user.company_name}</span></span>
        <span className="who">
          <span>{user.email} ({user.role}{user.closer === null ? "" : `, closer ${user.closer.full_name}`})</span> <SignOut />
        </span>
      </header>
      <ClosingBanner user={user} />
      <nav className="nav" aria-label="Screens">
        <ul>
          {screens.map((s) => (
            <li key={s.path}>
              <Link href={s.path} aria-current={location === s.path || location.startsWith(`${s.path}/`) ? "page" : undefined}>{s.label}</Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        <Suspense fallback={<Loading what="the screen" />}>
        <Switch>
          {screens.flatMap((s) => s.routes.filter((r) => r.roles === undefined || r.roles.includes(user.role)).map((r) => <Route key={r.path} path={r.path} component={r.component} />))}
          <Route path="/"><Redirect to={screens[0]?.path ?? "/"} /></Route>
          <Route><p role="alert">There is no such page. <Link href="/">Back to the start</Link>.</p></Route>
        </Switch>
        </Suspense>
      </main>
    </>
  )
}
