// The demo page's behaviour. A separate file, not inline script, so the page runs under a
// strict Content-Security-Policy the way a careful site owner's page would.

/** Events the element fires; all bubble and cross its shadow root, so one listener on the document sees every widget. */
const EVENTS = [
  'bot-answer-submit',
  'bot-answer-start',
  'bot-answer-done',
  'bot-answer-error',
  'bot-answer-feedback',
  'bot-answer-source-click',
];
const MAX_LOG_ENTRIES = 50;

/** Questions the sample knowledge base answers well, beyond the ones the inline widget suggests itself. */
const MORE_QUESTIONS = [
  'How many vacation days do I get per year?',
  'How do I roll back a bad production deploy?',
  'How do I configure SAML single sign-on with Okta?',
  'Which laptop do engineers get?',
];

const inline = /** @type {HTMLElement & {ask(message: string): void}} */ (
  document.getElementById('inline-widget')
);
const floating = /** @type {HTMLElement & {show(): void}} */ (document.getElementById('floating-widget'));

showMode();
showSnippet();
showRestyleCss();
listSuggestions();
logEvents();

document.getElementById('open-floating')?.addEventListener('click', () => floating.show());

// Ctrl+K (⌘K on a Mac) opens the floating widget: the page binds the key, the README's recipe.
document.addEventListener('keydown', (e) => {
  if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
    e.preventDefault();
    floating.show();
  }
});

/** Says whether answers come from the embedded local Answer API or a configured upstream. */
async function showMode() {
  const badge = document.getElementById('mode');
  if (!badge) return;
  try {
    const response = await fetch('/demo-info.json');
    if (!response.ok) return;
    const info = await response.json();
    badge.textContent =
      info.mode !== 'demo'
        ? 'Connected to the Answer API configured on the server.'
        : info.answers === 'written'
          ? `Demo mode, written answers: the built-in local Answer API finds the passages, and the model ${info.model} writes each answer from them, citing them (checked by the server). If the model fails, the passages are quoted instead.`
          : 'Demo mode, extractive answers: the built-in local Answer API quotes the passages of its knowledge base that answer. No model, no key, no network.';
    badge.hidden = false;
    const insights = document.getElementById('insights-link');
    if (insights && typeof info.insights === 'string') {
      insights.querySelector('a').href = info.insights;
      insights.hidden = false;
    }
  } catch {
    // The badge is a nicety; without it the page still works.
  }
}

/** The snippet a site owner pastes, pointing at the server this page came from. */
function showSnippet() {
  const origin = location.origin;
  const snippet = [
    `<script type="module" src="${origin}/bot-answer.js"></script>`,
    `<bot-answer bot-id="demo" endpoint="${origin}/api/answer"></bot-answer>`,
  ].join('\n');
  const code = document.getElementById('snippet');
  if (code) code.textContent = snippet;
  const status = document.getElementById('copy-status');
  document.getElementById('copy-snippet')?.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(snippet);
      if (status) status.textContent = 'Copied to the clipboard.';
    } catch {
      if (status) status.textContent = 'Copying was blocked by the browser: select the snippet and copy it by hand.';
    }
  });
}

/** Shows the stylesheet behind the restyled widget, read from the file the page really uses. */
async function showRestyleCss() {
  const code = document.getElementById('restyle-css');
  if (!code) return;
  try {
    // Accept: text/css makes Vite's dev server send the file itself rather than a module that injects it.
    const response = await fetch('/restyled.css', { headers: { accept: 'text/css' } });
    if (response.ok) code.textContent = (await response.text()).trim();
  } catch {
    code.textContent = '/* restyled.css could not be loaded */';
  }
}

/** More questions beside the inline widget, asked through its public `ask()` method. */
function listSuggestions() {
  const list = document.getElementById('suggestions');
  if (!list) return;
  for (const question of MORE_QUESTIONS) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = question;
    button.addEventListener('click', () => {
      inline.ask(question);
      inline.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
    });
    const item = document.createElement('li');
    item.append(button);
    list.append(item);
  }
}

/** Shows every widget event in the log panel: what fired, on which widget, and a summary of its detail. */
function logEvents() {
  const log = document.getElementById('event-log');
  if (!log) return;
  document.getElementById('clear-log')?.addEventListener('click', () => log.replaceChildren());
  for (const name of EVENTS) {
    document.addEventListener(name, (event) => {
      const item = document.createElement('li');
      const label = document.createElement('span');
      label.className = 'event-name';
      label.dataset.kind = name.replace('bot-answer-', '');
      label.textContent = name;
      const where = document.createElement('span');
      where.className = 'event-source';
      const target = /** @type {Element} */ (event.target);
      where.textContent = ` on #${target.id || target.localName} at ${new Date().toLocaleTimeString()}`;
      const detail = document.createElement('span');
      detail.className = 'event-detail';
      detail.textContent = summarise(/** @type {CustomEvent} */ (event).detail);
      item.append(label, where, detail);
      log.prepend(item);
      while (log.childElementCount > MAX_LOG_ENTRIES) log.lastElementChild?.remove();
    });
  }
}

/**
 * A short, readable summary of an event's detail: long strings are cut, a source shown by its
 * title and a list of sources by its length, so each entry fits in a few lines.
 * @param {unknown} detail
 */
function summarise(detail) {
  if (detail === undefined || detail === null) return '';
  const text = JSON.stringify(detail, (key, value) => {
    if (key === 'sources' && Array.isArray(value)) return `[${value.length} source${value.length === 1 ? '' : 's'}]`;
    if (key === 'source' && value && typeof value === 'object') return value.title ?? value.url ?? '(untitled)';
    if (typeof value === 'string' && value.length > 60) return `${value.slice(0, 57)}…`;
    return value;
  });
  return text === undefined ? String(detail) : text.length > 240 ? `${text.slice(0, 237)}…` : text;
}
