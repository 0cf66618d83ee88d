import { z } from '../zod.ts'
import { contract, okSchema } from '../contract.ts'
import { webhookCreateBody, webhookDeliverySchema, webhookEndpointSchema } from '../webhooks.ts'
import { idParams } from './licenses.ts'

const tags = ['webhooks']

/** The account's webhook endpoints and the log of their deliveries; with a session only. */
export const webhookContracts = {
  webhookList: contract({
    method: 'GET',
    path: '/account/webhooks/',
    auth: 'client',
    permission: 'licenses',
    tags,
    summary: "The account's webhook endpoints with their signing secrets",
    response: { 200: z.object({ endpoints: z.array(webhookEndpointSchema) }) },
    errors: [],
  }),
  webhookCreate: contract({
    method: 'POST',
    path: '/account/webhooks/',
    auth: 'client',
    permission: 'licenses',
    tags,
    summary: 'Register an endpoint for some events; each delivery is signed with its secret (Portal-Signature: t=…,v1=…)',
    body: webhookCreateBody,
    response: { 201: z.object({ endpoint: webhookEndpointSchema }) },
    errors: ['webhook_endpoints_max'],
  }),
  webhookDelete: contract({
    method: 'POST',
    path: '/account/webhooks/:id/delete/',
    auth: 'client',
    permission: 'licenses',
    tags,
    summary: 'Remove an endpoint: nothing more is sent to it',
    params: idParams,
    response: { 200: okSchema },
    errors: ['not_found'],
  }),
  webhookDeliveries: contract({
    method: 'GET',
    path: '/account/webhooks/deliveries/',
    auth: 'client',
    permission: 'licenses',
    tags,
    summary: 'The newest 50 deliveries: event, status, attempts and the last response code',
    response: { 200: z.object({ deliveries: z.array(webhookDeliverySchema) }) },
    errors: [],
  }),
} as const
