/**
 * The confidence model's `pagePeak` (bench/retrieval/rounds.md, "Confident when right, round 12 (the
 * folder)"): how far the passage judged stands out of the best passages of the ten best-scoring
 * pages the question finds, read from a real index, and what it weighs in the model.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { resolveSettings } from '../../packages/bot-answer-engine/src/upstream/folder/knowledge-base.js';
import { KbIndex } from '../../packages/bot-answer-engine/src/upstream/index/kb-index.js';
import { confidence, type ConfidenceFeatures } from '../../packages/bot-answer-engine/src/upstream/retrieval/confidence.js';
import { Retriever } from '../../packages/bot-answer-engine/src/upstream/retrieval/retriever.js';

describe("the confidence reads how far the judged passage stands out of the question's pages", { timeout: 60_000 }, () => {
  let root: string;
  let index: KbIndex;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'answer-confidence-peak-'));
    const dir = join(root, 'docs');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'config-log.md'), '# Logging settings\n\nSet the log level of the whole app with `level`: silent, error, warn, info or verbose.\n');
    await writeFile(join(dir, 'app-log.md'), '# Writing to the log\n\nSet the log level of one message by its method: `log.warn()` writes at the warn level.\n');
    // Twelve pages each naming one of the question's words in passing (each word on fewer than half the pages, so it still tells):
    // more than the ten whose median the judged passage is measured against.
    const passing = ['runs once for the whole day', 'starts with the app', 'keeps its own set of rules'];
    for (let i = 0; i < 12; i++) await writeFile(join(dir, `module-${i}.md`), `# Module ${i}\n\nModule ${i} ${passing[i % 3]!}.\n`);
    index = await KbIndex.open({ dir, settings: resolveSettings(dir, { baseUrl: 'https://docs.example.com/' }), folder: join(root, 'index'), botId: 'demo' });
    await index.sync();
  });
  after(async () => {
    index.close();
    await rm(root, { recursive: true, force: true });
  });

  it("is ln of the judged passage's score over the median of the ten best pages' best scores", () => {
    const retriever = new Retriever(index);
    const question = 'How do I set the log level of the whole app?';
    const judged = retriever.decide(question).judged;
    assert.ok(judged);
    assert.equal(judged.hit.passage.document.path, 'config-log.md');
    const best = new Map<string, number>();
    for (const hit of retriever.search(question)) if (!best.has(hit.passage.document.path)) best.set(hit.passage.document.path, hit.score);
    const ten = [...best.values()].slice(0, 10);
    assert.equal(ten.length, 10);
    const median = (ten[4]! + ten[5]!) / 2;
    assert.ok(Math.abs(judged.features.pagePeak - Math.log(judged.hit.score / median)) < 1e-9);
    assert.ok(judged.features.pagePeak > 0);
  });

  it('raises the confidence, every other figure alike', () => {
    const features: ConfidenceFeatures = { margin: 0.1, coverage: 1, pageTelling: 1, headTelling: 0.5, strength: 0.3, words: Math.log(5), pagePeak: 0 };
    assert.ok(confidence({ ...features, pagePeak: 1 }) > confidence(features) + 0.1);
  });
});
