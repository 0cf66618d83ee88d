import { useState, type ReactNode } from 'react'
import { Navigate, Outlet, useLocation, useParams } from 'react-router'
import { isPlatform, splitPlatformSignInPath } from '@portal/domain'
import { paths } from '../config/paths.ts'
import { NotFoundRoute } from '../features/errors/routes/not-found.tsx'
import { isLogged, recall, remember, useLogged } from '../lib/session.ts'

/** Platform and account pages: a visitor goes to the login page, remembering where they wanted to go. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const logged = useLogged()
  const location = useLocation()
  const { platform } = useParams()
  if (!logged) {
    const from = `${location.pathname}${location.search}`
    const p = isPlatform(platform) ? platform : null
    remember({ path: from, platform: p })
    return <Navigate to={paths.login} replace state={{ from, platform: p ?? undefined }} />
  }
  return children
}

/** Registration, forgot-password and set-password: a signed-in user goes to /app/ or /app/{platform}/. */
export function AnonymousOnly({ children }: { children: ReactNode }) {
  // judged once, on entry: a page that signs the user in (set-password) navigates on by itself
  const [loggedAtEntry] = useState(isLogged)
  const location = useLocation()
  if (loggedAtEntry) {
    const state = (location.state ?? {}) as { platform?: unknown }
    const q = new URLSearchParams(location.search).get('platform')
    const platform = isPlatform(state.platform) ? state.platform : isPlatform(q) ? q : recall().platform
    return <Navigate to={platform ? paths.platform(platform) : paths.root} replace />
  }
  return children
}

/** /app/{platform}/...: only the four platforms exist. */
export function PlatformGate() {
  const { platform } = useParams()
  if (!isPlatform(platform)) return <NotFoundRoute />
  return <Outlet />
}

export function PlatformIndex() {
  const { platform } = useParams()
  return isPlatform(platform) ? <Navigate to={paths.dashboard(platform)} replace /> : <NotFoundRoute />
}

/** Everything else under /app: a platform before a sign-in path moves to the plain path, the rest is not found. */
export function AppCatchAll() {
  const location = useLocation()
  const split = splitPlatformSignInPath(location.pathname)
  if (split) {
    const search = new URLSearchParams(location.search)
    search.set('platform', split.platform)
    const state = { ...((location.state ?? {}) as object), platform: split.platform }
    return <Navigate to={`${split.path}?${search.toString()}`} replace state={state} />
  }
  return <NotFoundRoute />
}
