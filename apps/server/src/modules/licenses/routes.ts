import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import {
  FACE_COMPONENTS,
  groupViewSchema,
  licenseViewSchema,
  newLicenseBody,
  resizeBody,
  splitBody,
  staffLicenseBody,
  text,
  titleBody,
  trialBody,
} from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { errors, okSchema } from '../../platform/schemas.ts'
import { listFaceSdkVersions } from './queries.ts'
import * as licenses from './service.ts'

const idParams = z.object({ id: text() })
/** a title the rules refuse is the spec's bad-title answer, wherever the title is */
const titleErrors = { title: 'bad_title' } as const
const licenseResponse = { 200: licenseViewSchema, ...errors(400, 401, 404, 409) }
const groupResponse = { 200: z.object({ group: groupViewSchema }), ...errors(400, 401, 404, 409) }

export const licenseRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tags = ['licenses']

  app.get('/license/', {
    config: { auth: 'client' },
    // the list is the portal's largest answer: plain JSON.stringify; the schema still documents it
    // and GET /license/{id}/ validates the same view
    serializerCompiler: () => (data) => JSON.stringify(data),
    schema: { tags, summary: "The client's licenses, newest first", response: { 200: z.object({ licenses: z.array(licenseViewSchema) }), ...errors(401) } },
    handler: async (req) => licenses.getLicenses(ctx, req.client.id),
  })
  app.get('/license/:id/', {
    config: { auth: 'client' },
    schema: { tags, summary: 'One license', params: idParams, response: licenseResponse },
    handler: async (req) => licenses.getLicense(ctx, req.client.id, req.params.id),
  })
  app.post('/license/:id/', {
    config: { auth: 'client', fieldErrors: titleErrors },
    schema: { tags, summary: 'Rename a license', params: idParams, body: titleBody, response: licenseResponse },
    handler: async (req) => licenses.renameLicense(ctx, req.client.id, req.params.id, req.body.title),
  })
  app.post('/license/:id/release/', {
    config: { auth: 'client' },
    schema: {
      tags,
      summary: 'Revoke a grouped license that was never activated; its group gets the license back',
      params: idParams,
      response: { 200: okSchema.extend({ group: groupViewSchema }), ...errors(400, 401, 404, 409) },
    },
    handler: async (req) => licenses.releaseLicense(ctx, req.client.id, req.params.id),
  })
  for (const [path, paused] of [
    ['/license/:id/pause/', true],
    ['/license/:id/resume/', false],
    ['/nuitrack-analytics/:id/deactivate-workspace/', true],
    ['/nuitrack-analytics/:id/activate-workspace/', false],
    ['/facemachine/:id/deactivate-workspace/', true],
    ['/facemachine/:id/activate-workspace/', false],
  ] as const) {
    app.post(path, {
      config: { auth: 'client' },
      schema: { tags, summary: paused ? 'Pause a cloud subscription' : 'Resume a cloud subscription', params: idParams, response: licenseResponse },
      handler: async (req) => licenses.setPaused(ctx, req.client.id, req.params.id, paused),
    })
  }

  const groupTags = ['groups']
  app.get('/group/', {
    config: { auth: 'client' },
    schema: { tags: groupTags, summary: "The client's license groups", response: { 200: z.object({ groups: z.array(groupViewSchema) }), ...errors(401) } },
    handler: async (req) => licenses.getGroups(ctx, req.client.id),
  })
  app.post('/group/:id/', {
    config: { auth: 'client', fieldErrors: titleErrors },
    schema: { tags: groupTags, summary: 'Rename a group', params: idParams, body: titleBody, response: groupResponse },
    handler: async (req) => licenses.renameGroup(ctx, req.client.id, req.params.id, req.body.title),
  })
  app.post('/group/:id/split/', {
    config: { auth: 'client', fieldErrors: titleErrors },
    schema: {
      tags: groupTags,
      summary:
        'Make a group key of `limit` licenses (default: the lesser of 2 and what the source has) from a default nuitrack_subscribe or nuitrack_unlimited group',
      params: idParams,
      body: splitBody,
      response: { 200: z.object({ dest_group: groupViewSchema, source_group: groupViewSchema }), ...errors(400, 401, 404) },
    },
    handler: async (req) => licenses.splitGroup(ctx, req.client.id, req.params.id, req.body.title, req.body.limit),
  })
  app.post('/group/:id/resize/', {
    config: { auth: 'client' },
    schema: {
      tags: groupTags,
      summary: "Set a group key's available licenses; the difference moves to or from its default group",
      params: idParams,
      body: resizeBody,
      response: { 200: z.object({ group: groupViewSchema, default_group: groupViewSchema }), ...errors(400, 401, 404) },
    },
    handler: async (req) => licenses.resizeGroup(ctx, req.client.id, req.params.id, req.body.limit),
  })
  app.post('/group/:id/new-license/', {
    config: { auth: 'client', fieldErrors: titleErrors },
    schema: { tags: groupTags, summary: 'Generate a license from a group (limit -1)', params: idParams, body: newLicenseBody, response: licenseResponse },
    handler: async (req) => licenses.newLicenseFromGroup(ctx, req.client.id, req.params.id, req.body.title),
  })

  app.get('/versions/face/', {
    config: { auth: 'public' },
    schema: {
      tags: ['catalogue'],
      summary: 'Face SDK versions',
      response: { 200: z.object({ facesdk_versions: z.array(z.object({ version: z.string(), is_default: z.boolean() })) }) },
    },
    handler: async () => ({
      facesdk_versions: await listFaceSdkVersions(ctx.db),
    }),
  })
  app.get('/components/face/', {
    config: { auth: 'public' },
    schema: { tags: ['catalogue'], summary: 'Face SDK license components', response: { 200: z.object({ components: z.array(z.string()) }) } },
    handler: async () => ({ components: [...FACE_COMPONENTS] }),
  })

  app.post('/resource/create/', {
    config: { auth: 'client', fieldErrors: titleErrors },
    schema: {
      tags,
      summary: 'Start a free trial: nuitrack_trial, or fmc_subscribe / na_subscribe with tag FMC Trial / NA Trial; one per product',
      body: trialBody,
      response: { 200: z.object({ licenses: z.array(licenseViewSchema) }), ...errors(400, 401, 409) },
    },
    handler: async (req) => licenses.createTrial(ctx, req.client.id, req.body),
  })
  app.post('/resource/custom/create/', {
    config: { auth: 'staff', fieldErrors: titleErrors },
    schema: {
      tags: ['staff'],
      summary: 'Staff: create custom licenses for a client by e-mail',
      body: staffLicenseBody,
      response: { 200: z.object({ licenses: z.array(licenseViewSchema) }), ...errors(400, 401) },
    },
    handler: async (req) => licenses.staffCreateLicenses(ctx, req.client.id, req.body),
  })
}
