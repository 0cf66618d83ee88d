import { useLocation, useSearchParams } from 'react-router'
import { isPlatform, type Platform } from '@portal/domain'
import { recall } from '../../lib/session.ts'

export interface SignInState {
  from?: string
  platform?: Platform
}

/** The platform a sign-in page works for: router state, else ?platform=, else the remembered one. */
export function useSignInPlatform(): Platform | null {
  const location = useLocation()
  const [search] = useSearchParams()
  const state = (location.state ?? {}) as SignInState
  if (isPlatform(state.platform)) return state.platform
  const q = search.get('platform')
  if (isPlatform(q)) return q
  return recall().platform
}

/** Keeps ?platform= on links between sign-in pages. */
export function withPlatform(path: string, platform: Platform | null) {
  return platform ? `${path}?platform=${platform}` : path
}
