import { expect } from '@open-wc/testing';

/**
 * Runs the renderer in a same-origin frame whose page enforces Trusted Types allowing only the
 * `bot-answer` policy, and returns what the frame reported.
 */
function runInTrustedTypesPage(): Promise<{ violations: string[]; html: string; tt: boolean }> {
  const url = (path: string) => JSON.stringify(new URL(`../../../packages/bot-answer/src/widget/markdown/${path}`, import.meta.url).href);
  const frame = document.createElement('iframe');
  frame.srcdoc = `<!doctype html>
<meta http-equiv="Content-Security-Policy" content="require-trusted-types-for 'script'; trusted-types bot-answer">
<div id="out"></div>
<script type="module">
  const violations = [];
  document.addEventListener('securitypolicyviolation', (e) => violations.push(e.violatedDirective + ': ' + e.sample));
  let html = '';
  try {
    const { StreamRenderer } = await import(${url('stream-renderer.ts')});
    const { renderMarkdown } = await import(${url('markdown.ts')});
    const out = document.getElementById('out');
    out.append(renderMarkdown('# Title\\n\\n[a](https://a.example) <img src=x onerror=alert(1)>', { images: true }));
    const r = new StreamRenderer(out);
    for (const c of ['Some **bo', 'ld** text', '\\n\\n| a | b |\\n|--', '-|---|\\n| 1 | 2 |\\n\\n![i](https://i.example/i.png)']) { r.append(c); r.flush(); }
    r.finish();
    html = out.innerHTML;
  } catch (e) {
    violations.push('error: ' + e);
  }
  await new Promise((r) => setTimeout(r, 50));
  parent.postMessage({ kind: 'tt-result', violations, html, tt: !!window.trustedTypes }, '*');
</script>`;
  return new Promise((resolve) => {
    const onMessage = (e: MessageEvent) => {
      if (e.data?.kind !== 'tt-result') return;
      removeEventListener('message', onMessage);
      frame.remove();
      resolve(e.data);
    };
    addEventListener('message', onMessage);
    document.body.append(frame);
  });
}

describe('Markdown rendering with Trusted Types enforced', () => {
  it('renders and sanitises through the bot-answer policy with no violation', async () => {
    const { violations, html, tt } = await runInTrustedTypesPage();
    expect(tt).to.equal(true);
    expect(violations).to.deep.equal([]);
    expect(html).to.contain('<h1>Title</h1>').and.contain('<strong>bold</strong>').and.contain('<table>');
    expect(html).to.contain('&lt;img src=x onerror=alert(1)&gt;');
  });
});
