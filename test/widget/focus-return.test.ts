import { expect, waitUntil } from '@open-wc/testing';
import { executeServerCommand, sendKeys, setViewport } from '@web/test-runner-commands';
import { framePage, type FramePage } from './frame-page.js';
import { bot } from './stub.js';

/**
 * Focus after the floating dialog closes, on a phone: a finger's tap with Chromium's touch emulation, in a
 * fresh page in an iframe (nothing of the element loaded yet), so the tap both loads the box and opens it,
 * as for a visitor (nothing hovers first). Other screens and openers: floating.test.ts.
 */

type Page = FramePage;

const page = (width: number, height: number, body: string): Promise<Page> =>
  framePage(body, { css: `width:${width}px;height:${height}px;border:0;display:block;position:fixed;top:0;left:0` });

/** The centre of `target` in the top page's coordinates. */
function centre(p: Page, target: Element): { x: number; y: number } {
  const frame = p.frame.getBoundingClientRect();
  const box = target.getBoundingClientRect();
  return { x: Math.round(frame.x + box.x + box.width / 2), y: Math.round(frame.y + box.y + box.height / 2) };
}

/** The element focused in the page, looking into the element's shadow root. */
const focused = (p: Page) => (p.doc.activeElement == p.el ? p.el.shadowRoot!.activeElement : p.doc.activeElement);

const floating = () => `<p>Page</p><bot-answer bot-id="${bot('ok')}" endpoint="/stub/answer" mode="floating"></bot-answer>`;

describe('<bot-answer mode="floating"> on a phone', () => {
  after(() => setViewport({ width: 800, height: 600 }));

  it("at 375 px with touch emulation: a finger's tap on the launcher opens it; Escape puts focus back on the launcher", async () => {
    await setViewport({ width: 375, height: 667 });
    const p = await page(375, 667, floating());
    const launcher = p.el.shadowRoot!.querySelector('[part=launcher]')!;
    await executeServerCommand('tap', centre(p, launcher));
    await waitUntil(() => p.el.open && focused(p)?.getAttribute('part') == 'input', 'the dialog opens with the question field focused', { timeout: 8000 });
    await sendKeys({ press: 'Escape' });
    await waitUntil(() => !p.el.open, 'Escape closes');
    await p.el.updateComplete;
    expect(focused(p) == launcher, 'focus is on the launcher').to.equal(true);
  });
});
