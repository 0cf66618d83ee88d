import { afterEach, describe, expect, it, vi } from 'vitest'
import { ReadBatch } from './read-batch.ts'

/** a batcher whose statements the test answers by hand, recording the keys of each */
function manual(opts?: ConstructorParameters<typeof ReadBatch<string, string>>[1]) {
  const statements: { keys: string[]; answer: (rows: (string | null)[]) => void; fail: (err: Error) => void }[] = []
  const readMany = (keys: string[]) =>
    new Promise<(string | null)[]>((answer, fail) => {
      statements.push({ keys, answer, fail })
    })
  return { statements, batch: new ReadBatch(readMany, opts) }
}

/** lets the answered statement's callbacks run (its batch's callers, then the next batch's send) */
const settle = () => new Promise((resolve) => setImmediate(resolve))

/** a, b and c asked for at once: a goes alone and is answered, and b and c go out together as the second statement */
async function secondStatementOut() {
  const { statements, batch } = manual()
  const a = batch.load('a')
  const b = batch.load('b')
  const c = batch.load('c')
  statements[0]!.answer(['row a'])
  await settle()
  return { statements, batch, a, b, c }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('ReadBatch', () => {
  it('sends a lone read at once and answers it', async () => {
    const { statements, batch } = manual()
    const a = batch.load('a')
    expect(statements.map((s) => s.keys)).toEqual([['a']])
    statements[0]!.answer(['row a'])
    await expect(a).resolves.toBe('row a')
  })

  it('holds the reads asked for while a statement is out, and sends them as one when it comes back', async () => {
    const { statements, batch } = manual()
    const a = batch.load('a')
    const rest = ['b', 'c', 'd'].map((k) => batch.load(k))
    expect(statements.map((s) => s.keys)).toEqual([['a']])

    statements[0]!.answer(['row a'])
    await settle()
    await expect(a).resolves.toBe('row a')
    expect(statements.map((s) => s.keys)).toEqual([['a'], ['b', 'c', 'd']])
    // each caller gets the entry of its own key; a key that matched nothing gets null
    statements[1]!.answer(['row b', null, 'row d'])
    await expect(Promise.all(rest)).resolves.toEqual(['row b', null, 'row d'])
  })

  it('gives a failed statement to every caller of its batch, and goes on with the next', async () => {
    const { statements, batch, a, b, c } = await secondStatementOut()
    await expect(a).resolves.toBe('row a')
    statements[1]!.fail(new Error('connection lost'))
    await expect(b).rejects.toThrow('connection lost')
    await expect(c).rejects.toThrow('connection lost')
    await settle()
    const d = batch.load('d')
    expect(statements.at(-1)!.keys).toEqual(['d'])
    statements.at(-1)!.answer(['row d'])
    await expect(d).resolves.toBe('row d')
  })

  it('turns a readMany that throws into each caller’s error', async () => {
    const batch = new ReadBatch<string, string>(() => {
      throw new Error('bad statement')
    })
    await expect(batch.load('a')).rejects.toThrow('bad statement')
    // nothing stays held: the next read is sent (and fails the same way) instead of waiting forever
    await expect(batch.load('b')).rejects.toThrow('bad statement')
  })

  it('sends at most maxKeys keys in one statement', async () => {
    const { statements, batch } = manual({ maxKeys: 2 })
    const all = ['a', 'b', 'c', 'd', 'e'].map((k) => batch.load(k))
    statements[0]!.answer(['A'])
    await settle()
    expect(statements.map((s) => s.keys)).toEqual([['a'], ['b', 'c']])
    statements[1]!.answer(['B', 'C'])
    await settle()
    expect(statements.map((s) => s.keys)).toEqual([['a'], ['b', 'c'], ['d', 'e']])
    statements[2]!.answer(['D', 'E'])
    await expect(Promise.all(all)).resolves.toEqual(['A', 'B', 'C', 'D', 'E'])
  })

  it('lets the next batch go beside a statement out for longer than stallMs', async () => {
    vi.useFakeTimers()
    const { statements, batch } = manual({ stallMs: 1000 })
    const a = batch.load('a')
    const b = batch.load('b')
    await vi.advanceTimersByTimeAsync(999)
    expect(statements).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(statements.map((s) => s.keys)).toEqual([['a'], ['b']])
    statements[1]!.answer(['row b'])
    await expect(b).resolves.toBe('row b')
    // the stalled one still answers its caller when it comes back, and frees no second place: one
    // statement is out again (c), and d waits for it
    statements[0]!.answer(['row a'])
    await expect(a).resolves.toBe('row a')
    await vi.advanceTimersByTimeAsync(0)
    const c = batch.load('c')
    const d = batch.load('d')
    expect(statements.map((s) => s.keys)).toEqual([['a'], ['b'], ['c']])
    statements[2]!.answer(['row c'])
    await expect(c).resolves.toBe('row c')
    await vi.advanceTimersByTimeAsync(0)
    expect(statements.map((s) => s.keys)).toEqual([['a'], ['b'], ['c'], ['d']])
    statements[3]!.answer(['row d'])
    await expect(d).resolves.toBe('row d')
  })

  it('fails the whole batch when readMany answers another number of entries than keys, and goes on', async () => {
    const { statements, batch, a, b, c } = await secondStatementOut()
    // one short: no caller may take a missing row for "nothing matched"
    statements[1]!.answer(['row b'])
    await expect(b).rejects.toThrow('readMany answered 1 entries for 2 keys')
    await expect(c).rejects.toThrow('readMany answered 1 entries for 2 keys')
    await settle()
    const d = batch.load('d')
    statements.at(-1)!.answer(['row d', 'row e'])
    await expect(d).rejects.toThrow('readMany answered 2 entries for 1 keys')
    await settle()
    const e = batch.load('e')
    statements.at(-1)!.answer(['row e'])
    await expect(e).resolves.toBe('row e')
    await expect(a).resolves.toBe('row a')
  })

  it('with maxInFlight 2 sends two statements before it holds reads', async () => {
    const { statements, batch } = manual({ maxInFlight: 2 })
    void batch.load('a')
    void batch.load('b')
    void batch.load('c')
    void batch.load('d')
    expect(statements.map((s) => s.keys)).toEqual([['a'], ['b']])
  })
})
