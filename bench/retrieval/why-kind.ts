/**
 * Whether what the question asks for (a how-to, or a value) matches what each of two close
 * pages is (a guide, or a reference): each tune-half confident answer whose margin (ln of the
 * score ratio) is under 0.3, its first page's passage against, for a wrong page, the right page's
 * best candidate, for a right one, the best candidate of another page. The question's kind is
 * read from closed-class words (and, in a second reading, "how much / how many / how long /
 * when" as a value, compose/answer-type.ts); each passage's kind by five readings of its
 * structure or path (below). A kind rule could win a wrong page where "other page matches", and
 * would lose a right answer where the same holds for a right one. `--list` prints each wrong
 * page, and each right answer a rule would flip, with both passages' structure. Tune halves only
 * (split by place for the all-`eval` sets); it never reads the sealed sets.
 *
 *   node --import tsx bench/retrieval/why-kind.ts [--sets=vet,waste] [--settings='{...}'] [--list]
 */
import { answerType } from '../../packages/bot-answer-engine/src/upstream/compose/answer-type.js';
import { Retriever, type SearchHit } from '../../packages/bot-answer-engine/src/upstream/retrieval/retriever.js';
import { expectedPages, placeSplit } from './evaluate.js';
import { confidentRival, eachSetIndex, scriptArgs } from './tuning-script.js';

const args = scriptArgs();
type PassageLike = { markdown: string; headings: readonly string[] };
// A question asks for a `task` ("how do I", "how to", "can I", "steps") or a `value` ("what is
// the default", "what does ... return", "which option", "what type", "signature", "parameters"):
// closed-class question words and the names of a reference's parts. A passage is a `reference`
// (signatures, option tables, parameter lists, code-span headings) or a `guide` (prose, numbered
// steps, examples).
type Kind = 'task' | 'value';
type PageKind = 'guide' | 'reference';

const TASK = /\b(?:how\s+(?:do|can|could|should|would|does)\s+(?:i|we|you|one)\b|how\s+to\b|can\s+i\b|steps?\b|is\s+it\s+possible\b)/i;
const VALUE = /\b(?:what\s+(?:is|are|'s)\s+the\s+defaults?|default\s+value|what\s+does\s+.+\s+returns?|returns?\b|which\s+(?:options?|parameters?|arguments?|flags?|settings?)|what\s+(?:types?|options?|parameters?|arguments?|flags?)|signature|parameters?|arguments?)\b/i;

/** The kind of thing the question asks for, or undefined when its words say neither (or both). */
function questionKind(question: string): Kind | undefined {
  const task = TASK.test(question);
  const value = VALUE.test(question);
  return task === value ? undefined : task ? 'task' : 'value';
}

/** The structure a passage's kind is read from. */
interface KindFeatures {
  /** Share of the passage's non-blank lines inside code blocks, or table rows. */
  codeShare: number;
  /** Lines of prose (not code, table, list or heading) ending a sentence. */
  sentences: number;
  /** List items (ordered or not). */
  items: number;
  ordered: number;
  /** Table rows. */
  rows: number;
  /** Inline code spans outside code blocks. */
  spans: number;
  /** Words outside code blocks. */
  words: number;
  /** Whether the section's own heading is code or a signature (`foo(bar)`, `a.b`, a code span). */
  signatureHeading: boolean;
}

const FENCE = /^\s*(?:```|~~~)/;
const ROW = /^\s*\|/;
const ITEM = /^\s*(?:[*+-]|\d{1,9}[.)])\s+/;
const ORDERED = /^\s*\d{1,9}[.)]\s+/;
const SIGNATURE = /`|\w\(|^\s*[\w$]+(?:\.[\w$]+)+\s*$|^\s*[a-z]+[A-Z]\w*\s*$/;

/** The structure of a passage's Markdown (cheap: a pass over its lines). */
function kindFeatures(passage: PassageLike): KindFeatures {
  let inCode = false;
  let lines = 0, codeLines = 0, sentences = 0, items = 0, ordered = 0, rows = 0, spans = 0, words = 0;
  for (const line of passage.markdown.split('\n')) {
    if (!line.trim()) continue;
    lines++;
    if (FENCE.test(line)) { inCode = !inCode; codeLines++; continue; }
    if (inCode || /^ {4}/.test(line)) { codeLines++; continue; }
    spans += (line.match(/`[^`]+`/g) ?? []).length;
    words += (line.match(/\S+/g) ?? []).length;
    if (ROW.test(line)) { rows++; codeLines++; continue; }
    if (ITEM.test(line)) { items++; if (ORDERED.test(line)) ordered++; continue; }
    if (/^\s*#/.test(line)) continue;
    if (/[.!?:]\s*$/.test(line)) sentences++;
  }
  const heading = passage.headings.at(-1) ?? '';
  return { codeShare: lines ? codeLines / lines : 0, sentences, items, ordered, rows, spans, words, signatureHeading: SIGNATURE.test(heading) };
}

/**
 * The kind of a passage, or undefined when the reading says neither: `path` a folder named
 * api/reference/helpers; `heading` the section's heading is code or a signature; `spans` code
 * spans 6% or more of its words, or a table; `steps` a numbered list a guide, else a table or a
 * code heading a reference; `structure` the votes of heading, table, spans against numbered steps
 * and 3 or more prose sentences.
 */
function pageKind(passage: PassageLike & { document: { path: string } }, kindVariant = 'structure'): PageKind | undefined {
  const f = kindFeatures(passage);
  switch (kindVariant) {
    case 'path':
      return /(?:^|\/)(?:api|reference|ref|helpers?)(?:\/|$)/i.test(passage.document.path) ? 'reference' : 'guide';
    case 'heading':
      return f.signatureHeading ? 'reference' : 'guide';
    case 'spans': {
      const density = f.words ? f.spans / f.words : 0;
      return density >= 0.06 || f.rows > 0 ? 'reference' : 'guide';
    }
    case 'steps':
      return f.ordered > 0 ? 'guide' : f.rows > 0 || f.signatureHeading ? 'reference' : undefined;
    default: {
      const ref = (f.signatureHeading ? 1 : 0) + (f.rows > 1 ? 1 : 0) + (f.words && f.spans / f.words >= 0.06 ? 1 : 0);
      const guide = (f.ordered > 0 ? 1 : 0) + (f.sentences >= 3 ? 1 : 0);
      return ref > guide ? 'reference' : guide > ref ? 'guide' : undefined;
    }
  }
}

const VARIANTS = ['structure', 'path', 'heading', 'spans', 'steps'];
const list = process.argv.includes('--list');
const counts = new Map<string, number>();
const bump = (key: string): void => void counts.set(key, (counts.get(key) ?? 0) + 1);
const show = (hit: SearchHit): string => {
  const f = kindFeatures(hit.passage);
  return `${VARIANTS.map((v) => pageKind(hit.passage, v)?.[0] ?? '-').join('')} [${hit.passage.document.path}#${hit.passage.headings.at(-1) ?? ''}] code ${f.codeShare.toFixed(2)} prose ${f.sentences} items ${f.items}/${f.ordered} spans ${f.spans}/${f.words} rows ${f.rows} sig ${f.signatureHeading ? 1 : 0}`;
};

await eachSetIndex('why-kind', args.only, (set, index, kbSettings) => {
  const retriever = new Retriever(index, args.settings);
  const splitOf = placeSplit(set);
  set.questions.forEach((q, place) => {
    if (splitOf(q, place) !== 'tune') return;
    const answer = confidentRival(retriever, q.question, expectedPages(q, kbSettings));
    if (!answer) return;
    const { first, right, rival, margin } = answer;
    const kind = right ? 'right' : 'wrong';
    if (!rival || margin === undefined) return bump(`${kind}: other page not a candidate`);
    if (margin >= 0.3) return bump(`${kind}: margin 0.3 or more`);
    // The question's kind as its words say, and with "how much / how many / how long / when" (answer-type.ts) read as a value.
    const asksWords = questionKind(q.question);
    const asksWide = asksWords ?? (answerType(q.question) ? 'value' : undefined);
    bump(`${kind} <0.3 asks ${asksWords ?? '-'}, with amounts ${asksWide ?? '-'}`);
    // What the right page is, for each kind of question: does a how-to's right page read as a guide?
    const rightPassage = right ? first.passage : rival.passage;
    bump(`right page for ${asksWide ?? '-'}: structure ${pageKind(rightPassage) ?? '-'}, path ${pageKind(rightPassage, 'path')}`);
    let verdict = '';
    for (const [reading, asks] of [['words', asksWords], ['+amounts', asksWide]] as const) {
      const matches = (k: PageKind | undefined): boolean => (asks === 'task' && k === 'guide') || (asks === 'value' && k === 'reference');
      for (const variant of VARIANTS) {
        const [a, b] = [pageKind(first.passage, variant), pageKind(rival.passage, variant)];
        const v = !asks ? 'question kind unknown' : a === b ? 'pages alike' : matches(b) ? 'other page matches' : matches(a) ? 'first page matches' : 'neither matches';
        if (variant === 'structure' && reading === 'words') verdict = v;
        bump(`${reading.padEnd(8)} ${variant.padEnd(9)} ${kind} <0.3: ${v}`);
      }
    }
    if (list && (!right || verdict === 'other page matches'))
      process.stdout.write(`${kind} ${set.id} ${asksWide ?? '-'} ${verdict} margin ${margin.toFixed(2)}: ${q.question}\n   first ${show(first)}\n   other ${show(rival)}\n`);
  });
});
for (const [key, n] of [...counts].sort()) process.stdout.write(`${key.padEnd(52)} ${n}\n`);
