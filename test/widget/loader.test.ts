import { aTimeout, expect, waitUntil } from '@open-wc/testing';
import { resetMouse, sendKeys, sendMouse } from '@web/test-runner-commands';
import type { BotAnswer } from '../../packages/bot-answer/src/widget/index.js';
import { framePage, type FramePage } from './frame-page.js';
import { bot, count } from './stub.js';

/**
 * The element as a page first gets it: the loader alone, fetching its box and its chat when a visitor
 * shows intent. Each test loads a fresh page in an iframe (its own module map: nothing loaded yet), from
 * the sources, and reads the page's own resource timing to see which files it fetched.
 */

type Page = FramePage & { fetched(part: 'box' | 'chat'): number };

async function page(body: string, head = ''): Promise<Page> {
  const p = await framePage(body, { head });
  const fetched = (part: 'box' | 'chat') =>
    p.w.performance.getEntriesByType('resource').filter((e) => e.name.includes(`/src/widget/${part}/index.ts`)).length;
  return { ...p, fetched };
}

const floating = (id = bot('ok')) => `<bot-answer bot-id="${id}" endpoint="/stub/answer" mode="floating" suggestions='["How?"]'></bot-answer>`;
const inline = (id = bot('ok')) => `<bot-answer bot-id="${id}" endpoint="/stub/answer" suggestions='["How?"]'></bot-answer>`;
const part = (p: Page, name: string) => p.el.shadowRoot!.querySelector<HTMLElement>(`[part~=${name}]`)!;
type Held = Page & { w: { release: Record<'box' | 'chat', () => void>; asked: Partial<Record<'box' | 'chat', true>>; focusAtChat?: string } };

/**
 * A floating box whose files are held back (a slow network) until the test releases each: the real loader, box
 * and chat, registered again by a script after the element's (whose loaders it replaces).
 */
const heldPage = () =>
  page(
    floating() +
      `<script type="module">
        import { register } from '/packages/bot-answer/src/widget/register.ts';
        const release = (window.release = {});
        const asked = (window.asked = {});
        const held = (stage, file) => {
          const gate = new Promise((r) => (release[stage] = r));
          return () => {
            asked[stage] = true;
            if (stage == 'chat') window.focusAtChat = document.querySelector('bot-answer').shadowRoot.activeElement?.localName;
            return gate.then(() => import(file));
          };
        };
        register({ box: held('box', '/packages/bot-answer/src/widget/box/index.ts'), chat: held('chat', '/packages/bot-answer/src/widget/chat/index.ts') });
      </script>`,
  ) as Promise<Held>;

/** The centre of `target` in the top page's coordinates (for the mouse). */
const centre = (p: Page, target: Element): [number, number] => {
  const frame = p.frame.getBoundingClientRect();
  const r = target.getBoundingClientRect();
  return [Math.round(frame.x + r.x + r.width / 2), Math.round(frame.y + r.y + r.height / 2)];
};
/** Waits until the page has fetched the chat (and its box), and the element has attached it. */
const chatHere = async (p: Page) => {
  await waitUntil(() => p.fetched('chat') == 1 && p.fetched('box') == 1, 'the box and the chat fetched', { timeout: 8000 });
  expect(await p.el.load()).to.equal(true);
};

describe('<bot-answer> loader', () => {
  afterEach(async () => {
    document.querySelectorAll('iframe').forEach((f) => f.remove());
    // A test that failed with the button down would hold up every later one.
    await resetMouse();
  });

  it('draws the floating launcher at once, fetches the box when the page is idle without drawing it, and the chat only on intent', async () => {
    const p = await page(
      floating(),
      '<style>bot-answer{--bot-answer-accent:rgb(1, 2, 3)}bot-answer::part(launcher){bottom:80px}</style>',
    );
    const launcher = part(p, 'launcher');
    expect(launcher.textContent).to.equal('Ask');
    expect(launcher.getAttribute('aria-haspopup')).to.equal('dialog');
    const style = p.w.getComputedStyle(launcher);
    expect([style.position, style.bottom, style.backgroundColor]).to.deep.equal(['fixed', '80px', 'rgb(1, 2, 3)']);
    // Properties, attributes and their reflection work before the chat is here.
    expect(p.el.suggestions).to.deep.equal(['How?']);
    p.el.theme = 'dark';
    p.el.strings = { open: 'Help' };
    await p.el.updateComplete;
    expect([p.el.getAttribute('theme'), launcher.textContent, p.el.state]).to.deep.equal(['dark', 'Help', 'idle']);
    await waitUntil(() => p.fetched('box') == 1, 'the box fetched once the page is idle');
    await aTimeout(300);
    // Fetched, not drawn: the shadow root holds the launcher alone, styled by the loader's sheet alone.
    expect([p.fetched('box'), p.fetched('chat')]).to.deep.equal([1, 0]);
    expect([p.el.shadowRoot!.children.length, p.el.shadowRoot!.adoptedStyleSheets.length]).to.deep.equal([1, 1]);
  });

  it('draws an inline box at once (its box fetched, not the chat), and keeps properties set before it was defined', async () => {
    const p = await page(
      `<bot-answer id="w" endpoint="/stub/answer"></bot-answer><script>
        const el = document.getElementById('w');
        el.botId = 'early';
        el.suggestions = ['Early?'];
      </script>`,
    );
    expect(p.el.botId).to.equal('early');
    expect([...p.el.shadowRoot!.querySelectorAll('[part=suggestion]')].map((b) => b.textContent)).to.deep.equal(['Early?']);
    expect(part(p, 'input').getAttribute('placeholder')).to.equal('Ask a question…');
    await aTimeout(300);
    expect([p.fetched('box'), p.fetched('chat')]).to.deep.equal([1, 0]);
  });

  it('on a closed launcher, a pointer over it, keyboard focus or a finger brings the box alone: the chat waits for the dialog', async () => {
    const p = await page(floating());
    const launcher = part(p, 'launcher');
    await sendMouse({ type: 'move', position: centre(p, launcher) });
    launcher.focus();
    launcher.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, composed: true, pointerType: 'touch' }));
    await waitUntil(() => p.fetched('box') == 1, 'the box fetched');
    await aTimeout(300);
    expect([p.fetched('chat'), p.el.open]).to.deep.equal([0, false]);
    await sendMouse({ type: 'move', position: [0, 0] });
  });

  it('a press opens the box with its field focused first, and the chat is asked for only then', async () => {
    const p = await heldPage();
    p.w.release.box();
    await waitUntil(() => p.w.asked.box, 'the box asked for once the page is idle');
    await sendMouse({ type: 'move', position: centre(p, part(p, 'launcher')) });
    await aTimeout(300);
    expect(p.w.asked.chat, 'not on the pointer over the launcher').to.equal(undefined);
    await sendMouse({ type: 'down' });
    await sendMouse({ type: 'up' });
    await waitUntil(() => p.w.asked.chat, 'the chat asked for once the dialog opened');
    // What had focus when the chat was asked for: the open dialog's question field.
    expect(p.w.focusAtChat).to.equal('textarea');
    p.w.release.chat();
    expect(await p.el.load()).to.equal(true);
  });

  const intents: [string, (p: Page) => unknown][] = [
    ['show()', (p) => p.el.show()],
    ['load()', (p) => p.el.load()],
    ['ask()', (p) => p.el.ask('How?')],
  ];
  for (const [intent, act] of intents) {
    it(`loads the chat on ${intent}`, async () => {
      const p = await page(floating());
      await aTimeout(100);
      expect(p.fetched('chat')).to.equal(0);
      act(p);
      await chatHere(p);
    });
  }

  it('a press whose box arrives before the button is released still opens it: the launcher keeps its place and focus', async () => {
    const p = await heldPage();
    const launcher = part(p, 'launcher');
    await sendMouse({ type: 'move', position: centre(p, launcher) });
    await sendMouse({ type: 'down' });
    await waitUntil(() => p.w.asked.box, 'the box asked for');
    expect(p.el.shadowRoot!.activeElement, 'the press focused the launcher').to.equal(launcher);
    p.w.release.box();
    await waitUntil(() => p.el.shadowRoot!.querySelector('dialog'), 'the box arrived while the button is held');
    expect(p.el.shadowRoot!.activeElement, 'the launcher keeps the focus').to.equal(launcher);
    await sendMouse({ type: 'up' });
    await waitUntil(() => p.el.open && p.el.shadowRoot!.activeElement == part(p, 'input'), 'the click opened the dialog, its field focused');
  });

  it('the field keeps every character typed from the moment it has focus, while the chat is still on its way', async () => {
    const p = await heldPage();
    p.w.release.box();
    await sendMouse({ type: 'move', position: centre(p, part(p, 'launcher')) });
    await sendMouse({ type: 'down' });
    await sendMouse({ type: 'up' });
    await resetMouse();
    await waitUntil(() => p.el.shadowRoot!.activeElement == part(p, 'input'), 'the field has focus', { timeout: 8000 });
    await sendKeys({ type: 'How do I' });
    const input = part(p, 'input') as HTMLTextAreaElement;
    expect(input.value).to.equal('How do I');
    await waitUntil(() => p.w.asked.chat, 'the chat asked for, once the box was drawn');
    p.w.release.chat();
    // Typed while the chat arrives and runs.
    await sendKeys({ type: ' rotate keys?' });
    expect(await p.el.load()).to.equal(true);
    await sendKeys({ type: '!' });
    expect(input.value).to.equal('How do I rotate keys?!');
    expect([p.el.shadowRoot!.activeElement == input, input.selectionStart]).to.deep.equal([true, input.value.length]);
    expect(p.fetched('chat'), 'the chat came').to.equal(1);
  });

  it('inline: loads the chat when the question field gets focus, or a pointer is over a suggestion', async () => {
    const a = await page(inline());
    part(a, 'input').focus();
    await chatHere(a);
    const b = await page(inline());
    part(b, 'suggestion').dispatchEvent(new PointerEvent('pointerover', { bubbles: true, composed: true }));
    await chatHere(b);
  });

  it('show() opens the box at once and focuses its question field; ask() fires bot-answer-submit at once and sends once the chat is here', async () => {
    const p = await page(floating());
    await p.el.show();
    expect((p.el.shadowRoot!.querySelector('dialog') as HTMLDialogElement).open).to.equal(true);
    expect(p.el.shadowRoot!.activeElement).to.equal(part(p, 'input'));
    p.el.hide();

    const q = await page(floating());
    const log: string[] = [];
    for (const name of ['bot-answer-submit', 'bot-answer-start', 'bot-answer-done']) q.el.addEventListener(name, (e) => log.push(e.type));
    q.el.addEventListener('bot-answer-submit', (e) => (e as CustomEvent).detail.message == 'No' && e.preventDefault());
    expect(q.el.ask('No')).to.equal(false);
    expect(q.el.ask('  Where?  ')).to.equal(true);
    // Announced now; sent once the chat has loaded.
    expect(log).to.deep.equal(['bot-answer-submit', 'bot-answer-submit']);
    expect(q.el.state).to.equal('answering');
    await waitUntil(() => q.el.state == 'done', 'answered', { timeout: 8000 });
    expect(log).to.deep.equal(['bot-answer-submit', 'bot-answer-submit', 'bot-answer-start', 'bot-answer-done']);
    expect(q.el.shadowRoot!.querySelector('[part~=question]')!.textContent).to.equal('Where?');
    expect(await count(q.el.botId)).to.equal(1);
  });

  it('stop() before the chat is here drops the waiting question: nothing is sent', async () => {
    const id = bot('ok');
    const p = await page(floating(id));
    p.el.ask('Q');
    p.el.stop();
    expect(p.el.state).to.equal('idle');
    expect(await p.el.load()).to.equal(true);
    await aTimeout(200);
    expect([p.el.state, await count(id)]).to.deep.equal(['idle', 0]);
  });

  it('a thread kept with persist is restored on load, without intent; clear() before the chat forgets it', async () => {
    const id = bot('ok');
    const turn = { q: 'Kept?', a: 'Yes, **kept**.', sources: [], state: 'done' };
    sessionStorage.setItem('bot-answer:' + id, JSON.stringify([turn]));
    const p = await page(`<bot-answer bot-id="${id}" endpoint="/stub/answer" mode="floating" persist></bot-answer>`);
    await waitUntil(() => p.el.state == 'done', 'restored', { timeout: 8000 });
    await p.el.updateComplete;
    expect(part(p, 'question').textContent).to.equal('Kept?');
    expect(part(p, 'answer').querySelector('strong')!.textContent).to.equal('kept');

    const other = bot('ok');
    sessionStorage.setItem('bot-answer:' + other, JSON.stringify([turn]));
    const q = await page(`<bot-answer bot-id="${other}" endpoint="/stub/answer" persist></bot-answer>`);
    q.el.clear();
    expect(sessionStorage.getItem('bot-answer:' + other)).to.equal(null);
    await q.el.load();
    expect([q.el.state, q.el.shadowRoot!.querySelectorAll('article').length]).to.deep.equal(['idle', 0]);
  });

  it('two boxes and a second copy of the script: each file fetched once, the element defined once', async () => {
    const p = await page(floating() + inline() + '<script type="module" src="/packages/bot-answer/src/widget/index.ts?copy"></script>');
    const [a, b] = [...p.doc.querySelectorAll('bot-answer')] as BotAnswer[];
    // The second copy ran, and defined nothing: the class is the first copy's.
    await waitUntil(() => p.w.performance.getEntriesByType('resource').some((e) => e.name.endsWith('index.ts?copy')), 'second copy loaded');
    await aTimeout(100);
    expect(p.w.customElements.get('bot-answer')).to.equal(a.constructor);
    a.ask('One?');
    b.ask('Two?');
    await waitUntil(() => a.state == 'done' && b.state == 'done', 'both answered', { timeout: 8000 });
    expect([p.fetched('box'), p.fetched('chat')]).to.deep.equal([1, 1]);
  });
});
