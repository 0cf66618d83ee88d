import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { FastifyRequest } from 'fastify'
import { contracts as c } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { route } from '../../platform/contract-route.ts'
import * as orgs from './service.ts'

const caller = (req: FastifyRequest): orgs.Caller => ({ actorId: req.client.actor_id, orgId: req.client.id })

export const orgRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  route(app, c.orgList, async (req) => orgs.listOrgs(ctx.db, req.client.actor_id, req.client.id))
  route(app, c.orgSwitch, async (req) => orgs.switchOrg(ctx, req.client.actor_id, req.sessionHash, req.body.org_id))
  route(app, c.orgLeave, async (req) => orgs.leaveOrg(ctx, caller(req), req.sessionHash))
  route(app, c.memberList, async (req) => orgs.getMembers(ctx.db, caller(req)))
  route(app, c.memberInvite, async (req) => orgs.invite(ctx, req.ip, caller(req), req.body))
  route(app, c.invitationRevoke, async (req) => orgs.withdrawInvitation(ctx, caller(req), req.params.id))
  route(app, c.memberRole, async (req) => orgs.changeRole(ctx, caller(req), req.params.memberId, req.body.role))
  route(app, c.memberRemove, async (req) => orgs.removeMember(ctx, caller(req), req.params.memberId))
  route(app, c.invitationShow, async (req) => orgs.showInvitation(ctx, req.params.token))
  route(app, c.invitationAccept, async (req) => orgs.acceptInvitation(ctx, req.client.actor_id, req.sessionHash, req.params.token))
  route(app, c.invitationRegister, async (req, reply) => {
    const { sessionId, orgs: answer } = await orgs.registerThroughInvitation(ctx, req.ip, req.headers['user-agent'], req.params.token, req.body.password)
    reply.setSession(sessionId)
    return answer
  })
}
