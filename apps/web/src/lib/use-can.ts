import { may, type Permission } from '@portal/domain'
import { useProfile } from './use-profile.ts'

/**
 * Whether the signed-in person's role in the current account allows what `permission` names (the
 * same `may` the server checks every route with). Until the profile is in, nothing but reading is.
 */
export function useCan(permission: Permission): boolean {
  const role = useProfile().data?.role
  if (!role) return permission === 'read' || permission === 'self'
  return may(role, permission)
}
