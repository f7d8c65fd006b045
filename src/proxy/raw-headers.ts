/** Joins the values of header `name` (lower case) in Node's raw header list, as the Fetch API's Headers.get joins them. */
function rawHeader(raw: string[], name: string): string | null {
  let value: string | null = null;
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i]!;
    if (key.length === name.length && (key === name || key.toLowerCase() === name)) value = value === null ? raw[i + 1]! : `${value}, ${raw[i + 1]!}`;
  }
  return value;
}

/** Header lookups straight from Node's raw list: nothing built or kept per request. */
export class RawHeaders {
  constructor(private readonly raw: string[]) {}

  get(name: string): string | null {
    return rawHeader(this.raw, name.toLowerCase());
  }
}
