import { z } from '../zod.ts'
import { contract, okSchema } from '../contract.ts'
import { tokenCreateBody, tokenViewSchema } from '../tokens.ts'
import { idParams } from './licenses.ts'

const tags = ['tokens']

/** The account's API tokens: listed, created (the token shown once) and revoked; with a session only. */
export const tokenContracts = {
  tokenList: contract({
    method: 'GET',
    path: '/account/tokens/',
    auth: 'client',
    permission: 'licenses',
    tags,
    summary: "The account's API tokens, newest first, with their last use (to the minute) and state",
    response: { 200: z.object({ tokens: z.array(tokenViewSchema) }) },
    errors: [],
  }),
  tokenCreate: contract({
    method: 'POST',
    path: '/account/tokens/',
    auth: 'client',
    permission: 'licenses',
    tags,
    summary: 'Create an API token (scope read or manage; expires in 30, 90 or 365 days, or never). The token itself is in this answer only',
    body: tokenCreateBody,
    response: { 201: z.object({ token: tokenViewSchema, secret: z.string() }) },
    errors: [],
  }),
  tokenRevoke: contract({
    method: 'POST',
    path: '/account/tokens/:id/revoke/',
    auth: 'client',
    permission: 'licenses',
    tags,
    summary: 'Revoke an API token: its next call answers 401',
    params: idParams,
    response: { 200: okSchema.extend({ token: tokenViewSchema }) },
    errors: ['not_found'],
  }),
} as const
