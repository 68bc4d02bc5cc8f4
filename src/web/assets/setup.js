// The setup page: an MCP client sent the person here (URL-mode elicitation)
// to type a skill's missing secrets. The request id is the page's fragment,
// so it never reaches a server log or a Referer; the values are posted once
// to /api/v1/setup/<id> and never shown again.
const $ = (selector) => document.querySelector(selector);

function element(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === 'text') node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

function showError(message) {
  const error = $('#setup-error');
  error.textContent = message;
  error.hidden = !message;
}

async function call(method, id, body) {
  const response = await fetch(`/api/v1/setup/${encodeURIComponent(id)}`, {
    method,
    headers: body ? { 'Content-Type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
    credentials: 'omit',
    cache: 'no-store',
  });
  let answer = {};
  try {
    answer = await response.json();
  } catch {
    answer = { success: false, error: `The server answered ${response.status}.` };
  }
  return answer;
}

// A help link only when it is an http(s) URL: a skill's frontmatter is not trusted.
function helpLink(help) {
  try {
    const url = new URL(help);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    return element('a', { href: url.href, target: '_blank', rel: 'noopener noreferrer', text: 'Where to find it' });
  } catch {
    return null;
  }
}

function field(variable, index) {
  const id = `value-${index}`;
  const hint = element('p', { class: 'hint', id: `${id}-hint`, text: variable.prompt });
  const link = variable.help ? helpLink(variable.help) : null;
  if (link) hint.append(' ', link);
  const input = element('input', {
    id, name: variable.name, type: 'password', autocomplete: 'off', spellcheck: 'false',
    'aria-describedby': `${id}-hint`,
  });
  return element('div', { class: 'field setup-field' }, [
    element('label', { for: id, text: variable.name }),
    input,
    hint,
  ]);
}

async function start() {
  const id = location.hash.slice(1);
  if (!/^[0-9a-f]{64}$/.test(id)) {
    $('#setup-lead').textContent = 'This link is incomplete. Open it again from your agent.';
    return;
  }
  const request = await call('GET', id);
  if (!request.success) {
    $('#setup-lead').textContent = request.error || 'This setup link cannot be used.';
    return;
  }
  document.title = `Set up ${request.skill} · skillrt`;
  $('#setup-heading').textContent = `Set up ${request.skill}`;
  const count = request.variables.length;
  $('#setup-lead').replaceChildren('The skill ', element('strong', { text: request.skill }),
    ` needs ${count === 1 ? 'a value' : `${count} values`} before your agent can use it.`);
  $('#setup-fields').replaceChildren(...request.variables.map(field));
  $('#setup-submit').hidden = false;
  $('#setup-privacy').hidden = false;
  document.querySelector('#setup-fields input')?.focus();

  $('#setup-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const values = {};
    for (const input of document.querySelectorAll('#setup-fields input')) {
      input.setAttribute('aria-invalid', 'false');
      if (input.value !== '') values[input.name] = input.value;
    }
    if (Object.keys(values).length === 0) {
      const first = document.querySelector('#setup-fields input');
      first.setAttribute('aria-invalid', 'true');
      first.focus();
      showError('Enter at least one value.');
      return;
    }
    const button = $('#setup-submit');
    button.disabled = true;
    button.textContent = 'Saving…';
    const answer = await call('POST', id, { values });
    button.disabled = false;
    button.textContent = 'Save';
    if (!answer.success) {
      showError(answer.error || 'The values were not saved.');
      return;
    }
    showError('');
    for (const input of document.querySelectorAll('#setup-fields input')) input.value = '';
    $('#setup-fields').hidden = true;
    button.hidden = true;
    $('#setup-lead').textContent = `Saved ${answer.stored.join(', ')}.`;
    $('#setup-privacy').hidden = true;
    const done = $('#setup-done');
    done.textContent = answer.message;
    done.hidden = false;
    done.focus?.();
  });
}

// Another link pasted into this tab: start over with its id.
window.addEventListener('hashchange', () => location.reload());
start();
