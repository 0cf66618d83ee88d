import { useMutation } from '@tanstack/react-query'
import type { Platform } from '@portal/domain'
import { api } from '../../../lib/api-client.ts'

export interface SendConfirmationBody {
  client_email: string
  segment?: Platform
}

export const sendConfirmationUrl = (body: SendConfirmationBody) => api.post<{ status: 'ok' }>('/api/client/send-confirmation-url/', body)

export const useSendConfirmationUrl = () => useMutation({ mutationFn: sendConfirmationUrl })
