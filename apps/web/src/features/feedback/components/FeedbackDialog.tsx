import { useState } from 'react'
import { Alert, Button, Group, Modal, Stack, Text, Textarea, UnstyledButton } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { useLocation } from 'react-router'
import { FEEDBACK_COMMENT_MAX, FEEDBACK_EMOTIONS, feedbackBody, isError } from '@portal/domain'
import { useSchemaForm } from '../../../lib/use-schema-form.ts'
import { useSendFeedback } from '../api/send-feedback.ts'
import classes from './feedback.module.css'
import { EmotionFace } from './EmotionFace.tsx'

/**
 * The feedback dialog (spec sections 2, 3, 5): five emotions scored 1 to 5, an optional comment of at
 * most 500 characters; an emotion is required.
 */
export function FeedbackDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation()
  return (
    <Modal opened={opened} onClose={onClose} title={t('How do you like the portal?')} centered>
      {/* a fresh form each time the widget opens */}
      {opened && <FeedbackForm onDone={onClose} />}
    </Modal>
  )
}

function FeedbackForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation()
  const { pathname } = useLocation()
  const send = useSendFeedback()
  const form = useSchemaForm(feedbackBody, { score: null as number | null, comment: '' })
  const { score, comment } = form.values
  const [sent, setSent] = useState(false)
  // the emotions only offer valid scores: the one failure of the choice is that none is made
  const error = form.errors.score ? t('feedback_emotion_required') : form.formError

  const choose = (value: number) => form.setFieldValue('score', value)
  /** the radio group's keys: arrows choose the previous or next emotion and move the focus to it */
  const arrows = (e: React.KeyboardEvent<HTMLDivElement>) => {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key]
    if (!step) return
    e.preventDefault()
    const scores = FEEDBACK_EMOTIONS.map((x) => x.score)
    const at = score === null ? (step > 0 ? -1 : scores.length) : scores.indexOf(score as (typeof scores)[number])
    const next = scores[(at + step + scores.length) % scores.length]!
    choose(next)
    e.currentTarget.querySelectorAll<HTMLElement>('[role="radio"]')[scores.indexOf(next)]?.focus()
  }

  const submit = form.submit(async (body) => {
    try {
      await send.mutateAsync({ ...body, comment: body.comment.trim(), page: pathname })
      setSent(true)
    } catch (err) {
      form.setFormError(
        isError(err, 'rate_limited')
          ? t('You have sent a lot of feedback lately. Please try again in an hour.')
          : t('Your feedback could not be sent. Please try again.'),
      )
    }
  })

  if (sent) {
    return (
      <Stack>
        <Text>{t('Thank you! Your feedback helps us make the portal better.')}</Text>
        <Group justify="flex-end">
          <Button onClick={onDone} data-autofocus>
            {t('Done')}
          </Button>
        </Group>
      </Stack>
    )
  }
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <div role="radiogroup" aria-labelledby="feedback-emotions" aria-describedby={error ? 'feedback-error' : undefined} onKeyDown={arrows}>
          <Text id="feedback-emotions" size="sm" fw={500} mb={6}>
            {t('Your impression')}{' '}
            <Text span c="red.8" aria-hidden>
              *
            </Text>
          </Text>
          <Group gap="xs" justify="space-between" wrap="nowrap">
            {FEEDBACK_EMOTIONS.map((emotion) => (
              <UnstyledButton
                key={emotion.name}
                role="radio"
                aria-checked={score === emotion.score}
                // one tab stop for the group (the chosen emotion, else the first); arrows move within it
                tabIndex={(score ?? FEEDBACK_EMOTIONS[0].score) === emotion.score ? 0 : -1}
                aria-label={t(emotion.label)}
                className={classes.emotion}
                data-checked={score === emotion.score || undefined}
                onClick={() => choose(emotion.score)}
              >
                <EmotionFace emotion={emotion.name} className={classes.symbol} />
                <Text span size="xs">
                  {t(emotion.label)}
                </Text>
              </UnstyledButton>
            ))}
          </Group>
        </div>
        {/* next to the choice it is about, not below the comment */}
        {error && (
          <Alert color="red" id="feedback-error" role="alert" p="xs">
            {error}
          </Alert>
        )}
        <Textarea
          label={t('Comment (optional)')}
          autosize
          minRows={3}
          maxRows={8}
          maxLength={FEEDBACK_COMMENT_MAX}
          {...form.getInputProps('comment')}
          description={t('{{n}} of {{max}} characters', { n: comment.length, max: FEEDBACK_COMMENT_MAX })}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('Cancel')}
          </Button>
          <Button type="submit" loading={form.submitting}>
            {t('Send feedback')}
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
