import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySerializerCompiler, RouteOptions, RouteShorthandOptions } from 'fastify'
import fastJson from 'fast-json-stringify'
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { actingAs } from './actor.ts'
import { errorResponses, type Contract, type ContractRequest, type ContractResponse } from '@portal/domain'

type Handler<C extends Contract> = (req: FastifyRequest<ContractRequest<C>>, reply: FastifyReply) => Promise<ContractResponse<C> | FastifyReply>

/** route options a contract does not carry: how the server answers, not what it answers */
type Extra = Pick<RouteShorthandOptions, 'serializerCompiler' | 'preHandler' | 'onRequest' | 'bodyLimit'> & {
  config?: Omit<NonNullable<RouteOptions['config']>, 'auth' | 'permission' | 'fieldErrors' | 'bearer'>
}

/**
 * Registers a call from its contract: method, path, access (the session, and an API token where
 * the contract says `bearer`: session.ts decides), field errors and every schema come from the
 * contract, so the OpenAPI document lists what the contract declares and nothing else.
 */
export function route<C extends Contract>(app: FastifyInstance, c: C, handler: Handler<C>, extra: Extra = {}): void {
  app.route({
    ...extra,
    method: c.method,
    url: c.path,
    config: {
      ...extra.config,
      auth: c.auth,
      bearer: c.bearer === true,
      ...(c.permission ? { permission: c.permission } : {}),
      ...(c.fieldErrors ? { fieldErrors: c.fieldErrors } : {}),
    },
    schema: {
      tags: [...c.tags],
      summary: c.summary,
      ...(c.hide ? { hide: true } : {}),
      ...(c.params ? { params: c.params } : {}),
      ...(c.query ? { querystring: c.query } : {}),
      ...(c.body ? { body: c.body } : {}),
      response: { ...errorResponses(c), ...c.response },
    },
    // what the handler's services record in the history names the signed-in person as its actor
    handler: ((req: FastifyRequest<ContractRequest<C>>, reply: FastifyReply) =>
      actingAs(req.session?.actor_id ?? null, () => handler(req, reply))) as unknown as RouteOptions['handler'],
  })
}

/**
 * A serializer compiled from the contract's success schema (fast-json-stringify over the schema's
 * JSON Schema form), for hot routes whose handler builds the answer itself: the answer is written
 * field by field as the schema says, with no validation pass (a field the schema lacks is left out,
 * a wrong type fails). Error answers keep the validating zod serializer.
 */
export const compiledSerializer: FastifySerializerCompiler<unknown> = (route) => {
  const zodRoute = route as Parameters<typeof zodSerializerCompiler>[0]
  if (String(route.httpStatus) !== '200') return zodSerializerCompiler(zodRoute)
  return fastJson(z.toJSONSchema(zodRoute.schema as z.ZodType, { io: 'output', target: 'draft-7' }) as Parameters<typeof fastJson>[0])
}
