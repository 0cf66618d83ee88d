import { useMutation } from '@tanstack/react-query'
import { contractCalls, type ContractBody, type contracts } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'

export type SendConfirmationBody = ContractBody<typeof contracts.sendConfirmationUrl>

export const sendConfirmationUrl = (body: SendConfirmationBody) => call(contractCalls.sendConfirmationUrl, { body })

export const useSendConfirmationUrl = () => useMutation({ mutationFn: sendConfirmationUrl })
