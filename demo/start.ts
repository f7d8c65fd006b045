/**
 * `npm start`: the proxy with the demo page, configured like the `bot-answer-proxy` command
 * (same flags and environment). Without ANSWER_API_KEY it answers from the embedded local
 * Answer API and its sample knowledge base; with ANSWER_API_KEY and ANSWER_BASE_URL, from that upstream.
 */
import { HELP, optionsFrom } from '../src/proxy/cli-options.js';
import { startDemoServer } from './server.js';

async function main(): Promise<void> {
  let options;
  try {
    options = optionsFrom(process.argv.slice(2), process.env);
  } catch (error) {
    console.error(`bot-answer demo: ${(error as Error).message}\n\n${HELP}`);
    process.exit(2);
  }
  if (options === 'help') {
    console.log(HELP);
    return;
  }
  try {
    const running = await startDemoServer({ ...options, handleSignals: true });
    const kb = options.localAnswerApi?.kb;
    const how = running.demo ? `demo mode: answers from the local Answer API and ${kb ? `the documents in ${kb}` : 'its sample knowledge base'}` : 'answers from ANSWER_BASE_URL';
    console.log(`\n  bot-answer demo (${how})\n  Open ${running.url}/ in your browser. Ctrl+C stops it.\n`);
  } catch (error) {
    const message = (error as NodeJS.ErrnoException).code === 'EADDRINUSE' ? `port ${options.port} is in use: set PORT to another port` : (error as Error).message;
    console.error(`bot-answer demo: ${message}`);
    process.exit(1);
  }
}

void main();
