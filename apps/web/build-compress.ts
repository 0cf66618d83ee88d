import { readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { Plugin } from 'vite'

const brotli = promisify(brotliCompress)
const gz = promisify(gzip)

/** Text files worth sending compressed; images and fonts are compressed formats already. */
export const COMPRESSIBLE_FILE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/
/** Below this a file goes as it is: the server does the same with its answers. */
export const MIN_COMPRESS_BYTES = 1024

/** The `.br` and `.gz` siblings of one file, written only where they are smaller than the file. */
export async function precompressFile(file: string): Promise<void> {
  const bytes = await readFile(file)
  if (bytes.length < MIN_COMPRESS_BYTES) return
  const [br, gzipped] = await Promise.all([
    brotli(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
    gz(bytes, { level: constants.Z_BEST_COMPRESSION }),
  ])
  if (br.length < bytes.length) await writeFile(`${file}.br`, br)
  if (gzipped.length < bytes.length) await writeFile(`${file}.gz`, gzipped)
}

/**
 * After `vite build`: brotli (quality 11) and gzip (level 9) siblings of every compressible file the
 * build wrote, made once here so the server sends them with @fastify/static's `preCompressed` and
 * spends no CPU compressing the app's files per request.
 */
export function precompress(): Plugin {
  let outDir = ''
  return {
    name: 'portal-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir)
    },
    async writeBundle(_options, bundle) {
      const files = Object.keys(bundle).filter((name) => COMPRESSIBLE_FILE.test(name) && !name.startsWith('.vite/'))
      await Promise.all(files.map((name) => precompressFile(join(outDir, name))))
    },
  }
}
