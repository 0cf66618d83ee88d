/**
 * The OpenAPI document's request schemas read the way a client of the API reads them: a validator
 * for the keywords the document uses (OpenAPI 3.0's JSON Schema: `nullable`, a boolean
 * `exclusiveMinimum`, patterns compiled with the `u` flag as Ajv does), and the values just inside
 * and just outside each constraint a schema states.
 */

export interface Schema {
  type?: string | string[]
  nullable?: boolean
  properties?: Record<string, Schema>
  required?: string[]
  items?: Schema
  enum?: unknown[]
  additionalProperties?: Schema | boolean
  anyOf?: Schema[]
  oneOf?: Schema[]
  allOf?: Schema[]
  minimum?: number
  maximum?: number
  exclusiveMinimum?: boolean | number
  exclusiveMaximum?: boolean | number
  minLength?: number
  maxLength?: number
  pattern?: string
  minItems?: number
  maxItems?: number
  default?: unknown
  description?: string
}

const compiled = new Map<string, RegExp>()
const regex = (pattern: string) => {
  let re = compiled.get(pattern)
  if (!re) compiled.set(pattern, (re = new RegExp(pattern, 'u')))
  return re
}

/** the patterns a string schema states, its own and its allOf's */
export const patternsOf = (s: Schema): string[] => [...(s.pattern ? [s.pattern] : []), ...(s.allOf ?? []).flatMap(patternsOf)]

const typeOf = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v

/** Whether the document's schema lets `v` through. */
export function validates(s: Schema, v: unknown): boolean {
  if (v === null && s.nullable) return true
  if (s.allOf && !s.allOf.every((a) => validates(a, v))) return false
  if (s.anyOf && !s.anyOf.some((a) => validates(a, v))) return false
  if (s.oneOf && s.oneOf.filter((a) => validates(a, v)).length !== 1) return false
  if (s.enum && !s.enum.some((e) => e === v)) return false
  const types = s.type === undefined ? [] : Array.isArray(s.type) ? s.type : [s.type]
  const t = typeOf(v)
  if (types.length && !types.some((x) => x === t || (x === 'number' && t === 'integer'))) return false
  if (typeof v === 'string') {
    const length = [...v].length
    if (s.minLength !== undefined && length < s.minLength) return false
    if (s.maxLength !== undefined && length > s.maxLength) return false
    if (s.pattern !== undefined && !regex(s.pattern).test(v)) return false
  }
  if (typeof v === 'number') {
    if (s.minimum !== undefined && (s.exclusiveMinimum === true ? v <= s.minimum : v < s.minimum)) return false
    if (s.maximum !== undefined && (s.exclusiveMaximum === true ? v >= s.maximum : v > s.maximum)) return false
    if (typeof s.exclusiveMinimum === 'number' && v <= s.exclusiveMinimum) return false
    if (typeof s.exclusiveMaximum === 'number' && v >= s.exclusiveMaximum) return false
  }
  if (Array.isArray(v)) {
    if (s.minItems !== undefined && v.length < s.minItems) return false
    if (s.maxItems !== undefined && v.length > s.maxItems) return false
    if (s.items && !v.every((x) => validates(s.items!, x))) return false
  }
  if (t === 'object') {
    const o = v as Record<string, unknown>
    if ((s.required ?? []).some((k) => !(k in o))) return false
    for (const [k, x] of Object.entries(o)) {
      const own = s.properties?.[k]
      if (own) {
        if (!validates(own, x)) return false
      } else if (s.additionalProperties === false) return false
      else if (typeof s.additionalProperties === 'object' && !validates(s.additionalProperties, x)) return false
    }
  }
  return true
}

/** A probe of one constraint: a value just outside it (refused) or just inside it (not refused for it). */
export interface Probe {
  constraint: string
  value: unknown
  inside: boolean
}

/** Strings of length `n` made from `near` (padded or cut), or plain ones, for a length probe. */
function ofLength(near: string, n: number): string[] {
  const out: string[] = []
  if (n < 0) return out
  const k = n - near.length
  if (k >= 0) {
    const at = near.indexOf('@')
    for (const ch of ['a', '1', 'A']) out.push(near + ch.repeat(k), ch.repeat(k) + near)
    if (at > 0) out.push(near.slice(0, at) + 'a'.repeat(k) + near.slice(at))
  } else out.push(near.slice(0, n), near.slice(near.length - n), near.slice(0, n - 1) + near.at(-1))
  out.push('Aa1-'.repeat(n).slice(0, n), 'a'.repeat(n), '1'.repeat(n))
  return out.filter((v) => [...v].length === n)
}

/** Changes of a valid string that break one rule or another: a character, a case, a part. */
function mutations(v: string): string[] {
  const out = ['', 'a', ' ', `${v}\u0000`, `${v}\ud800`, `\udc00${v}`, `${v}\u001b`, `${v} `, ` ${v}`, `${v}!`, `${v}~`, `${v}é`, `${v}\\`, `x${v}`]
  out.push(v.slice(1), v.slice(0, -1), v.toLowerCase(), v.toUpperCase(), v.replace(/\d/g, 'a'), v.replace(/[^A-Za-z]/g, 'a'), v.replace(/[a-z]/g, '1'))
  out.push(v.replace('@', ''), v.replace(/\.[^.]*$/, ''), `${v}/..`, `${v}%2e`, v.replace(/^\/app\//, '/ap/'), `${v}.`, `${v}-`, `-${v}`, `${v}..1`)
  return out
}

/**
 * The probes of a field's schema: for each length, range, item count, pattern and enum it states, a
 * value just outside and, where one is, a value just inside. `near` is a value the schema accepts,
 * from which the others are made so that they keep to every other rule of the field.
 */
export function probesOf(s: Schema, near: unknown): { probes: Probe[]; unprobed: string[] } {
  const probes: Probe[] = []
  const unprobed: string[] = []
  const rest = (drop: keyof Schema, pattern?: string): Schema => {
    const { [drop]: _, ...others } = s
    if (pattern === undefined) return others
    return {
      ...others,
      pattern: undefined,
      allOf: patternsOf(s)
        .filter((p) => p !== pattern)
        .map((p) => ({ pattern: p })),
    }
  }
  const pick = (constraint: string, inside: boolean, candidates: unknown[], otherwise: Schema, self: Schema) => {
    const found = candidates.find((c) => validates(otherwise, c) && validates(self, c) === inside)
    if (found !== undefined) return probes.push({ constraint, value: found, inside })
    // a bound another rule makes unreachable (an e-mail of one character) has no value inside; outside,
    // a value that breaks it among other rules is refused all the same
    if (inside) return
    const any = candidates.find((c) => !validates(self, c))
    if (any === undefined) unprobed.push(`${constraint} outside`)
    else probes.push({ constraint, value: any, inside })
  }
  if (s.enum) {
    probes.push({ constraint: 'enum', value: typeof s.enum[0] === 'string' ? 'not-one-of-these' : 987_654, inside: false })
    // inside: the first and the last (each value of a long enum is the same rule)
    for (const e of new Set([s.enum[0], s.enum.at(-1)])) probes.push({ constraint: 'enum', value: e, inside: true })
    return { probes, unprobed }
  }
  const type = Array.isArray(s.type) ? s.type[0] : s.type
  if (type === 'string' && typeof near === 'string') {
    if (s.maxLength !== undefined) {
      pick(`maxLength ${s.maxLength}`, true, ofLength(near, s.maxLength), rest('maxLength'), s)
      pick(`maxLength ${s.maxLength}`, false, ofLength(near, s.maxLength + 1), rest('maxLength'), s)
    }
    if (s.minLength) {
      pick(`minLength ${s.minLength}`, true, ofLength(near, s.minLength), rest('minLength'), s)
      pick(`minLength ${s.minLength}`, false, ofLength(near, s.minLength - 1), rest('minLength'), s)
    }
    for (const p of patternsOf(s)) {
      const others = rest('pattern', p)
      // one that breaks this pattern alone; else one that breaks it among others
      const broken = mutations(near).filter((m) => !regex(p).test(m))
      const alone = broken.find((m) => validates(others, m))
      if (alone !== undefined) probes.push({ constraint: `pattern ${p}`, value: alone, inside: false })
      else if (broken[0] !== undefined) probes.push({ constraint: `pattern ${p}`, value: broken[0], inside: false })
      else unprobed.push(`pattern ${p} outside`)
    }
  }
  if ((type === 'integer' || type === 'number') && typeof near === 'number') {
    const excl = (e: Schema['exclusiveMinimum']) => e === true
    if (s.minimum !== undefined) {
      const inside = excl(s.exclusiveMinimum) ? s.minimum + 1 : s.minimum
      probes.push({ constraint: `minimum ${s.minimum}`, value: inside, inside: true }, { constraint: `minimum ${s.minimum}`, value: inside - 1, inside: false })
    }
    if (s.maximum !== undefined) {
      const inside = excl(s.exclusiveMaximum) ? s.maximum - 1 : s.maximum
      probes.push({ constraint: `maximum ${s.maximum}`, value: inside, inside: true }, { constraint: `maximum ${s.maximum}`, value: inside + 1, inside: false })
    }
    if (type === 'integer') probes.push({ constraint: 'integer', value: near + 0.5, inside: false })
  }
  if (type === 'array' && Array.isArray(near)) {
    const item = near[0]
    if (s.maxItems !== undefined && item !== undefined) {
      probes.push({ constraint: `maxItems ${s.maxItems}`, value: Array(s.maxItems).fill(item), inside: true })
      probes.push({ constraint: `maxItems ${s.maxItems}`, value: Array(s.maxItems + 1).fill(item), inside: false })
    }
    if (s.minItems) {
      if (item !== undefined) probes.push({ constraint: `minItems ${s.minItems}`, value: Array(s.minItems).fill(item), inside: true })
      probes.push({ constraint: `minItems ${s.minItems}`, value: Array(s.minItems - 1).fill(item), inside: false })
    }
  }
  return { probes, unprobed }
}

const LENGTHS = [0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 19, 20, 21, 29, 30, 31, 32, 33, 63, 64, 65, 99, 100, 101, 127, 128, 129, 149, 150, 151]
const LONGER = [199, 200, 201, 255, 256, 257, 299, 300, 301, 499, 500, 501, 998, 999, 1000, 1999, 2000, 2001, 3999, 4000, 4001, 9999, 10_000, 10_001]
const NUMBERS = [-(2 ** 31) - 1, -(2 ** 31), -1, 0, 1, 2, 3, 4, 5, 6, 9, 10, 11, 19, 20, 21, 199, 200, 201, 998, 999, 1000, 1001, 9998, 9999, 10_000]
const BIG_NUMBERS = [
  999_999,
  1_000_000,
  10_000_000,
  10_000_001,
  999_999_999,
  1_000_000_000,
  1_000_000_001,
  2 ** 31 - 1,
  2 ** 31,
  2 ** 53 - 1,
  2 ** 53,
  0.5,
  1.5,
]

/**
 * Values around a field's plausible one for the other direction of the walk: lengths about every
 * limit a field of the API has, numbers about every bound, and the mutations that break formats.
 */
export function candidatesNear(s: Schema, near: unknown): unknown[] {
  const type = Array.isArray(s.type) ? s.type[0] : s.type
  if (Array.isArray(near)) return [[], ...[1, 2, 19, 20, 21, 50].map((k) => Array(k).fill(near[0]))]
  const strings =
    typeof near === 'string'
      ? [
          ...mutations(near),
          ...[...LENGTHS, ...LONGER].flatMap((n) => ofLength(near, n).slice(0, 2)),
          // blanks around: a server that trims counts without them, the document with them
          ...LENGTHS.flatMap((n) => ofLength(near, n).slice(0, 1)).map((v) => ` ${v}  `),
          'not-one-of-these',
        ]
      : ['text']
  const numbers = [...NUMBERS, ...BIG_NUMBERS]
  if (type === 'integer' || type === 'number' || typeof near === 'number') return [...numbers, ...strings.slice(0, 3), null, true]
  if (type === 'boolean') return ['true', 0, null]
  return [...strings, ...numbers.slice(0, 3), null]
}
