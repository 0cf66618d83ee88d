import { contract, okSchema } from '../contract.ts'
import { salesMessageBody } from '../sales-message.ts'

/** Messages to the vendor's people: the contact-sales form. */
export const supportContracts = {
  salesContact: contract({
    method: 'POST',
    path: '/support/contacts-sales/',
    auth: 'client',
    permission: 'self',
    tags: ['support'],
    summary: "Send a message to sales (or another named recipient): delivered by e-mail to the recipient's address, reply-to the sender",
    body: salesMessageBody,
    response: { 200: okSchema },
    errors: ['sales_recipient_unknown'],
  }),
} as const
