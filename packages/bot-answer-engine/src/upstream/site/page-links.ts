import { Parser } from 'htmlparser2';

/** What a fetched page says of where it lives and what it links to. */
export interface PageLinks {
  /** `<link rel="canonical">`'s href, as written. */
  canonical?: string;
  /** Every `<a href>`, as written, in order. */
  links: string[];
}

/** The canonical link and the `<a href>` targets of a page, read by htmlparser2's tokenizer (no tree is built). */
export function pageLinks(html: string): PageLinks {
  const found: PageLinks = { links: [] };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'a' && attributes.href) found.links.push(attributes.href);
        else if (name === 'link' && found.canonical === undefined && /(?:^|\s)canonical(?:\s|$)/i.test(attributes.rel ?? '') && attributes.href) found.canonical = attributes.href;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  return found;
}
