import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { clientInfoSchema, profileResponseSchema, updateClientBody } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { errors } from '../../platform/schemas.ts'
import { getProfile, updateClient } from './service.ts'

const tags = ['client']

export const clientRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/client/', {
    config: { auth: 'client' },
    schema: { tags, summary: 'The signed-in client, prices per platform and payment keys', response: { 200: profileResponseSchema, ...errors(401) } },
    handler: async (req) => getProfile(ctx, req.client.id),
  })

  app.post('/client/', {
    config: { auth: 'client', fieldErrors: { email: 'email_invalid' } },
    schema: {
      tags,
      summary: 'Update profile, company and options; a new e-mail waits for confirmation',
      body: updateClientBody,
      response: { 200: z.object({ client_info: clientInfoSchema, email_confirmation_sent: z.boolean() }), ...errors(400, 401) },
    },
    handler: async (req) => updateClient(ctx, req.ip, req.client.id, req.body),
  })
}
