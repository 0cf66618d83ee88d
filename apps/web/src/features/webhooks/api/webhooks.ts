import { queryOptions, useQuery } from '@tanstack/react-query'
import { contractCalls } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'

/** GET /account/webhooks/: the account's endpoints with their signing secrets. */
export const getWebhooks = () => call(contractCalls.webhookList, {})
export const webhooksQueryOptions = () => queryOptions({ queryKey: ['webhooks', 'endpoints'], queryFn: getWebhooks })
export const useWebhooks = () => useQuery(webhooksQueryOptions())
