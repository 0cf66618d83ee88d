import { contract, okSchema } from '../contract.ts'
import { feedbackBody } from '../feedback.ts'

export const feedbackContracts = {
  feedbackCreate: contract({
    method: 'POST',
    path: '/feedback/',
    auth: 'client',
    permission: 'self',
    tags: ['feedback'],
    summary: "Send feedback from the widget: an emotion's score (1 angry … 5 happy) and an optional comment of at most 500 characters",
    body: feedbackBody,
    response: { 200: okSchema },
    errors: [],
  }),
} as const
