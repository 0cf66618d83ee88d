/* global document, window, fetch */
// The sandbox checkout's buttons: each POSTs its call (with the portal's CSRF header) and follows
// the redirect_url it answers. Served as a file: the portal's CSP allows no inline script.
const actions = document.querySelector('.actions[data-session]')
const statusLine = document.querySelector('.status')

function cookie(name) {
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=')
    if (key === name) return decodeURIComponent(rest.join('='))
  }
  return ''
}

function setBusy(busy) {
  for (const button of actions.querySelectorAll('button')) button.disabled = busy
  actions.setAttribute('aria-busy', String(busy))
}

async function act(action) {
  const id = encodeURIComponent(actions.dataset.session)
  const url = `/api/sandbox/checkout/${id}/${action === 'cancel' ? 'cancel' : 'pay'}/`
  const headers = { [actions.dataset.csrfHeader]: cookie(actions.dataset.csrfCookie) }
  const init = { method: 'POST', headers, credentials: 'same-origin' }
  if (action !== 'cancel') {
    headers['content-type'] = 'application/json'
    init.body = JSON.stringify({ outcome: action === 'decline' ? 'decline' : 'pay' })
  }
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
  for (const button of actions.querySelectorAll('button[data-action]')) {
    button.addEventListener('click', () => void act(button.dataset.action))
  }
}
