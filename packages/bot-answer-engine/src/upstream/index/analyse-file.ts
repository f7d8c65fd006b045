import type { KnowledgeBaseSettings, SkippedFile } from '../folder/knowledge-base.js';
import { HTML_FILE, readDocumentFile, skippedFile, type DocumentFile } from '../folder/knowledge-base.js';
import { FIELDS, passageTerms, storedTerms } from '../retrieval/analyzer.js';

/** One passage of a document as the index stores it: its text and its analysed fields. */
export interface AnalysedPassage {
  /** The heading path, as JSON. */
  headings: string;
  markdown: string;
  url: string;
  /** Each field's length in terms, in the order of `FIELDS`. */
  lengths: number[];
  /** The analysed fields (`storedTerms`): the full-text tables' columns, and what retrieval scores by. */
  stored: string;
}

/** A document read and analysed, ready to be written into the index: its Source fields and link definitions as JSON. */
export interface AnalysedDocument {
  source: string;
  links: string | null;
  anchors: boolean;
  passages: AnalysedPassage[];
}

/**
 * Reads one listed file and analyses its passages: all the work of indexing a file but
 * writing it, so that it can run on other threads than the one writing the index. A file
 * that cannot be used gives the reason it is skipped.
 */
export async function analyseFile(file: DocumentFile, settings: KnowledgeBaseSettings): Promise<AnalysedDocument | SkippedFile> {
  let read;
  try {
    read = await readDocumentFile(file, settings);
  } catch (caught) {
    return skippedFile(file.path, caught);
  }
  const title = read.source.title;
  // The HTML reader writes a built page's links absolute, so that a quote's links work anywhere;
  // its author wrote the links to its own site relative, and they are indexed as such. A
  // Markdown file's links are indexed as its author wrote them.
  const origin = HTML_FILE.test(file.path) ? originOf(read.source.url) : undefined;
  return {
    source: JSON.stringify(read.source),
    links: read.links.size ? JSON.stringify([...read.links]) : null,
    anchors: read.anchors,
    passages: read.sections.map((section) => {
      const terms = passageTerms(title, section.headings, section.markdown, file.path, origin);
      return {
        headings: JSON.stringify(section.headings),
        markdown: section.markdown,
        url: section.url,
        lengths: FIELDS.map((field) => terms[field].length),
        stored: storedTerms(terms),
      };
    }),
  };
}

/** The scheme and host of a document's URL (`https://undici.nodejs.org`), if it has one. */
function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/** Whether an analysis says the file is skipped. */
export function isSkipped(result: AnalysedDocument | SkippedFile): result is SkippedFile {
  return 'reason' in result;
}
