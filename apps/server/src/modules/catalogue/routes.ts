import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { FACE_COMPONENTS, contracts as c } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { route } from '../../platform/contract-route.ts'
import { listFaceSdkVersions } from './queries.ts'

export const catalogueRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  route(app, c.faceSdkVersions, async () => ({ facesdk_versions: await listFaceSdkVersions(ctx.db) }))
  route(app, c.faceComponents, async () => ({ components: [...FACE_COMPONENTS] }))
}
