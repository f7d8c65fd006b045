/**
 * The held-out evaluation sets: documentation folders no engine was tuned on before issue 27,
 * with questions written before any engine ran on them (held-out/*.json). Their packages are fetched by exact
 * version with `npm pack` and checked against the integrity the set pins, then unpacked into
 * bench/out/held-out/ once. They are not devDependencies: npm's own package would link `npm`
 * and `npx` into node_modules/.bin and shadow the npm that runs the scripts. A set whose docs
 * no package ships names a `folder` of the repository instead, beside its JSON file.
 *
 * Since issue 27 they are tuned on like the other sets: npm's and markdownlint's were held out
 * until then; semantic-release's, the AI SDK's and the handbook's were sealed until they were
 * read once for it, the library's, Intlayer's and serverless-cli's until they were read once for
 * its second round, the vet's, Foundation's and Sails' until they were read once for its third,
 * the waste guide's, A-Frame's and contentful-cli's until they were read once for its fourth,
 * the school's, Pragmatic drag and drop's and CodeceptJS's until they were read once for its
 * fifth, the parking guide's, the Sui SDK's and Next.js functions' until they were read once for
 * its sixth, the allotment handbook's, Mastra's and the Snyk CLI's until they were read once for
 * its seventh, the holiday park's, Directus's and byethrow's until they were read once for its
 * eighth, the leisure centre's, AuthKit's and the NativeScript CLI's until they were read once for
 * its ninth, the bike-share guide's, the Gemini CLI's and eslint-plugin-jest's until they were read
 * once for its tenth, the museum's, Slidev's and React Router's until they were read once for its
 * eleventh, the halls guide's, Turborepo's and the Workflow SDK's until they were read once for its
 * twelfth, the coworking handbook's, the Cloudflare Agents SDK's and Victory's until they were
 * read once for its thirteenth, the transit fares guide's, Base UI's and the CLI for Microsoft 365's
 * until they were read once for its fourteenth, the driving school's, the Chat SDK's and the
 * Sendinblue API client's until they were read once for its fifteenth, the dental practice's,
 * Trigger.dev's and the Salesforce packaging CLI's until they were read once for its sixteenth, the
 * nursery's, Quasar CLI's and the Ory Kratos client's until they were read once for its
 * seventeenth, the marina's, Zudoku's and the Cloudmersive Validate client's until they were read
 * once for its eighteenth, the self storage guide's, c15t's and the Xendit client's until they were
 * read once for its nineteenth, the football club's, Video.js's and the Bandwidth client's until
 * they were read once for its twentieth, the council tax guide's, Gravity UI's and the Kalshi
 * client's until they were read once for its twenty-first, the music school's, the Dash SDK's and
 * the migration planner client's until they were read once for its twenty-second, the hotel's,
 * the Teemill warehouse client's and Modern.js Builder's until they were read once for its
 * twenty-third, the kennels' guide's, Haraka's and Agent-Native's until they were read once for its
 * twenty-fourth, the van hire guide's, Chance's and Chrome DevTools' issue descriptions' until they
 * were read once for its twenty-fifth, the ferry guide's, Modern.js's guides' and the fitness
 * tracker client's until they were read once for its twenty-sixth, the climbing centre's guide's,
 * the micro:bit project guides' and the Losant client's until they were read once for its
 * twenty-seventh, the GP surgery's guide's, the MakeCode editor's guide's and Jacdac's service
 * specifications' until they were read once for its twenty-eighth, the cinema's guide's,
 * UIBUILDER's guides' and eslint-plugin-import's rules' until they were read once for its
 * twenty-ninth, the letting agency's guide's, webhint's guides' and the Checkly CLI's reference's
 * until they were read once for its thirtieth, the airport's guide's, Marko's guides' and
 * math.js's reference's until they were read once for its thirty-first, the broadband help
 * centre's, Gluegun's guides' and the WordPress components' reference's until they were read once
 * for its thirty-second, the car garage's guide's, Mithril's guides' and Enzyme's reference's until
 * they were read once for its thirty-fourth, the wedding venue's guide's, Stylelint's guides' and
 * node-addon-api's reference's until they were read once for its thirty-fifth, the water
 * company's guide's, WebdriverIO's guides' and the Cloudmersive Image API's reference's until
 * they were read once for its thirty-sixth, the heating company's and the removals firm's
 * guides', GitBook's and the AsyncAPI Generator's guides' and Ory Hydra's and Fireblocks'
 * references' until they were read once for its thirty-eighth, the opticians' guide's,
 * Mercurius' guides' and the Salesforce agent CLI's reference's until they were read once for
 * its thirty-ninth, the pharmacy's and Tidepool's guides' and the Manticore Search client's and
 * fs-extra's references' until they were read once for its fortieth, the tenants' handbook's,
 * the podcast host's guides' and node-pg-migrate's reference's until they were read once for its
 * forty-first, the home care handbook's, Phaser's guides' and Chart.js's reference's until they
 * were read once for its forty-second, the blood donor guide's and the music festival's, tRPC's
 * and Lighthouse's guides' and Globalize's and BootstrapVue's references' until they were read
 * once for its forty-fourth, the farmers' market traders' guide's, VoltAgent's guides' and
 * eslint-plugin-jsx-a11y's rules' until they were read once for its forty-fifth, the register
 * office's guide's, eve's guides' and ldapjs's reference's until they were read once for its
 * forty-sixth (each file's `heldUntil` says which, and the label repeats it).
 *
 * The sealed sets (sealed/*.json) are held-out sets of the same shape, fetched the same way,
 * written before the engine they judge was changed: they are read once, at the end, so only
 * when asked for (`{ sealed: true }`), and come marked `sealed` as well as `heldOut`. Once read,
 * they move to held-out/ with a `heldUntil`, and new sealed sets take their place. The three
 * sealed in the forty-sixth round, which ended issue 27 with no engine change, wait for the next
 * work that changes the engine.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { KnowledgeBaseSettings } from '../../packages/bot-answer-engine/src/upstream/folder/knowledge-base.js';
import type { FollowUp, Question, QuestionSet } from './sets.js';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const CACHE = join(here, '..', 'out', 'held-out');

/** Docs shipped in an npm package. */
interface PackagedDocs {
  /** The package as `name@version`, fetched exactly. */
  package: string;
  /** The tarball's integrity (`sha512-...`), as the registry gives it. */
  integrity: string;
  /** The docs folder inside the package. */
  dir: string;
}

/** Docs kept in the repository. */
interface FolderDocs {
  /** The docs folder, relative to the set's JSON file. */
  folder: string;
}

type HeldOutFile = (PackagedDocs | FolderDocs) & {
  id: string;
  label: string;
  /** Until when a held-out set was kept from tuning, for its label; `held out until issue 27` when absent. */
  heldUntil?: string;
  settings: KnowledgeBaseSettings;
  questions: Question[];
  offTopic: string[];
  followUps?: FollowUp[];
};

/** Which sets to read: the held-out ones, and the sealed ones too when `sealed`. */
export interface HeldOutOptions {
  sealed?: boolean;
}

type Kind = 'held-out' | 'sealed';

// A kind with no folder (no sealed set written yet) has no sets.
const filesIn = (kind: Kind): Array<HeldOutFile & { kind: Kind }> =>
  (existsSync(join(here, kind)) ? readdirSync(join(here, kind)) : [])
    .filter((name) => name.endsWith('-questions.json'))
    .sort()
    .map((name) => ({ ...(JSON.parse(readFileSync(join(here, kind, name), 'utf8')) as HeldOutFile), kind }));

const files = ({ sealed = false }: HeldOutOptions): Array<HeldOutFile & { kind: Kind }> => [...filesIn('held-out'), ...(sealed ? filesIn('sealed') : [])];

/** Where a set's package is unpacked. */
const packageDir = (file: PackagedDocs): string => join(CACHE, file.package.replace(/[^a-z0-9.@-]/gi, '_'), 'package');

/** The docs folder a set is asked of. */
const docsDir = (file: HeldOutFile & { kind: Kind }): string => ('folder' in file ? join(here, file.kind, file.folder) : join(packageDir(file), file.dir));

/** The held-out sets whose docs are on this machine (see `fetchHeldOut`), marked `heldOut`; with `sealed`, the sealed sets too, marked `sealed`. */
export function heldOutSets(options: HeldOutOptions = {}): QuestionSet[] {
  return files(options)
    .filter((file) => existsSync(docsDir(file)))
    .map((file) => ({
      id: file.id,
      label: `${file.label}; ${file.kind === 'sealed' ? 'sealed: read once' : `${file.heldUntil ?? 'held out until issue 27'}, now tuned on`}`,
      dir: docsDir(file),
      settings: file.settings,
      questions: file.questions,
      offTopic: file.offTopic,
      followUps: file.followUps ?? [],
      heldOut: true,
      ...(file.kind === 'sealed' ? { sealed: true } : {}),
      ...('package' in file ? { package: file.package } : {}),
    }));
}

/**
 * Fetches and unpacks each held-out set's package that is not here yet (with `sealed`, each
 * sealed set's too); a set kept in a folder of the repository needs nothing. A package that
 * cannot be fetched (offline, registry down) or whose integrity differs is left out, and said
 * so in the returned reasons: the other sets still run.
 */
export async function fetchHeldOut(options: HeldOutOptions = {}): Promise<string[]> {
  const problems: string[] = [];
  for (const file of files(options)) {
    if (!('package' in file)) continue;
    const target = packageDir(file);
    if (existsSync(target)) continue;
    const work = `${dirname(target)}.partial`;
    try {
      await rm(work, { recursive: true, force: true });
      await mkdir(work, { recursive: true });
      const { stdout } = await run('npm', ['pack', file.package, '--json', '--pack-destination', work], { cwd: work, maxBuffer: 64 * 1024 * 1024 });
      const [packed] = JSON.parse(stdout) as Array<{ filename: string; integrity: string }>;
      if (!packed || packed.integrity !== file.integrity) throw new Error(`integrity ${packed?.integrity ?? 'missing'}, expected ${file.integrity}`);
      await run('tar', ['-xzf', join(work, packed.filename), '-C', work]);
      await rm(dirname(target), { recursive: true, force: true });
      await rename(work, dirname(target));
    } catch (error) {
      await rm(work, { recursive: true, force: true });
      problems.push(`${file.package}: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  return problems;
}
