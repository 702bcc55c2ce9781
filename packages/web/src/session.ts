/**
 * Who is signed in (`GET /v1/client-auth/me`) and what their role lets them see, as the policy
 * table says (docs/policy.md): the app shows each screen to the roles the policy allows, and the
 * service refuses the rest anyway. `me` also says which closer the person is (a member who is one
 * is a rep and sees that closer's calls; none: no call) and whether the account is closing.
 */
import { useQuery } from "@tanstack/react-query"
import { type Api, call } from "./api.js"

export type Me = typeof Api.ClientUser.Type

/** The key of `me` in the query cache: invalidated when what it says changes (the account closed or kept). */
export const ME_KEY = ["me"] as const

export const useMe = () =>
  useQuery({ queryKey: ME_KEY, queryFn: () => call((c) => c.clientAuth.getCurrentUser()), staleTime: 60_000 })

export type Role = "owner" | "admin" | "member"

/** Owners and admins manage the account and see the whole team; a member is a rep (their own calls). */
export const isManager = (role: Role | undefined) => role === "owner" || role === "admin"
