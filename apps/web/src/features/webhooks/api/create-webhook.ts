import { useMutation, useQueryClient } from '@tanstack/react-query'
import { contractCalls, type WebhookCreateBody } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'
import { webhooksQueryOptions } from './webhooks.ts'

/** POST /account/webhooks/: a refused address lands on its input, the limit under the form. */
export const createWebhook = (body: WebhookCreateBody) =>
  call(contractCalls.webhookCreate, { body }, { handle: ['validation_failed', 'webhook_endpoints_max'] })

export function useCreateWebhook() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createWebhook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksQueryOptions().queryKey }),
  })
}
