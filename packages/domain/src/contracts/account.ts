import { z } from '../zod.ts'
import { contract } from '../contract.ts'
import { clientInfoSchema, profileResponseSchema, updateClientBody } from '../client.ts'

export const accountContracts = {
  profile: contract({
    method: 'GET',
    path: '/client/',
    auth: 'client',
    permission: 'read',
    tags: ['client'],
    summary: 'The signed-in client, prices per platform and payment keys',
    response: { 200: profileResponseSchema },
    errors: [],
  }),
  profileUpdate: contract({
    method: 'POST',
    path: '/client/',
    auth: 'client',
    permission: 'members',
    tags: ['client'],
    summary: 'Update profile, company and options; a new e-mail waits for confirmation',
    body: updateClientBody,
    response: { 200: z.object({ client_info: clientInfoSchema, email_confirmation_sent: z.boolean() }) },
    errors: ['email_in_use', 'org_has_members'],
    fieldErrors: { email: 'email_invalid' },
  }),
} as const
