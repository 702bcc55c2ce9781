/**
 * Who is signed in (`GET /v1/client-auth/me`) and what their role lets them see, as the policy
 * table says (docs/policy.md): the app shows each screen to the roles the policy allows, and the
 * service refuses the rest anyway.
 */
import { useQuery } from "@tanstack/react-query"
import { call } from "./api.js"

export const useMe = () =>
  useQuery({ queryKey: ["me"], queryFn: () => call((c) => c.clientAuth.getCurrentUser()), staleTime: 60_000 })

export type Role = "owner" | "admin" | "member"

/** Owners and admins manage the account and see the whole team; a member is a rep (their own calls). */
export const isManager = (role: Role | undefined) => role === "owner" || role === "admin"
