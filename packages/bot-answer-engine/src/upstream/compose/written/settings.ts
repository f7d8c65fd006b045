import type { AnswerApiOptions } from '../../options.js';
import type { WriterSettings } from './write-answer.js';

type LlmOptions = Pick<AnswerApiOptions, 'llmBaseUrl' | 'llmModel' | 'llmApiKey' | 'llmTimeoutMs' | 'llmTemperature' | 'llmMaxTokens' | 'llmPassages' | 'llmAskWhenNotSure'>;

/** Names of the written-answer settings in messages: option names, or the environment's. */
export type LlmSettingNames = Record<keyof LlmOptions, string>;

export const OPTION_NAMES: LlmSettingNames = {
  llmBaseUrl: 'llmBaseUrl',
  llmModel: 'llmModel',
  llmApiKey: 'llmApiKey',
  llmTimeoutMs: 'llmTimeoutMs',
  llmTemperature: 'llmTemperature',
  llmMaxTokens: 'llmMaxTokens',
  llmPassages: 'llmPassages',
  llmAskWhenNotSure: 'llmAskWhenNotSure',
};

/**
 * The settings of written answers, `undefined` when they are off (no base URL and no model);
 * throws a `TypeError` naming the setting (as `names` calls it) when they cannot work.
 */
export function writerSettings(options: LlmOptions, names: LlmSettingNames = OPTION_NAMES): WriterSettings | undefined {
  const { llmBaseUrl: baseUrl, llmModel: model } = options;
  const fail = (message: string): never => {
    throw new TypeError(message);
  };
  if (baseUrl === undefined && model === undefined) return undefined;
  if (!baseUrl) fail(`${names.llmModel} is set but ${names.llmBaseUrl} is not: set it to the model server's OpenAI-compatible base, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 (Ollama)`);
  if (!model) fail(`${names.llmBaseUrl} is set but ${names.llmModel} is not: name the model that writes answers`);
  const url = URL.canParse(baseUrl!) ? new URL(baseUrl!) : undefined;
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') fail(`${names.llmBaseUrl} must be an http(s) URL, e.g. http://127.0.0.1:11434/v1`);
  const positive = (name: keyof LlmOptions, value: number | undefined): number | undefined => {
    if (value !== undefined && !(Number.isInteger(value) && value > 0)) fail(`${names[name]} must be a whole number above 0, not ${value}`);
    return value;
  };
  const temperature = options.llmTemperature;
  if (temperature !== undefined && !(Number.isFinite(temperature) && temperature >= 0 && temperature <= 2)) fail(`${names.llmTemperature} must be a number from 0 to 2, not ${temperature}`);
  return {
    baseUrl: baseUrl!,
    model: model!,
    apiKey: options.llmApiKey || undefined,
    timeoutMs: positive('llmTimeoutMs', options.llmTimeoutMs) ?? 20_000,
    temperature,
    maxTokens: positive('llmMaxTokens', options.llmMaxTokens),
    maxPassages: positive('llmPassages', options.llmPassages) ?? 8,
    askWhenNotSure: options.llmAskWhenNotSure ?? false,
  };
}
