import { useMutation } from '@tanstack/react-query'
import type { ErrorName, Platform } from '@portal/domain'
import { api } from '../../../lib/api-client.ts'

export const RESET_URL_HANDLED = ['client_not_found_by_email'] as const satisfies readonly ErrorName[]

export interface SendResetBody {
  client_email: string
  segment?: Platform
}

export const sendPasswordResetUrl = (body: SendResetBody) =>
  api.post<{ status: 'ok' }>('/api/client/send-password-reset-url/', body, { handle: RESET_URL_HANDLED })

export const useSendPasswordResetUrl = () => useMutation({ mutationFn: sendPasswordResetUrl })
