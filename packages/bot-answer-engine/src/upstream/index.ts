/**
 * The local Answer API: the upstream Answer API spec implemented over Markdown knowledge
 * bases, for demo mode, tests and benchmarks, or as a small self-hosted answer service.
 */
export { startAnswerApi } from './http/server.js';
export type { AnswerApiOptions, FaultOptions, RecordedRequest, RunningAnswerApi, StreamDialect } from './options.js';
export { STREAM_DIALECTS } from './http/dialects.js';
export { NO_ANSWER_TEXT, NOT_SURE_TEXT } from './compose/extractive.js';
export { knowledgeBaseOptions } from './cli-options.js';
