/** What every CLI command answers: the exit code and the text to print. */
export interface CommandResult {
  code: number
  output: string
}
