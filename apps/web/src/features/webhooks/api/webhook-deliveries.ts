import { queryOptions, useQuery } from '@tanstack/react-query'
import { contractCalls } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'

/** GET /account/webhooks/deliveries/: the newest deliveries with their status, attempts and last response code. */
export const getWebhookDeliveries = () => call(contractCalls.webhookDeliveries, {})
export const webhookDeliveriesQueryOptions = () => queryOptions({ queryKey: ['webhooks', 'deliveries'], queryFn: getWebhookDeliveries })
export const useWebhookDeliveries = () => useQuery(webhookDeliveriesQueryOptions())
