import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** The release this server is (the root package.json's version): the OpenAPI document names it. */
export const PORTAL_RELEASE: string = (JSON.parse(readFileSync(join(import.meta.dirname, '../../../../package.json'), 'utf8')) as { version: string }).version
