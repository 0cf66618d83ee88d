import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { contracts as c } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { route } from '../../platform/contract-route.ts'
import * as licenses from './service.ts'

export const licenseRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  route(
    app,
    c.licenseList,
    async (req, reply) => {
      const answer = await licenses.listLicensesAnswer(ctx, req.client.id, req.query, req.headers['if-none-match'], licenses.sessionListVersion(req.client))
      // no-store like every authenticated answer (it carries every key); the page's own query cache
      // sends If-None-Match with the tag it holds, so a 304 still spares the list
      reply.header('etag', answer.etag).header('cache-control', 'no-store')
      return answer.notModified ? reply.code(304).send() : answer.body
    },
    {
      // the list is the portal's largest answer: plain JSON.stringify; the schema still documents it
      // and GET /license/{id}/ validates the same view
      serializerCompiler: () => (data) => JSON.stringify(data),
      // the session and the list version in one statement: a 304 is one round trip
      config: { sessionLookup: licenses.listSessionLookup },
    },
  )
  route(app, c.license, async (req) => licenses.getLicense(ctx, req.client.id, req.params.id))
  route(app, c.licenseRename, async (req) => licenses.renameLicense(ctx, req.client.id, req.params.id, req.body.title))
  route(app, c.licenseRelease, async (req) => licenses.releaseLicense(ctx, req.client.id, req.params.id))
  // the workspace calls accept only their own platform's licenses (another's is not found)
  for (const [call, paused, platform] of [
    [c.licensePause, true, undefined],
    [c.licenseResume, false, undefined],
    [c.analyticsWorkspaceDeactivate, true, 'nuitrack-analytics'],
    [c.analyticsWorkspaceActivate, false, 'nuitrack-analytics'],
    [c.faceMachineWorkspaceDeactivate, true, 'face-machine'],
    [c.faceMachineWorkspaceActivate, false, 'face-machine'],
  ] as const) {
    route(app, call, async (req) => licenses.setPaused(ctx, req.client.id, req.params.id, paused, platform))
  }

  route(app, c.trialCreate, async (req) => licenses.createTrial(ctx, req.client.id, req.body))
  // a key generated from a group (the group screen's), a license of this module's
  route(app, c.groupNewLicense, async (req) => licenses.newLicenseFromGroup(ctx, req.client.id, req.params.id, req.body.title))
  route(app, c.groupNewLicenses, async (req) => licenses.newLicensesFromGroup(ctx, req.client.id, req.params.id, req.body.count))
  // the groups, with the count of unactivated licenses (this module's) that limits generating from them
  route(app, c.groupList, async (req) => licenses.groupsWithRoom(ctx, req.client.id))
}
