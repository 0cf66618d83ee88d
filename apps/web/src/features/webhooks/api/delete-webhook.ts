import { useMutation, useQueryClient } from '@tanstack/react-query'
import { contractCalls } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'
import { webhooksQueryOptions } from './webhooks.ts'

/** POST /account/webhooks/{id}/delete/: nothing more is sent to it. */
export const deleteWebhook = (id: number) => call(contractCalls.webhookDelete, { params: { id } })

export function useDeleteWebhook() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteWebhook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksQueryOptions().queryKey }),
  })
}
