import { useMutation } from '@tanstack/react-query'
import { contractCalls, type ContractBody, type ErrorName, type contracts } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'

export const RESET_URL_HANDLED = ['client_not_found_by_email'] as const satisfies readonly ErrorName[]

export type SendResetBody = ContractBody<typeof contracts.sendPasswordResetUrl>

export const sendPasswordResetUrl = (body: SendResetBody) => call(contractCalls.sendPasswordResetUrl, { body }, { handle: RESET_URL_HANDLED })

export const useSendPasswordResetUrl = () => useMutation({ mutationFn: sendPasswordResetUrl })
