import { useId, useState, type DragEvent } from 'react'
import { Button, Stack, Text } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { ERRORS, REQUEST_FILE_MAX_BYTES, parseRequestFile, type ActivationRequest } from '@portal/domain'
import classes from './request-file.module.css'

export interface ChosenRequest {
  name: string
  text: string
  request: ActivationRequest
}

/** The server's own words for a file that is not a request file: one rule, one message. */
export const INVALID_REQUEST_FILE = ERRORS.invalid_license_file.message
export const NO_REQUEST_FILE = 'Choose the activation request file made on the device first.'

/**
 * Reads and checks a chosen file with the parser the server uses, so a wrong file is refused here,
 * before any warning, with the same rule and words as the server.
 */
export async function readRequestFile(files: readonly File[]): Promise<{ ok: ChosenRequest } | { error: string }> {
  if (files.length !== 1) return { error: 'Choose one request file at a time.' }
  const file = files[0]!
  if (file.size > REQUEST_FILE_MAX_BYTES) return { error: INVALID_REQUEST_FILE }
  let text: string
  try {
    text = await readText(file)
  } catch {
    return { error: 'The request file could not be read. Choose it again.' }
  }
  const request = parseRequestFile(text)
  return request ? { ok: { name: file.name, text, request } } : { error: INVALID_REQUEST_FILE }
}

/** FileReader rather than Blob.text(): the same in every browser and in the component tests. */
const readText = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result))
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'))
    reader.readAsText(file)
  })

/**
 * A drop zone on a native file input: the input stays in the tab order (visually hidden) and its
 * visible label is the "Choose a request file" button, so Tab, Enter and Space work as for any
 * file field; dropping a file is the mouse's shortcut to the same check.
 */
export function RequestFilePicker({
  chosen,
  error,
  disabled,
  onChosen,
  onError,
}: {
  chosen: ChosenRequest | null
  error: string | null
  disabled: boolean
  onChosen: (c: ChosenRequest | null) => void
  onError: (message: string | null) => void
}) {
  const { t } = useTranslation()
  const id = useId()
  const [dragging, setDragging] = useState(false)
  const take = async (files: readonly File[]) => {
    onError(null)
    const result = await readRequestFile(files)
    if ('ok' in result) onChosen(result.ok)
    else {
      onChosen(null)
      onError(result.error)
    }
  }
  const over = (e: DragEvent) => {
    e.preventDefault()
    if (!disabled) setDragging(true)
  }
  const drop = (e: DragEvent) => {
    e.preventDefault()
    setDragging(false)
    if (!disabled) void take([...e.dataTransfer.files])
  }
  const described = [`${id}-hint`, chosen ? `${id}-chosen` : null, error ? `${id}-error` : null].filter(Boolean).join(' ')
  return (
    <div
      className={classes.zone}
      data-dragging={dragging || undefined}
      data-invalid={error ? true : undefined}
      data-disabled={disabled || undefined}
      data-testid="request-file-zone"
      role="group"
      aria-labelledby={`${id}-title`}
      onDragEnter={over}
      onDragOver={over}
      onDragLeave={() => setDragging(false)}
      onDrop={drop}
    >
      <Stack gap={6} align="center">
        <Text fw={600} id={`${id}-title`}>
          {t('Activation request file')}
        </Text>
        <Text size="sm" c="dimmed" id={`${id}-hint`} ta="center">
          {t('Drag the request file made on the device here, or choose it. It is a short text file that starts with “3DIVI-LICENSE-REQUEST”.')}
        </Text>
        <input
          id={`${id}-input`}
          className={classes.input}
          type="file"
          accept=".txt,text/plain"
          disabled={disabled}
          aria-describedby={described}
          aria-invalid={error ? true : undefined}
          onChange={(e) => {
            const files = [...(e.currentTarget.files ?? [])]
            // the same file chosen again must still fire a change
            e.currentTarget.value = ''
            void take(files)
          }}
        />
        <Button component="label" htmlFor={`${id}-input`} variant="light" className={classes.label} data-disabled={disabled || undefined}>
          {chosen ? t('Choose another request file') : t('Choose a request file')}
        </Button>
        {chosen && (
          <Text size="sm" id={`${id}-chosen`} data-testid="request-file-chosen" ta="center">
            {t('{{name}}: device {{serial}}', { name: chosen.name, serial: chosen.request.serial })}
            {chosen.request.sensor_name ? ` (${chosen.request.sensor_name})` : ''}
          </Text>
        )}
        {error && (
          <Text size="sm" c="red.8" id={`${id}-error`} role="alert" ta="center">
            {t(error)}
          </Text>
        )}
      </Stack>
    </div>
  )
}
