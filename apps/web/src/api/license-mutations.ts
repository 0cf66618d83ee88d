import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query'
import type { LicenseView, Platform } from '@portal/domain'
import { activateOffline, releaseDevice, type OfflineInput } from '../features/activation/api/activation.ts'
import { accountHistoryQueryOptions } from '../features/activity/api/account-history.ts'
import { licenseHistoryQueryOptions } from '../features/activity/api/license-history.ts'
import { activateWorkspace } from './activate-workspace.ts'
import { cancelSubscription } from './cancel-subscription.ts'
import { profileQueryOptions } from '../lib/auth.ts'
import { hideIfUnavailable, licenseActionKey, type LicenseAction } from '../lib/hidden-actions.ts'
import { groupsQueryOptions } from './groups.ts'
import { reactivateSubscription, type ReactivateBody } from './reactivate-subscription.ts'
import {
  licensePagesKey,
  licenseQueryOptions,
  licensesQueryOptions,
  pauseLicense,
  releaseLicense,
  renameLicense,
  resumeLicense,
  startTrial,
} from './licenses.ts'

/**
 * License mutations put the license the API answers into the cache (its own query and its row in
 * the list), so no caller refetches whole lists; what the answer does not carry (a group's counts
 * after a revoke or a new trial) is invalidated by that query's own key. A changed license has a
 * new history line: its history and the account's are read again.
 */
export function putLicense(qc: QueryClient, view: LicenseView) {
  qc.setQueryData(licenseQueryOptions(String(view.id)).queryKey, view)
  void qc.invalidateQueries({ queryKey: licenseHistoryQueryOptions(String(view.id)).queryKey })
  void qc.invalidateQueries({ queryKey: accountHistoryQueryOptions().queryKey })
  qc.setQueryData(
    licensesQueryOptions().queryKey,
    (old) => old && { licenses: old.licenses.some((l) => l.id === view.id) ? old.licenses.map((l) => (l.id === view.id ? view : l)) : [...old.licenses, view] },
  )
  // a page's rows, order and counts are the server's: the pages are read again (the shown ones at once)
  void qc.invalidateQueries({ queryKey: licensePagesKey() })
}

function dropLicense(qc: QueryClient, id: number) {
  qc.removeQueries({ queryKey: licenseQueryOptions(String(id)).queryKey, exact: true })
  qc.removeQueries({ queryKey: licenseHistoryQueryOptions(String(id)).queryKey, exact: true })
  void qc.invalidateQueries({ queryKey: accountHistoryQueryOptions().queryKey })
  qc.setQueryData(licensesQueryOptions().queryKey, (old) => old && { licenses: old.licenses.filter((l) => l.id !== id) })
  void qc.invalidateQueries({ queryKey: licensePagesKey() })
}

/**
 * A mutation of one license. With `action`, a refusal as action_unavailable hides that
 * action of the license wherever it is shown; the error modal says why.
 */
const useLicenseMutation = <A>(fn: (args: A) => Promise<LicenseView>, action?: { name: LicenseAction; id: (args: A) => number }) => {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: fn,
    onSuccess: (view) => putLicense(qc, view),
    onError: (err, args) => {
      if (action) hideIfUnavailable(err, licenseActionKey(action.id(args), action.name))
    },
  })
}

const byId = (id: number) => id
const byArgsId = ({ id }: { id: number }) => id

export const useRenameLicense = () => useLicenseMutation(({ id, title }: { id: number; title: string }) => renameLicense(id, title))
export const usePauseLicense = () => useLicenseMutation(pauseLicense, { name: 'pause', id: byId })
export const useResumeLicense = () => useLicenseMutation(resumeLicense, { name: 'resume', id: byId })
export const useActivateOffline = () =>
  useLicenseMutation(({ id, input }: { id: number; input: OfflineInput }) => activateOffline(id, input), { name: 'activate', id: byArgsId })
export const useReleaseDevice = () =>
  useLicenseMutation(({ id, deviceId }: { id: number; deviceId: number }) => releaseDevice(id, deviceId), { name: 'release-device', id: byArgsId })

/** Revoking frees the license's place in its group: the license goes, the group's counts change. */
export function useReleaseLicense() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: releaseLicense,
    onError: (err, id) => hideIfUnavailable(err, licenseActionKey(id, 'revoke')),
    onSuccess: (_answer, id) => {
      dropLicense(qc, id)
      return qc.invalidateQueries({ queryKey: groupsQueryOptions().queryKey })
    },
  })
}

/** A trial arrives with its own group: the licenses join the list, the groups are read again. */
export function useStartTrial() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: ({ product, tag }: { product: string; tag: string | null }) => startTrial(product, tag),
    onSuccess: ({ licenses }) => {
      for (const view of licenses) putLicense(qc, view)
      // the profile's trials_used: the trial is no longer offered
      return Promise.all([
        qc.invalidateQueries({ queryKey: groupsQueryOptions().queryKey }),
        qc.invalidateQueries({ queryKey: profileQueryOptions().queryKey }),
      ])
    },
  })
}

export const useCancelSubscription = () => useLicenseMutation(cancelSubscription)
export const useActivateWorkspace = () => useLicenseMutation(({ platform, id }: { platform: Platform; id: number }) => activateWorkspace(platform, id))

/**
 * Reactivating answers the license as it now is; a payment done (`paid`) or a cancellation undone
 * (`ok`) also changes what the lists show (its group, the other licenses' rows), so those are read
 * again. A checkout (`pending`) changes nothing yet: the caller sends the browser to it.
 */
export function useReactivateSubscription() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: ReactivateBody }) => reactivateSubscription(id, body),
    onSuccess: (answer) => {
      if (answer.status === 'pending') return
      putLicense(qc, answer.license)
      return Promise.all([
        qc.invalidateQueries({ queryKey: licenseQueryOptions(String(answer.license.id)).queryKey }),
        qc.invalidateQueries({ queryKey: groupsQueryOptions().queryKey }),
      ])
    },
  })
}
