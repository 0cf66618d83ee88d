import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query'
import type { GroupView, LicenseView } from '@portal/domain'
import { groupsQueryOptions, newLicenseFromGroup, newLicensesFromGroup, renameGroup, resizeGroup, splitGroup } from './groups.ts'
import { licensesQueryOptions } from './licenses.ts'
import { putLicense } from './license-mutations.ts'

/** Group mutations put the groups the API answers into the list; see license-mutations.ts. */
export function putGroups(qc: QueryClient, ...views: GroupView[]) {
  qc.setQueryData(groupsQueryOptions().queryKey, (old) => {
    if (!old) return old
    const fresh = new Map(views.map((g) => [g.id, g]))
    const kept = old.groups.map((g) => fresh.get(g.id) ?? g)
    return { ...old, groups: [...kept, ...views.filter((g) => !old.groups.some((o) => o.id === g.id))] }
  })
}

/** A group's title shows on its licenses too: their list is read again. */
export function useRenameGroup() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: ({ id, title }: { id: number; title: string }) => renameGroup(id, title),
    onSuccess: ({ group }) => {
      putGroups(qc, group)
      return qc.invalidateQueries({ queryKey: licensesQueryOptions().queryKey })
    },
  })
}

export function useSplitGroup() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: ({ id, title, limit }: { id: number; title: string; limit: number }) => splitGroup(id, title, limit),
    onSuccess: ({ dest_group, source_group }) => putGroups(qc, source_group, dest_group),
  })
}

export function useResizeGroup() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: ({ id, limit }: { id: number; limit: number }) => resizeGroup(id, limit),
    onSuccess: ({ group, default_group }) => putGroups(qc, group, default_group),
  })
}

/** A license made from a group: the license joins the list, the group's counts are read again. */
export function useNewLicenseFromGroup() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: ({ id, title }: { id: number; title?: string }) => newLicenseFromGroup(id, title),
    onSuccess: (view) => {
      putLicense(qc, view)
      return qc.invalidateQueries({ queryKey: groupsQueryOptions().queryKey })
    },
  })
}

/**
 * "Generate all": each group's count in one call (the server makes them all or none), group after
 * group; the licenses made are answered in order. The groups (and their unactivated count) are read
 * again however it ends: a later group's refusal leaves the earlier groups' licenses made.
 */
export function useGenerateAll() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: async (plan: readonly { id: number; count: number }[]) => {
      const made: LicenseView[] = []
      for (const { id, count } of plan) {
        const { licenses, group } = await newLicensesFromGroup(id, count)
        putGroups(qc, group)
        for (const view of licenses) putLicense(qc, view)
        made.push(...licenses)
      }
      return made
    },
    onSettled: () => qc.invalidateQueries({ queryKey: groupsQueryOptions().queryKey }),
  })
}
