import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { contracts as c } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { route } from '../../platform/contract-route.ts'
import * as auth from './service.ts'

export const authRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  route(app, c.signup, async (req, reply) => reply.status(201).send(await auth.signup(ctx, req.ip, req.body)))
  route(app, c.sendConfirmationUrl, async (req) => auth.sendConfirmation(ctx, req.ip, req.body.client_email, req.body.segment))
  route(app, c.confirm, async (req) => auth.confirm(ctx, req.body.client_id, req.body.confirmation_token))
  route(app, c.emailRevert, async (req, reply) => {
    const result = await auth.revertEmail(ctx, req.body.client_id, req.body.confirmation_token)
    // every session of the account ended, this browser's too
    reply.clearSession()
    return result
  })
  route(app, c.signin, async (req, reply) => {
    const { sessionId, profile } = await auth.signin(ctx, req.ip, req.headers['user-agent'], req.body.username, req.body.password)
    reply.setSession(sessionId)
    return profile
  })
  route(app, c.logout, async (req, reply) => {
    const result = await auth.logout(ctx, req.sessionHash)
    reply.clearSession()
    return result
  })
  route(app, c.sendPasswordResetUrl, async (req) => auth.sendPasswordReset(ctx, req.ip, req.body, req.body.segment))
  route(app, c.validateConfirmationToken, async (req) => auth.validateResetToken(ctx, req.params.id, req.params.token))
  route(app, c.resetPassword, async (req, reply) => {
    const { sessionId, profile } = await auth.resetPassword(
      ctx,
      req.headers['user-agent'],
      req.body.client_id,
      req.body.confirmation_token,
      req.body.new_password,
    )
    reply.setSession(sessionId)
    return profile
  })
  route(app, c.changePassword, async (req) => auth.changePassword(ctx, req.client.actor_id, req.sessionHash, req.body.old_password, req.body.new_password))
}
