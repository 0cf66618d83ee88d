/* global document, window, fetch */
// The sandbox checkout's buttons: each POSTs its call (with the portal's CSRF header) and follows
// the redirect_url it answers. Served as a file: the portal's CSP allows no inline script.
// Pay is the form's submit button, so Enter in the card number field pays too.
const actions = document.querySelector('.actions[data-session]')
const statusLine = document.querySelector('.status')
const form = document.querySelector('.pay-form')
const cardInput = document.querySelector('#card-number')
const cardError = document.querySelector('#card-error')

function cookie(name) {
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=')
    if (key === name) return decodeURIComponent(rest.join('='))
  }
  return ''
}

function setBusy(busy) {
  for (const button of actions.querySelectorAll('button')) button.disabled = busy
  if (cardInput) cardInput.readOnly = busy
  actions.setAttribute('aria-busy', String(busy))
}

/** the error next to the card number field ('' clears it) */
function setCardError(text) {
  if (!cardInput || !cardError) return false
  cardError.textContent = text
  if (text) cardInput.setAttribute('aria-invalid', 'true')
  else cardInput.removeAttribute('aria-invalid')
  return true
}

async function act(action) {
  const id = encodeURIComponent(actions.dataset.session)
  const url = `/api/sandbox/checkout/${id}/${action === 'cancel' ? 'cancel' : 'pay'}/`
  const headers = { [actions.dataset.csrfHeader]: cookie(actions.dataset.csrfCookie) }
  const init = { method: 'POST', headers, credentials: 'same-origin' }
  if (action !== 'cancel') {
    headers['content-type'] = 'application/json'
    const body = { outcome: action === 'decline' ? 'decline' : action === 'pending' ? 'pending' : 'pay' }
    if ((action === 'pay' || action === 'pending') && cardInput) body.card_number = cardInput.value
    init.body = JSON.stringify(body)
  }
  setCardError('')
  setBusy(true)
  statusLine.textContent = action === 'cancel' ? 'Cancelling…' : 'Processing the payment…'
  try {
    const res = await fetch(url, init)
    const answer = await res.json().catch(() => ({}))
    if (res.ok && typeof answer.redirect_url === 'string') {
      statusLine.textContent = 'Returning to the portal…'
      window.location.assign(answer.redirect_url)
      return
    }
    if (answer.field === 'card_number' && setCardError(answer.error || 'This card number is not a sandbox test card.')) {
      statusLine.textContent = ''
      setBusy(false)
      cardInput.focus()
      return
    }
    statusLine.textContent = answer.error || `The sandbox answered ${res.status}.`
    // a closed checkout stays closed: reload to show what became of it
    if (res.status === 409 || res.status === 404) window.setTimeout(() => window.location.reload(), 1500)
    else setBusy(false)
  } catch {
    statusLine.textContent = 'Network error. Please try again.'
    setBusy(false)
  }
}

if (actions && statusLine) {
  if (form) {
    form.addEventListener('submit', (event) => {
      event.preventDefault()
      void act('pay')
    })
  }
  for (const button of actions.querySelectorAll('button[data-action]')) {
    if (button.type === 'submit') continue
    button.addEventListener('click', () => void act(button.dataset.action))
  }
  // the page arrives with its buttons disabled: a click before this script ran would do nothing
  setBusy(false)
}
