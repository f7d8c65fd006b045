/** Checks a site URL given as a setting: an absolute http(s) URL. The message names the setting. */
export function checkSiteUrl(value: unknown, name: string): string | undefined {
  if (typeof value !== 'string' || !URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) return `${name} must be an http(s) URL, not ${JSON.stringify(value)}`;
  return undefined;
}

/**
 * A duration as settings write it: `90s`, `30m`, `6h`, `1d`, or seconds alone, in milliseconds;
 * `off` (or `0`) is 0. Undefined when it is none of these.
 */
export function parseDuration(text: string): number | undefined {
  const value = text.trim().toLowerCase();
  if (value === 'off' || value === 'false' || value === 'never') return 0;
  const match = /^(\d+(?:\.\d+)?)\s*(s|m|h|d)?$/.exec(value);
  if (!match) return undefined;
  const unit = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 's' | 'm' | 'h' | 'd' | undefined ?? 's'];
  return Math.round(Number(match[1]) * unit);
}
