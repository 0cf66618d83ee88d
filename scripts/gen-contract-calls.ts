/**
 * `npm run gen:calls`: writes packages/domain/src/contract-calls.ts, the method and path of every
 * contract without its schemas, which is all the browser needs to make a call (the answer types
 * come from the contracts at compile time). The type checker holds the file to the contracts: a
 * call added, removed or moved there fails `npm run typecheck` until this script runs again.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { contracts } from '../packages/domain/src/contracts/index.ts'

const target = join(import.meta.dirname, '../packages/domain/src/contract-calls.ts')
const lines = Object.entries(contracts).map(([name, c]) => `  ${name}: { method: '${c.method}', path: '${c.path}' },`)
const source = `// Written by \`npm run gen:calls\` (scripts/gen-contract-calls.ts) from contracts/index.ts: do not edit.
import type { ContractCalls } from './contracts/index.ts'

/**
 * Every call's method and path, without the schemas: the browser makes its calls from these, so
 * Zod and the schemas load only with the screens whose forms use them. Typed against the contracts,
 * so a difference from them fails the type check.
 */
export const contractCalls: ContractCalls = {
${lines.join('\n')}
}
`
writeFileSync(target, source)
console.log(`${target}: ${lines.length} calls`)
