import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query'
import type { GroupView } from '@portal/domain'
import { groupsQueryOptions, newLicenseFromGroup, renameGroup, resizeGroup, splitGroup } from './groups.ts'
import { licensesQueryOptions } from './licenses.ts'
import { putLicense } from './license-mutations.ts'

/** Group mutations put the groups the API answers into the list; see license-mutations.ts. */
export function putGroups(qc: QueryClient, ...views: GroupView[]) {
  qc.setQueryData(groupsQueryOptions().queryKey, (old) => {
    if (!old) return old
    const fresh = new Map(views.map((g) => [g.id, g]))
    const kept = old.groups.map((g) => fresh.get(g.id) ?? g)
    return { groups: [...kept, ...views.filter((g) => !old.groups.some((o) => o.id === g.id))] }
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
