#!/usr/bin/env -S node --max-semi-space-size=4 --v8-pool-size=1
// Since Node.js 22, V8 sizes its young generation from the host's memory: 64 MiB of it stayed resident
// serving 200 MB of docs on a 24 GiB host, for a heap of 21 MiB in use. 4 MiB semi-spaces cap it.
// V8 compiles hot code on its worker threads (4 by default), each allocating from a malloc arena of
// its own that keeps its pages once freed: about 7 MiB per thread after answering. One thread keeps one.
// `npm run upstream`: the local Answer API alone. Options: see CLI_USAGE (or --help).
import { CLI_USAGE, CliOptionsError, parseCliOptions } from './cli-options.js';
import { startAnswerApi } from './http/server.js';
import { safeUrl } from './compose/written/write-answer.js';

const log = (line: string): void => console.log(`[answer-api] ${line}`);

async function main(): Promise<void> {
  let options;
  try {
    options = parseCliOptions(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof CliOptionsError)) throw error;
    console.error(`answer-api: ${error.message}\n\n${CLI_USAGE}`);
    process.exit(2);
  }
  if (!options) {
    console.log(CLI_USAGE);
    return;
  }
  const generated = !options.keys?.length;
  const api = await startAnswerApi({ ...options, log });
  log(`listening on ${api.url}: POST ${api.url}/v1/answer`);
  const watching = options.watch === false ? '' : ', watched for changes';
  for (const bot of api.bots) log(`bot "${bot.id}": ${bot.documents} documents from ${bot.kb}${watching}`);
  log(
    api.answers.mode === 'written'
      ? `answers: written by ${api.answers.model} at ${safeUrl(options.llmBaseUrl!)}${options.llmAskWhenNotSure ? ', questions retrieval is not sure of included' : ''}; the docs answer when it fails`
      : 'answers: quoted from the docs (set ANSWER_LLM_BASE_URL and ANSWER_LLM_MODEL for written answers)',
  );
  log(`streams: dialect ${options.dialect ?? 'named'}, ${options.paceMs ?? 30} ms between pieces${options.endMarker === false ? ', no end marker' : ''}`);
  if (options.rateLimitPerMinute) log(`rate limit: ${options.rateLimitPerMinute} request(s) per minute per workspace`);
  const faults = Object.keys(options.faults ?? {});
  if (faults.length) log(`FAULTS ON: ${faults.join(', ')}`);
  // Printing the key this process made up for itself is the point: it is a local demo key, the
  // only way a client can learn it. Configured keys are never printed.
  if (generated) log(`API key (generated; set ANSWER_API_KEYS to choose your own): ${api.keys[0]}`);
  else log(`${api.keys.length} API key(s) configured`);

  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    log('shutting down');
    api.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`answer-api: ${(error as Error).message}`);
  process.exit(1);
});
