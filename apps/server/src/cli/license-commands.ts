import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { formatRequestFile } from '@portal/domain'
import { fileKeyring, verifyLicenseFile, type PublicKeyInfo } from '../platform/signing.ts'
import type { CommandResult } from './result.ts'

export const LICENSE_HELP = `
  license:keys list                      the signing keys, newest last
  license:keys rotate                    make a new signing key (old files stay valid)
  license:keys retire <kid> --at <date>  files of <kid> stop verifying at <date> (ISO date or time)
  license:verify <file> [--keys FILE]    check a license file offline against the public keys
                                         (DATA_DIR's keyring, or a saved GET /api/license/public-key/);
                                         exits 1 on any changed byte, unknown or retired key, or expiry
  license:request --serial S [--sensor NAME] [--reg R] [--out FILE]
                                         write an offline activation request file (stdout without --out)`

const option = (args: string[], name: string) => {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : undefined
}

/** Commands that need only DATA_DIR's files, never the database: they run in the CLI's own process. */
export function runLicenseCommand(argv: string[], dataDir: string, pinnedKey?: string): CommandResult | null {
  const [command, sub, ...rest] = argv
  if (command === 'license:keys') {
    const keyring = fileKeyring(dataDir, pinnedKey)
    if (sub === 'list' || sub === undefined) {
      const lines = keyring.publicKeys().map((k) => `${k.kid}  created ${k.created_at}  ${k.retire_at ? `retires ${k.retire_at}` : 'active'}`)
      return { code: 0, output: lines.join('\n') }
    }
    if (sub === 'rotate') {
      const key = keyring.rotate()
      return { code: 0, output: `New signing key ${key.kid}. Files signed by older keys stay valid until those keys are retired.` }
    }
    if (sub === 'retire') {
      const kid = rest[0]
      const at = option(rest, '--at')
      const when = at ? new Date(at) : null
      if (!kid || !when || Number.isNaN(when.getTime())) return { code: 2, output: 'Usage: license:keys retire <kid> --at <date>' }
      try {
        keyring.retire(kid, when)
      } catch (err) {
        return { code: 1, output: (err as Error).message }
      }
      return { code: 0, output: `Key ${kid} retires at ${when.toISOString()}.` }
    }
    return { code: 2, output: `Usage:${LICENSE_HELP}` }
  }
  if (command === 'license:verify') {
    const file = sub
    if (!file || !existsSync(file)) return { code: 2, output: 'Usage: license:verify <file> [--keys FILE]' }
    const keysFile = option(rest, '--keys')
    const keys: PublicKeyInfo[] = keysFile ? JSON.parse(readFileSync(keysFile, 'utf8')).keys : fileKeyring(dataDir, pinnedKey).publicKeys()
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
