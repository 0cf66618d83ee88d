import { useMutation } from '@tanstack/react-query'
import { contractCalls, type ContractBody, type contracts } from '@portal/domain'
import { call } from '../../../lib/api-client.ts'

export type Feedback = ContractBody<typeof contracts.feedbackCreate>

/** POST /api/feedback/; a field error and the rate limit land on the widget's form. */
export const sendFeedback = (body: Feedback) => call(contractCalls.feedbackCreate, { body }, { handle: ['validation_failed', 'rate_limited'] })

export const useSendFeedback = () => useMutation({ mutationFn: sendFeedback })
