import type { FastifyPluginAsync } from 'fastify'
import { apiError } from '@portal/domain'
import type { AppContext } from '../../context.ts'
import { findOutboxAttachment, listOutbox, type OutboxRow } from './queries.ts'

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

/** The development mailbox: every mail the outbox holds, newest first. Absent in production. */
export const devMailRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const list = (to?: string) => listOutbox(ctx.db, to)
  const attachmentUrl = (m: OutboxRow, index: number) => `/dev/mailbox/${m.id}/attachments/${index}`
  const attachmentList = (m: OutboxRow) =>
    m.attachments.length
      ? `<p class="meta">Attachments: ${m.attachments.map((a, i) => `<a href="${attachmentUrl(m, i)}">${esc(a.filename)}</a> (${esc(a.content_type)})`).join(', ')}</p>`
      : ''

  // an attachment as the mail carries it (a receipt's invoice PDF), to look at in development
  app.get<{ Params: { id: string; index: string } }>('/dev/mailbox/:id/attachments/:index', { schema: { hide: true } }, async (req, reply) => {
    const id = /^\d{1,15}$/.test(req.params.id) ? Number(req.params.id) : null
    const index = /^\d{1,3}$/.test(req.params.index) ? Number(req.params.index) : null
    const file = id !== null && index !== null ? await findOutboxAttachment(ctx.db, id, index) : null
    if (!file) return reply.status(404).send(apiError('route_not_found'))
    const safeName = file.filename.replace(/[^\w.-]/g, '_')
    return reply
      .type(file.content_type)
      .header('content-disposition', `attachment; filename="${safeName}"`)
      .header('cache-control', 'no-store')
      .send(Buffer.from(file.content_base64, 'base64'))
  })

  app.get<{ Querystring: { to?: string } }>('/dev/mailbox.json', { schema: { hide: true } }, async (req) => ({
    messages: (await list(req.query.to)).map((m) => ({
      id: m.id,
      to: m.to_address,
      ...(m.reply_to ? { reply_to: m.reply_to } : {}),
      subject: m.subject,
      text: m.text_body,
      html: m.html_body,
      attachments: m.attachments.map((a, i) => ({ ...a, url: attachmentUrl(m, i) })),
      created_at: new Date(m.created_at).toISOString(),
    })),
  }))

  app.get<{ Querystring: { to?: string } }>('/dev/mailbox', { schema: { hide: true } }, async (req, reply) => {
    const mails = await list(req.query.to)
    const items = mails
      .map(
        (
          m,
        ) => `<article><h2>${esc(m.subject)}</h2><p class="meta">To ${esc(m.to_address)}${m.reply_to ? ` · Reply-To ${esc(m.reply_to)}` : ''} · ${new Date(m.created_at).toISOString()}</p>
        <div class="body">${m.html_body}</div>${attachmentList(m)}</article>`,
      )
      .join('\n')
    reply.type('text/html').send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dev mailbox</title>
      <style>body{font-family:system-ui,sans-serif;max-width:760px;margin:2rem auto;padding:0 1rem}article{border:1px solid #ccd;border-radius:8px;padding:1rem;margin:1rem 0}.meta{color:#555;font-size:.9rem}</style>
      </head><body><main><h1>Dev mailbox</h1><p>Mails the portal would send, newest first. This page does not exist in production.</p>
      ${items || '<p>No mail yet.</p>'}</main></body></html>`)
  })
}
