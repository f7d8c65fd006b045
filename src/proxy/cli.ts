#!/usr/bin/env node
import { HELP, optionsFrom } from './cli-options.js';
import { startProxy, type StartProxyOptions } from './server.js';

async function main(): Promise<void> {
  let options: StartProxyOptions | 'help';
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
  try {
    await startProxy(options);
  } catch (error) {
    console.error(`bot-answer-proxy: ${(error as Error).message}`);
    process.exit(1);
  }
}

void main();
