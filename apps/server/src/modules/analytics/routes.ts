import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { analyticsFillInfoBody, analyticsSignupBody } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { createChallenge, verifyCaptcha } from '../../platform/captcha.ts'
import { AppError, fail } from '../../platform/errors.ts'
import { errors, okSchema } from '../../platform/schemas.ts'
import { checkCredentials, signup } from '../auth/service.ts'
import { updateClientProfile } from '../client/queries.ts'

const tags = ['nuitrack-analytics']
/** Where the browser goes after registering: sign in to the cloud once the e-mail is confirmed. */
const NEXT = '/app/login/nuitrack-analytics/?registered=1'

export const analyticsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/captcha/challenge/', {
    config: { auth: 'public' },
    schema: {
      tags,
      summary: 'A proof-of-work captcha challenge (ALTCHA format)',
      response: { 200: z.object({ algorithm: z.literal('SHA-256'), challenge: z.string(), salt: z.string(), signature: z.string(), maxnumber: z.number() }) },
    },
    handler: async (_req, reply) => {
      reply.header('cache-control', 'no-store')
      return createChallenge(ctx.config.SESSION_SECRET)
    },
  })

  app.post('/nuitrack-analytics/signup/', {
    config: { auth: 'public', fieldErrors: { username: 'email_invalid', password: 'password_invalid' } },
    schema: {
      tags,
      summary: 'Register for Nuitrack Analytics: answers the next step, fill_info, or exist when the account is there already',
      body: analyticsSignupBody,
      response: { 200: z.object({ step: z.enum(['fill_info', 'exist']), next: z.string() }), ...errors(400) },
    },
    handler: async (req) => {
      await verifyCaptcha(ctx.db, ctx.config.SESSION_SECRET, req.body.captcha_token)
      try {
        await signup(ctx, req.ip, { username: req.body.username, password: req.body.password, is_corporate: false, segment: 'nuitrack-analytics' })
      } catch (err) {
        if (err instanceof AppError && err.body.error_code === '6352926b') return { step: 'exist' as const, next: NEXT }
        throw err
      }
      return { step: 'fill_info' as const, next: NEXT }
    },
  })

  app.post('/nuitrack-analytics/fill-info/', {
    config: { auth: 'public' },
    schema: {
      tags,
      summary: 'The optional fill-info step: name, company and site of a just-registered account (its credentials prove it)',
      body: analyticsFillInfoBody,
      response: { 200: okSchema.extend({ next: z.string() }), ...errors(400) },
    },
    handler: async (req) => {
      const { username, password, name, company, site } = req.body
      const { client, passwordOk } = await checkCredentials(ctx, req.ip, username, password)
      if (!client || !passwordOk) return fail('invalid_credentials')
      await updateClientProfile(ctx.db, client.id, { ...(name ? { name } : {}), company: { ...(company ? { name: company } : {}), ...(site ? { site } : {}) } })
      return { status: 'ok' as const, next: NEXT }
    },
  })
}
