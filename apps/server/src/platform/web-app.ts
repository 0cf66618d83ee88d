import { createHash } from 'node:crypto'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join, sep } from 'node:path'
import { constants as zlib } from 'node:zlib'
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify'
import fp from 'fastify-plugin'
import compress from '@fastify/compress'
import fastifyStatic from '@fastify/static'
import { etagMatches } from './etag.ts'
import { DEVICE_API_PREFIX } from './device-api.ts'

/** Answers smaller than this go as they are: compressing them saves less than its headers cost. */
export const COMPRESS_THRESHOLD = 1024

/** Text types worth compressing on the fly; binary downloads (PDF, license files) and event streams are not. */
export const COMPRESSIBLE = /^(?:text\/(?!event-stream)|application\/(?:[\w.+-]+\+)?(?:json|xml|javascript)(?:;|$)|image\/svg\+xml)/u

/** The build's content-hashed files (Vite's `assets/` folder): their names change with their bytes. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable'
/** Everything else of the web app (index.html above all): kept, but asked again each time (ETag / Last-Modified). */
export const REVALIDATE_CACHE = 'no-cache'

/**
 * Compression of dynamic answers (@fastify/compress): JSON and text above COMPRESS_THRESHOLD, brotli
 * at a low quality (cheap on CPU) or gzip, whichever the client accepts. Registered before the
 * routes: the plugin hooks each route as it is added. ETags pass through unchanged, so an answer's
 * compressed and plain forms share one ETag: a 304 check compares ETags weakly, as RFC 9110 asks of
 * If-None-Match, so this is right for GET revalidation (no route of ours answers byte ranges of JSON).
 */
export const responseCompression = fp(async (app: FastifyInstance) => {
  app.addHook('onRoute', (route) => {
    // the device API answers SDKs in the field: small, and sent as they are whatever a device announces
    if (route.url.startsWith(DEVICE_API_PREFIX)) route.compress = false
  })
  await app.register(compress, {
    global: true,
    threshold: COMPRESS_THRESHOLD,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
    customTypes: COMPRESSIBLE,
  })
})

const isHashedAsset = (root: string, file: string) => file.startsWith(join(root, 'assets') + sep)

/**
 * The built single-page app under /app/: its files from the dist folder (with the `.br` and `.gz`
 * siblings the build makes, picked by Accept-Encoding), and index.html for every other /app/ path.
 * Hashed assets are cached for a year; index.html is revalidated on each visit.
 */
export const webApp = fp(async (app: FastifyInstance, opts: { root: string }) => {
  const { root } = opts
  const indexFile = join(root, 'index.html')
  if (!existsSync(indexFile)) return
  const indexHtml = readFileSync(indexFile, 'utf8')
  const indexModified = statSync(indexFile).mtime.toUTCString()
  const etag = htmlEtag(indexHtml)

  // a file without a .br/.gz sibling is compressed on the fly by @fastify/compress, which adds its own
  // `accept-encoding` to the Vary that setHeaders wrote (it looks for the name in lower case only):
  // after its hook, the answer names each header once
  const oneVary: onSendHookHandler = (_request, reply, payload, done) => {
    const vary = reply.getHeader('vary')
    if (vary !== undefined) reply.header('vary', uniqueTokens(String(vary)))
    done(null, payload)
  }
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/app/')) route.onSend = [...[route.onSend ?? []].flat(), oneVary]
  })

  await app.register(fastifyStatic, {
    root,
    prefix: '/app/',
    wildcard: false,
    index: false,
    decorateReply: false,
    preCompressed: true,
    // set below, per file: `send`'s own header would give every file the same policy
    cacheControl: false,
    setHeaders(reply, path) {
      reply.header('cache-control', isHashedAsset(root, path) ? IMMUTABLE_CACHE : REVALIDATE_CACHE)
      // the same address answers brotli, gzip or plain bytes: a shared cache keys on Accept-Encoding
      reply.header('vary', 'Accept-Encoding')
    },
  })

  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', REVALIDATE_CACHE).header('etag', etag).header('last-modified', indexModified)
    if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send()
    return reply.type('text/html').send(indexHtml)
  }
  // a missing file of the build (an old release's chunk) is a 404, never the page in its place: the
  // app's router then shows its error screen instead of running HTML as a script
  const missingAsset = async (_request: FastifyRequest, reply: FastifyReply) => reply.callNotFound()
  app.get('/app/assets/*', { schema: { hide: true } }, missingAsset)
  // the single-page app answers every other /app/ path itself
  app.get('/app/*', { schema: { hide: true } }, page)
  app.get('/app', { schema: { hide: true } }, page)
})

/** A header's comma-separated names, each once (the first spelling kept): "Accept-Encoding, accept-encoding" is "Accept-Encoding". */
export const uniqueTokens = (value: string) => {
  const seen = new Map<string, string>()
  for (const token of value.split(',').map((t) => t.trim())) if (token && !seen.has(token.toLowerCase())) seen.set(token.toLowerCase(), token)
  return [...seen.values()].join(', ')
}

const htmlEtag = (html: string) => `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`

/** The index page's text when the build is there (the not-found handler serves it to browsers). */
export const readIndexHtml = (root: string): string | undefined => {
  const file = join(root, 'index.html')
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined
}
