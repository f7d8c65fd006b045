#!/usr/bin/env node
import { HELP, optionsFrom } from './cli-options.js';
import { startProxy } from './server.js';
import { clearRedisCache } from './stores/redis.js';

async function main(): Promise<void> {
  let options: ReturnType<typeof optionsFrom>;
  try {
    options = optionsFrom(process.argv.slice(2), process.env);
  } catch (error) {
    console.error(`bot-answer-proxy: ${(error as Error).message}\n\n${HELP}`);
    process.exit(2);
  }
  if (options === 'help') {
    console.log(HELP);
    return;
  }
  if (options.clearCache) {
    try {
      const removed = await clearRedisCache(options);
      console.log(`bot-answer-proxy: removed ${removed} cached answer${removed === 1 ? '' : 's'}`);
      return;
    } catch (error) {
      console.error(`bot-answer-proxy: --clear-cache: ${(error as Error).message}`);
      process.exit(1);
    }
  }
  try {
    await startProxy(options);
  } catch (error) {
    console.error(`bot-answer-proxy: ${(error as Error).message}`);
    process.exit(1);
  }
}

void main();
