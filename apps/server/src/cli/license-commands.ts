import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { formatRequestFile } from '@portal/domain'
import { verifyLicenseFile, type Keyring, type PublicKeyInfo } from '../platform/signing.ts'
import type { CommandResult } from './result.ts'

export const LICENSE_HELP = `
  license:keys list                      the signing keys, newest last
  license:keys rotate                    make a new signing key (old files stay valid); every
                                         instance on the database signs with it within 10 seconds at the latest
  license:keys retire <kid> --at <date>  files of <kid> stop verifying at <date> (ISO date or time)
  license:verify <file> [--keys FILE]    check a license file offline against the public keys
                                         (the database's keyring, or a saved GET /api/license/public-key/);
                                         exits 1 on any changed byte, unknown or retired key, or expiry
  license:request --serial S [--sensor NAME] [--reg R] [--out FILE]
                                         write an offline activation request file (stdout without --out)`

const option = (args: string[], name: string) => {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : undefined
}

/** Commands that need neither the database nor the keyring: they run in the CLI's own process. */
export function runLicenseCommand(argv: string[]): CommandResult | null {
  const [command, sub, ...rest] = argv
  // checked against a saved key list, a license file needs no database
  if (command === 'license:verify' && option(rest, '--keys')) return verifyCommand(sub, JSON.parse(readFileSync(option(rest, '--keys')!, 'utf8')).keys)
  if (command === 'license:request') {
    const args = argv.slice(1)
    const serial = option(args, '--serial')
    if (!serial) return { code: 2, output: 'Usage: license:request --serial S [--sensor NAME] [--reg R] [--out FILE]' }
    const text = formatRequestFile({ serial, sensor_name: option(args, '--sensor') ?? null, reg: option(args, '--reg') ?? null })
    const out = option(args, '--out')
    if (out) {
      writeFileSync(out, text)
      return { code: 0, output: `Request file written to ${out}` }
    }
    return { code: 0, output: text.trimEnd() }
  }
  return null
}

/**
 * The keyring's commands: the keys are in the database, so a rotation or retirement made here is
 * what every instance reads at its next keyring refresh (platform/signing.ts). `keyring` is the
 * running portal's own, or one the CLI opens on the database.
 */
export async function runKeyCommand(argv: string[], keyring: () => Promise<Keyring>): Promise<CommandResult | null> {
  const [command, sub, ...rest] = argv
  if (command === 'license:keys') {
    if (sub === 'list' || sub === undefined) {
      const lines = (await keyring()).publicKeys().map((k) => `${k.kid}  created ${k.created_at}  ${k.retire_at ? `retires ${k.retire_at}` : 'active'}`)
      return { code: 0, output: lines.join('\n') }
    }
    if (sub === 'rotate') {
      const key = await (await keyring()).rotate()
      return { code: 0, output: `New signing key ${key.kid}. Files signed by older keys stay valid until those keys are retired.` }
    }
    if (sub === 'retire') {
      const kid = rest[0]
      const at = option(rest, '--at')
      const when = at ? new Date(at) : null
      if (!kid || !when || Number.isNaN(when.getTime())) return { code: 2, output: 'Usage: license:keys retire <kid> --at <date>' }
      try {
        await (await keyring()).retire(kid, when)
      } catch (err) {
        return { code: 1, output: (err as Error).message }
      }
      return { code: 0, output: `Key ${kid} retires at ${when.toISOString()}.` }
    }
    return { code: 2, output: `Usage:${LICENSE_HELP}` }
  }
  if (command === 'license:verify') return verifyCommand(sub, (await keyring()).publicKeys())
  return null
}

function verifyCommand(file: string | undefined, keys: PublicKeyInfo[]): CommandResult {
  if (!file || !existsSync(file)) return { code: 2, output: 'Usage: license:verify <file> [--keys FILE]' }
  const result = verifyLicenseFile(readFileSync(file, 'utf8'), keys)
  if (!result.ok) {
    const why = {
      malformed: 'not a license file',
      unknown_key: 'signed by an unknown key',
      retired_key: 'signed by a retired key',
      bad_signature: 'signature does not match (the file was changed)',
      expired: 'the file has expired',
    }[result.reason]
    return { code: 1, output: `INVALID: ${why}` }
  }
  return { code: 0, output: `VALID (key ${result.file.kid})\n${JSON.stringify(result.file.payload, null, 2)}` }
}
