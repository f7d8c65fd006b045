#!/usr/bin/env node
import { HELP, optionsFrom } from './cli-options.js';
import { MissingPeerError } from './optional-peer.js';
import { startProxy } from './server.js';
import { clearRedisCache } from './stores/redis.js';

async function main(): Promise<void> {
  let options: Awaited<ReturnType<typeof optionsFrom>>;
  try {
    options = await optionsFrom(process.argv.slice(2), process.env);
  } catch (error) {
    // A package to install is not a bad setting: no help text, the exit code of a failed start.
    if (error instanceof MissingPeerError) {
      console.error(`bot-answer-proxy: ${error.message}`);
      process.exit(1);
    }
    console.error(`bot-answer-proxy: ${(error as Error).message}\n\n${HELP}`);
    process.exit(2);
  }
  if (options === 'help') return console.log(HELP);
  try {
    if (!options.clearCache) await startProxy(options);
    else {
      const removed = await clearRedisCache(options);
      console.log(`bot-answer-proxy: removed ${removed} cached answer${removed === 1 ? '' : 's'}`);
    }
  } catch (error) {
    console.error(`bot-answer-proxy: ${options.clearCache ? '--clear-cache: ' : ''}${(error as Error).message}`);
    process.exit(1);
  }
}

void main();
