import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The version the build stamps into the app: the release from the root package.json, and the short
 * commit when the build runs in a git checkout ("1.1.0 (c97068d)"); the release alone elsewhere.
 */
export function buildVersion(root = join(import.meta.dirname, '../..')): string {
  const release = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0'
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
    return commit ? `${release} (${commit})` : release
  } catch {
    return release
  }
}
