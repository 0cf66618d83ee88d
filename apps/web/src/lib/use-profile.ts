import { useQuery } from '@tanstack/react-query'
import { profileQueryOptions } from './auth.ts'
import { useLogged } from './session.ts'

/** The signed-in client's profile (lib/auth.ts), asked for only while signed in. */
export function useProfile() {
  const logged = useLogged()
  return useQuery({ ...profileQueryOptions(), enabled: logged })
}
