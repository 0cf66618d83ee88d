import type { FastifyPluginAsync } from 'fastify'
import type { AppContext } from '../../context.ts'
import { listOutbox } from './queries.ts'

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

/** The development mailbox: every mail the outbox holds, newest first. Absent in production. */
export const devMailRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const list = (to?: string) => listOutbox(ctx.db, to)

  app.get<{ Querystring: { to?: string } }>('/dev/mailbox.json', { schema: { hide: true } }, async (req) => ({
    messages: (await list(req.query.to)).map((m) => ({
      id: m.id,
      to: m.to_address,
      ...(m.reply_to ? { reply_to: m.reply_to } : {}),
      subject: m.subject,
      text: m.text_body,
      html: m.html_body,
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
        <div class="body">${m.html_body}</div></article>`,
      )
      .join('\n')
    reply.type('text/html').send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dev mailbox</title>
      <style>body{font-family:system-ui,sans-serif;max-width:760px;margin:2rem auto;padding:0 1rem}article{border:1px solid #ccd;border-radius:8px;padding:1rem;margin:1rem 0}.meta{color:#555;font-size:.9rem}</style>
      </head><body><main><h1>Dev mailbox</h1><p>Mails the portal would send, newest first. This page does not exist in production.</p>
      ${items || '<p>No mail yet.</p>'}</main></body></html>`)
  })
}
