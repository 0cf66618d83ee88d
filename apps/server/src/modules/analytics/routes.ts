import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { contracts as c } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { createCaptcha } from '../../platform/captcha.ts'
import { AppError, fail } from '../../platform/errors.ts'
import { route } from '../../platform/contract-route.ts'
import { checkCredentials, signup } from '../auth/service.ts'
import { updateClientProfile } from '../account/service.ts'

/** Where the browser goes after registering: sign in to the cloud once the e-mail is confirmed. */
const NEXT = '/app/login/nuitrack-analytics/?registered=1'

export const analyticsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const captcha = createCaptcha(ctx.config, ctx.secrets.sessionSecret)
  route(app, c.captchaChallenge, async (_req, reply) => {
    reply.header('cache-control', 'no-store')
    return captcha.challenge()
  })

  route(app, c.analyticsSignup, async (req) => {
    await captcha.verify(ctx.db, req.body.captcha_token, req.ip)
    try {
      await signup(ctx, req.ip, { username: req.body.username, password: req.body.password, is_corporate: false, segment: 'nuitrack-analytics' })
    } catch (err) {
      if (err instanceof AppError && err.body.error_code === '6352926b') return { step: 'exist' as const, next: NEXT }
      throw err
    }
    return { step: 'fill_info' as const, next: NEXT }
  })

  route(app, c.analyticsFillInfo, async (req) => {
    const { username, password, name, company, site } = req.body
    const { client, passwordOk } = await checkCredentials(ctx, req.ip, username, password)
    if (!client || !passwordOk) return fail('invalid_credentials')
    await updateClientProfile(ctx.db, client.id, { ...(name ? { name } : {}), company: { ...(company ? { name: company } : {}), ...(site ? { site } : {}) } })
    return { status: 'ok' as const, next: NEXT }
  })
}
