import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { contracts as c } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { route } from '../../platform/contract-route.ts'
import * as transactions from './service.ts'

export const transactionRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  route(app, c.transactionList, async (req, reply) => {
    reply.header('cache-control', 'private, no-store')
    return transactions.getTransactions(ctx, req.client.id, req.query)
  })

  route(app, c.transactionCreditNote, async (req, reply) => {
    const { filename, pdf } = await transactions.getCreditNote(ctx, req.client.id, req.params.id)
    return reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'private, no-store')
      .send(pdf)
  })

  route(app, c.transactionInvoice, async (req, reply) => {
    const { filename, pdf } = await transactions.getInvoice(ctx, req.client.id, req.params.id)
    return reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'private, no-store')
      .send(pdf)
  })
}
