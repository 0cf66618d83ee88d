import { useMutation } from '@tanstack/react-query'
import { contracts, type ContractBody } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'

export type SendConfirmationBody = ContractBody<typeof contracts.sendConfirmationUrl>

export const sendConfirmationUrl = (body: SendConfirmationBody) => call(contracts.sendConfirmationUrl, { body })

export const useSendConfirmationUrl = () => useMutation({ mutationFn: sendConfirmationUrl })
