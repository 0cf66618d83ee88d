import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { FACE_COMPONENTS, contracts as c } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { route } from '../../platform/contract-route.ts'
import { listFaceSdkVersions } from './queries.ts'
import * as licenses from './service.ts'

export const licenseRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  route(app, c.licenseList, async (req) => licenses.getLicenses(ctx, req.client.id), {
    // the list is the portal's largest answer: plain JSON.stringify; the schema still documents it
    // and GET /license/{id}/ validates the same view
    serializerCompiler: () => (data) => JSON.stringify(data),
  })
  route(app, c.license, async (req) => licenses.getLicense(ctx, req.client.id, req.params.id))
  route(app, c.licenseRename, async (req) => licenses.renameLicense(ctx, req.client.id, req.params.id, req.body.title))
  route(app, c.licenseRelease, async (req) => licenses.releaseLicense(ctx, req.client.id, req.params.id))
  for (const [call, paused] of [
    [c.licensePause, true],
    [c.licenseResume, false],
    [c.analyticsWorkspaceDeactivate, true],
    [c.analyticsWorkspaceActivate, false],
    [c.faceMachineWorkspaceDeactivate, true],
    [c.faceMachineWorkspaceActivate, false],
  ] as const) {
    route(app, call, async (req) => licenses.setPaused(ctx, req.client.id, req.params.id, paused))
  }

  route(app, c.groupList, async (req) => licenses.getGroups(ctx, req.client.id))
  route(app, c.groupRename, async (req) => licenses.renameGroup(ctx, req.client.id, req.params.id, req.body.title))
  route(app, c.groupSplit, async (req) => licenses.splitGroup(ctx, req.client.id, req.params.id, req.body.title, req.body.limit))
  route(app, c.groupResize, async (req) => licenses.resizeGroup(ctx, req.client.id, req.params.id, req.body.limit))
  route(app, c.groupNewLicense, async (req) => licenses.newLicenseFromGroup(ctx, req.client.id, req.params.id, req.body.title))

  route(app, c.faceSdkVersions, async () => ({ facesdk_versions: await listFaceSdkVersions(ctx.db) }))
  route(app, c.faceComponents, async () => ({ components: [...FACE_COMPONENTS] }))

  route(app, c.trialCreate, async (req) => licenses.createTrial(ctx, req.client.id, req.body))
  route(app, c.staffLicenseCreate, async (req) => licenses.staffCreateLicenses(ctx, req.client.id, req.body))
}
