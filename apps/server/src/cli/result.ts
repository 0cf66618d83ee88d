/** What every CLI command answers: the exit code and the text to print. */
export interface CommandResult {
  code: number
  output: string
}

// eslint-disable-next-line no-control-regex -- the control characters are what it finds
const UNPRINTABLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

/**
 * Text from customers (comments, titles, e-mails), made safe to print in a terminal: a control
 * character (an ANSI escape above all), DEL, a C1 control or a bidirectional override is shown as
 * its code, `\u{1b}`, and never acts on the terminal. Rows written before the API refused them may
 * still hold such characters. With `oneLine`, tabs and line breaks become spaces too, so an entry
 * stays one row of its table.
 */
export function terminalSafe(value: string, opts: { oneLine?: boolean } = {}): string {
  const flat = opts.oneLine ? value.replace(/[\t\r\n]+/g, ' ') : value
  return flat.replace(UNPRINTABLE, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`)
}
