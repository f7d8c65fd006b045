import { expect } from '@open-wc/testing';
import { STREAMING_CLASS, StreamRenderer } from '../../../packages/bot-answer/src/widget/markdown/stream-renderer.js';
import { CORPUS, EDGE_CORPUS } from './corpus.js';
import { chunks, dangerous, frame, render, rng } from './helpers.js';

/** Streams `text` one chunk per flush (a flush per chunk is the worst case for work and for flicker), checking each state. */
function stream(text: string | string[], check?: (el: HTMLElement, r: StreamRenderer, sent: string) => void) {
  const el = document.createElement('div');
  const r = new StreamRenderer(el);
  let sent = '';
  for (const c of typeof text === 'string' ? [...text] : text) {
    r.append(c);
    r.flush();
    sent += c;
    check?.(el, r, sent);
  }
  return { el, r };
}

/** Runs `fn` with `performance.now()` on a clock that moves only when `tick` moves it. */
async function clock(fn: (tick: (ms: number) => void) => Promise<void>) {
  const real = performance.now;
  let now = real.call(performance);
  performance.now = () => now;
  try {
    await fn((ms) => (now += ms));
  } finally {
    performance.now = real;
  }
}

/** Runs `fn` with the delays of every `setTimeout` started meanwhile recorded (the timers still run). */
async function timers(fn: (delays: number[]) => Promise<void>) {
  const real = window.setTimeout;
  const delays: number[] = [];
  window.setTimeout = ((f: TimerHandler, ms?: number, ...a: unknown[]) => (delays.push(ms ?? 0), real(f, ms, ...a))) as typeof setTimeout;
  try {
    await fn(delays);
  } finally {
    window.setTimeout = real;
  }
}

describe('StreamRenderer', () => {
  it('shows a table fed one character at a time only once its delimiter row is complete, never as a paragraph', () => {
    const text = 'Prices:\n\n| Name | Qty |\n|------|----:|\n| Tea | 2 |\n| Coffee | 10 |\n';
    const ready = text.indexOf('|\n| Tea') + 1;
    const { el, r } = stream(text, (el, _r, sent) => {
      for (const p of el.querySelectorAll('p')) expect(p.textContent, sent).not.to.contain('|');
      expect(!!el.querySelector('table'), sent).to.equal(sent.length >= ready + 1);
    });
    r.finish();
    expect(el.innerHTML).to.equal(render(text).innerHTML);
  });

  it('never shows a setext heading, an empty list or an empty heading for a half-typed line', () => {
    for (const text of ['Name | Qty\n---|---', 'Some text\n-', 'Some text\n==', '1.', '#', '- ', 'Intro\n\n1. ', '> ']) {
      stream(text, (el, _r, sent) => {
        expect(el.querySelector('h1, h2, ol, ul, li, blockquote'), JSON.stringify(sent)).to.equal(null);
      });
    }
  });

  it('shows an unclosed fence as code in progress, without a half-typed closing fence, and text after it outside', () => {
    const text = 'Run:\n\n```js\nconst a = `x`;\nlet b = 2;\n```\nAfter the code.';
    const close = text.indexOf('```\nAfter');
    const { el } = stream(text, (el, _r, sent) => {
      const pre = el.querySelector('pre');
      if (sent.length > text.indexOf('const')) expect(pre, sent).to.exist;
      if (pre && sent.length <= close + 3) expect(pre.textContent, sent).not.to.match(/(^|\n)`+\n?$/);
    });
    expect(el.querySelector('pre')!.textContent).to.equal('const a = `x`;\nlet b = 2;\n');
    expect(el.querySelector('pre + p')!.textContent).to.equal('After the code.');
  });

  it('closes unterminated emphasis and code, and shows a half-typed link as its text', () => {
    const bold = stream('Some **bo').el;
    expect(bold.querySelector('strong')!.textContent).to.equal('bo');
    expect(bold.textContent!.trim()).to.equal('Some bo');
    const link = stream('See [link](https://ex').el;
    expect(link.querySelector('a')).to.equal(null);
    expect(link.textContent!.trim()).to.equal('See link');
    expect(stream('Use `npm i').el.querySelector('code')!.textContent).to.equal('npm i');
    expect(stream('Cited[[1]](https://a.exa').el.textContent!.trim()).to.equal('Cited');
    for (const text of ['A *b* and **c** then _d_ and ~~e~~', 'x `a*b` y']) {
      stream(text, (el, _r, sent) => expect(el.textContent, sent).not.to.match(/\*\*|~~|`|\*$/));
    }
  });

  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`renders a long answer streamed in random chunks (seed ${seed}) exactly like one render`, async () => {
      const text = `${CORPUS}\n${CORPUS.replace(/\[(policy|form)\]/g, '[$1 2]')}`;
      const rand = rng(seed);
      const { el, r } = stream(chunks(text, rand, seed < 4 ? 8 : 200));
      r.finish();
      expect(el.innerHTML).to.equal(render(text).innerHTML);
      expect(r.text).to.equal(text);
    });
  }

  for (const seed of [11, 12, 13, 14]) {
    it(`renders blocks whose extent depends on later text like one render (seed ${seed})`, () => {
      const text = `${EDGE_CORPUS}\n\n${CORPUS}\n\n${EDGE_CORPUS.replace('[late]', '[late 2]')}`;
      const { el, r } = stream(chunks(text, rng(seed), seed % 2 ? 3 : 60));
      r.finish();
      expect(el.innerHTML).to.equal(render(text).innerHTML);
    });
  }

  it('renders the same through requestAnimationFrame as through flush(), and CRLF split across chunks', async () => {
    const el = document.createElement('div');
    const r = new StreamRenderer(el);
    const text = CORPUS.replace(/\n/g, '\r\n');
    for (const c of chunks(text, rng(9), 50)) {
      r.append(c);
      if (c.length % 3 === 0) await frame();
    }
    await frame();
    expect(el.classList.contains(STREAMING_CLASS)).to.equal(true);
    r.finish();
    expect(el.classList.contains(STREAMING_CLASS)).to.equal(false);
    expect(el.innerHTML).to.equal(render(CORPUS).innerHTML);
    expect(r.text).to.equal(text);
  });

  it('bounds the work per flush by the uncommitted tail, not the whole answer', () => {
    const text = Array.from({ length: 12 }, () => CORPUS).join('\n');
    let lexed = 0;
    let maxTail = 0;
    const { r } = stream(chunks(text, rng(7), 20), (_el, r) => {
      expect(r.lastFlush.lexed).to.be.at.most(r.lastFlush.tail + 8);
      lexed += r.lastFlush.lexed;
      maxTail = Math.max(maxTail, r.lastFlush.tail);
    });
    r.finish();
    // The live tail is at most the last few blocks (the largest here is the table, ~170 characters).
    expect(maxTail).to.be.below(800);
    // Re-lexing the whole prefix per chunk would cost about length^2 / 40 (~19 million characters here).
    expect(lexed).to.be.below(text.length * 40);
  });

  it('shows an open code fence as code in progress: growing, inert, never with a half-typed closing fence', () => {
    const lines = Array.from({ length: 300 }, (_, i) => `let v${i} = f(${i}, "<b>${i}</b>"); // **not bold**`);
    const text = `Code:\n\n\`\`\`ts\n${lines.join('\n')}\n\`\`\`\n\nAfter.\n`;
    let shown = 0;
    const { el, r } = stream(chunks(text, rng(5), 30), (el, _r, sent) => {
      const pre = el.querySelector('pre');
      if (!pre || sent.includes('```\n\nA')) return;
      expect(pre.firstElementChild!.className).to.equal('language-ts');
      expect(pre.textContent!.length).to.be.at.least(shown);
      expect(pre.textContent, sent.slice(-40)).not.to.contain('`');
      shown = pre.textContent!.length;
      expect(el.querySelector('b, strong')).to.equal(null);
    });
    expect(shown).to.be.above(10_000);
    r.finish();
    expect(el.innerHTML).to.equal(render(text).innerHTML);
    expect(el.querySelector('pre')!.textContent).to.equal(`${lines.join('\n')}\n`);
  });

  it('streams a tail beyond the caps as plain text, without lexing it', () => {
    const text = `Intro.\n\n${'_a'.repeat(5000)}`;
    let flushes = 0;
    const { el, r } = stream(chunks(text, rng(2), 300), (el, r, sent) => {
      if (sent.length < 6200) return;
      expect(el.querySelector('p')!.textContent).to.equal(sent);
      expect(el.querySelector('em')).to.equal(null);
      if (flushes++) expect(r.lastFlush.lexed).to.equal(0);
    });
    expect(flushes).to.be.above(5);
    r.finish();
    expect(el.innerHTML).to.equal(render(text).innerHTML);
  });

  it('waits several frames after a costly flush of a huge growing paragraph, lexing only that paragraph', async () => {
    const el = document.createElement('div');
    let updates = 0;
    const r = new StreamRenderer(el, { onUpdate: () => updates++ });
    const paragraph = 'A long paragraph that keeps growing without a blank line. '.repeat(3300);
    r.append(paragraph);
    await timers(async (delays) => {
      r.flush();
      expect(r.lastFlush.lexed).to.be.above(190_000);
      updates = 0;
      r.append('word ');
      // Re-rendering 200 KB costs milliseconds at least, so the next update waits for a timer, not the next frame.
      await frame();
      expect(updates).to.equal(0);
      expect(delays).to.have.length(1);
      expect(delays[0]).to.be.above(50);
    });
    r.finish();
    expect(updates).to.equal(1);
    expect(el.textContent!.trim()).to.equal(paragraph + 'word');
  });

  it('adapts its cadence to what a flush costs: every frame when cheap, 50x the cost when not, at most 250 ms; finish() renders at once', async () => {
    /** Appends one word per frame for `n` frames while each update costs `cost` ms on the controlled clock. */
    async function run(cost: number, n: number) {
      const el = document.createElement('div');
      let updates = 0;
      let delays: number[] = [];
      await clock(async (tick) => {
        const r = new StreamRenderer(el, { onUpdate: () => (updates++, tick(cost)) });
        await timers(async (d) => {
          delays = d;
          for (let i = 0; i < n; i++) {
            r.append(`w${i} `);
            await frame();
          }
        });
        const during = updates;
        r.finish();
        expect(el.textContent!.trim()).to.equal(Array.from({ length: n }, (_, i) => `w${i}`).join(' '));
        await new Promise((ok) => setTimeout(ok, Math.max(0, ...delays) + 50));
        await frame();
        // Nothing left pending after finish().
        expect(updates).to.equal(during + 1);
      });
      return { updates, delays };
    }
    const cheap = await run(0, 20);
    expect(cheap.updates).to.equal(21);
    expect(cheap.delays).to.deep.equal([]);
    const costly = await run(2, 20);
    expect(costly.delays.length).to.be.at.least(1);
    expect(new Set(costly.delays)).to.deep.equal(new Set([100]));
    const capped = await run(8, 20);
    expect(new Set(capped.delays)).to.deep.equal(new Set([250]));
  });

  it('never touches a committed block again: same nodes, and a selection inside survives later chunks', () => {
    const el = document.createElement('div');
    document.body.append(el);
    const r = new StreamRenderer(el);
    r.append('First paragraph to select.\n\nSecond.\n\nThird');
    r.flush();
    const p = el.querySelector('p')!;
    const range = document.createRange();
    range.setStart(p.firstChild!, 6);
    range.setEnd(p.firstChild!, 15);
    getSelection()!.removeAllRanges();
    getSelection()!.addRange(range);
    for (const c of chunks(CORPUS, rng(3), 30)) {
      r.append(c);
      r.flush();
    }
    expect(el.querySelector('p')).to.equal(p);
    expect(getSelection()!.toString()).to.equal('paragraph');
    r.finish();
    // The corpus ends with a late link definition: finish() renders it all again, as one render would.
    expect(el.innerHTML).to.equal(render(`First paragraph to select.\n\nSecond.\n\nThird${CORPUS}`).innerHTML);
    el.remove();
  });

  it('keeps committed nodes through finish() when no link definition came late', () => {
    const { el, r } = stream('First.\n\nSecond.\n\nThird.\n\nFourth **bold**.');
    const p = el.querySelector('p')!;
    r.finish();
    expect(el.querySelector('p')).to.equal(p);
    expect(el.querySelectorAll('p').length).to.equal(4);
  });

  it('makes one DOM update for 100 chunks within one frame', async () => {
    const el = document.createElement('div');
    let updates = 0;
    const r = new StreamRenderer(el, { onUpdate: () => updates++ });
    const observer = new MutationObserver(() => {});
    observer.observe(el, { childList: true, subtree: true, characterData: true });
    for (let i = 0; i < 100; i++) r.append(`word${i} `);
    expect(el.childNodes.length).to.equal(0);
    await frame();
    await frame();
    expect(updates).to.equal(1);
    expect(el.textContent!.trim()).to.equal(Array.from({ length: 100 }, (_, i) => `word${i}`).join(' '));
    observer.disconnect();
  });

  it('links an earlier [label] once its definition arrives late', () => {
    const text = 'See [the docs][d] first.\n\nMore text.\n\nAnd more.\n\nEven more.\n\n[d]: https://d.example/docs\n';
    const { el, r } = stream(text);
    expect(el.querySelector('p')!.textContent).to.equal('See [the docs][d] first.');
    r.finish();
    expect(el.querySelector('a[href="https://d.example/docs"]')!.textContent).to.equal('the docs');
    expect(el.innerHTML).to.equal(render(text).innerHTML);
  });

  it('never has script, an event handler or a javascript: URL in any frame, even when split inside a tag', () => {
    const text = 'a <scr' + 'ipt>alert(1)</script> [x](javascript:alert(1)) <img src=x onerror=alert(1)>\n\n<a href="javascript:alert(1)">y</a> [z](JAVASCRIPT:alert(1))';
    const { el, r } = stream(text, (el, _r, sent) => expect(dangerous(el), sent).to.deep.equal([]));
    r.finish();
    expect(dangerous(el)).to.deep.equal([]);
    expect(el.querySelector('a')).to.equal(null);
  });

  it('passes the images option through', () => {
    const src = 'A cat: ![cat](https://img.example/cat.png)\n';
    for (const images of [false, true]) {
      const el = document.createElement('div');
      const r = new StreamRenderer(el, { images });
      r.append(src);
      r.finish();
      expect(!!el.querySelector('img[src="https://img.example/cat.png"]')).to.equal(images);
      expect(el.innerHTML).to.equal(render(src, { images }).innerHTML);
    }
  });

  it('with copyLabel, puts a copy button in each code block that can no longer change, never in a live one', () => {
    const el = document.createElement('div');
    const r = new StreamRenderer(el, { copyLabel: () => 'Copy <b>code</b>' });
    const counts = () => [...el.querySelectorAll('pre')].map((p) => p.querySelectorAll(':scope > button.cc:first-child').length);
    r.append('```js\nlet a = 1;\n');
    r.flush();
    expect(counts()).to.deep.equal([0]);
    r.append('```\n\nText.\n\n```\nb\n```\n\nMore.\n\n');
    r.flush();
    // The first block has two blocks after it (committed); the second has one (still live).
    expect(counts()).to.deep.equal([1, 0]);
    const first = el.querySelector('pre')!;
    expect(first.firstElementChild!.textContent).to.equal('Copy <b>code</b>');
    expect(first.firstElementChild!.nextSibling!.textContent).to.equal('let a = 1;\n');
    r.append('```\nc');
    r.finish();
    expect(counts()).to.deep.equal([1, 1, 1]);
    expect(el.querySelector('pre')).to.equal(first);
    // Without the buttons, the DOM is one render of the whole text.
    for (const b of el.querySelectorAll('.cc')) b.remove();
    expect(el.innerHTML).to.equal(render(r.text).innerHTML);
  });

  it('replace() swaps the whole text, reset() empties, and the text getter returns what was sent', async () => {
    const el = document.createElement('div');
    const r = new StreamRenderer(el);
    r.append('Old **answer**');
    r.finish();
    const old = el.firstChild;
    r.replace('Old **answer** grows');
    r.finish();
    expect(el.textContent!.trim()).to.equal('Old answer grows');
    expect(old!.isConnected).to.equal(false);
    r.replace('# New');
    expect(el.textContent!.trim()).to.equal('Old answer grows');
    await frame();
    expect(el.innerHTML).to.equal('<h1>New</h1>\n');
    expect(r.text).to.equal('# New');
    r.reset();
    expect(el.childNodes.length).to.equal(0);
    expect(r.text).to.equal('');
    await frame();
    expect(el.childNodes.length).to.equal(0);
  });
});
