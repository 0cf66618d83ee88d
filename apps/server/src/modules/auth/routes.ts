import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import {
  changePasswordBody,
  confirmBody,
  profileResponseSchema,
  resetPasswordBody,
  sendConfirmationBody,
  sendResetBody,
  signinBody,
  signupBody,
} from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { errors, okSchema } from '../../platform/schemas.ts'
import * as auth from './service.ts'

const tags = ['auth']

export const authRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post('/client/signup/', {
    config: { auth: 'public', fieldErrors: { username: 'email_invalid', email: 'email_invalid', password: 'password_invalid' } },
    schema: {
      tags,
      summary: 'Register a personal or corporate account; sends a confirmation e-mail',
      body: signupBody,
      response: { 201: z.object({ client_id: z.number(), email: z.string() }), ...errors(400) },
    },
    handler: async (req, reply) => reply.status(201).send(await auth.signup(ctx, req.ip, req.body)),
  })

  app.post('/client/send-confirmation-url/', {
    config: { auth: 'public' },
    schema: { tags, summary: 'Send the registration confirmation link again', body: sendConfirmationBody, response: { 200: okSchema, ...errors(400) } },
    handler: async (req) => auth.sendConfirmation(ctx, req.ip, req.body.client_email, req.body.segment),
  })

  app.post('/client/confirm/', {
    config: { auth: 'public' },
    schema: {
      tags,
      summary: 'Confirm a registration or an e-mail change with the link token',
      body: confirmBody,
      response: { 200: z.object({ status: z.literal('ok'), kind: z.enum(['registration', 'email_change']), email: z.string() }), ...errors(400, 404) },
    },
    handler: async (req) => auth.confirm(ctx, req.body.client_id, req.body.confirmation_token),
  })

  app.post('/client/signin/', {
    config: { auth: 'public' },
    schema: { tags, summary: 'Sign in; sets the session cookies', body: signinBody, response: { 200: profileResponseSchema, ...errors(400) } },
    handler: async (req, reply) => {
      const { sessionId, profile } = await auth.signin(ctx, req.ip, req.headers['user-agent'], req.body.username, req.body.password)
      reply.setSession(sessionId)
      return profile
    },
  })

  app.get('/client/logout/', {
    config: { auth: 'public' },
    schema: { tags, summary: 'End the session', response: { 200: okSchema } },
    handler: async (req, reply) => {
      const result = await auth.logout(ctx, req.sessionHash)
      reply.clearSession()
      return result
    },
  })

  app.post('/client/send-password-reset-url/', {
    config: { auth: 'public' },
    schema: { tags, summary: 'Send a set-password link', body: sendResetBody, response: { 200: okSchema, ...errors(400) } },
    handler: async (req) => auth.sendPasswordReset(ctx, req.ip, req.body, req.body.segment),
  })

  app.get('/client/:id/validate-confirmation-token/:token/', {
    config: { auth: 'public' },
    schema: {
      tags,
      summary: 'Check a set-password link: 400 invalid path, 403 invalid or outdated, 404 client not found',
      // not text(): the service holds both to strict patterns first and answers the spec's 636e6338 (invalid path)
      params: z.object({ id: z.string(), token: z.string() }),
      response: { 200: z.object({ status: z.literal('ok'), email: z.string() }), ...errors(400, 404) },
    },
    handler: async (req) => auth.validateResetToken(ctx, req.params.id, req.params.token),
  })

  app.post('/client/reset-password/', {
    config: { auth: 'public', fieldErrors: { new_password: 'password_invalid' } },
    schema: {
      tags,
      summary: 'Set a new password with a link token; signs in',
      body: resetPasswordBody,
      response: { 200: profileResponseSchema, ...errors(400, 404) },
    },
    handler: async (req, reply) => {
      const { sessionId, profile } = await auth.resetPassword(
        ctx,
        req.headers['user-agent'],
        req.body.client_id,
        req.body.confirmation_token,
        req.body.new_password,
      )
      reply.setSession(sessionId)
      return profile
    },
  })

  app.post('/client/change-password/', {
    config: { auth: 'client', fieldErrors: { new_password: 'password_invalid' } },
    schema: { tags, summary: 'Change the password; ends the other sessions', body: changePasswordBody, response: { 200: okSchema, ...errors(400, 401) } },
    handler: async (req) => auth.changePassword(ctx, req.client.id, req.sessionHash, req.body.old_password, req.body.new_password),
  })
}
