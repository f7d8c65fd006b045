import { processTerm } from './analyzer.js';

/**
 * A small lexicon of documentation: groups of words that name the same thing, or things a reader
 * looks for under each other's name ("fake" for a mock, "pause" for sleep, "folder" for
 * directory), then the everyday words a help centre's or a handbook's visitor writes for what its
 * pages name ("my son" for a child, "cheaper" for a discount, "stuff" for belongings, British and
 * American spellings and names). Written from general knowledge for any documentation, not for one
 * folder; the words added in round 35 (the groups after the sign-up one, and a few words of earlier
 * groups) from the words the tuning sets' missed questions lack, each one any site's visitor may
 * write (bench/retrieval/rounds.md, "Words the misses lack, round 35"). A question's word brings the other
 * words of its groups, weighing less than its own words (`RetrievalSettings.lexiconWeight`), and
 * only those the knowledge base holds. The word must be one the groups write, or its inflection: a
 * word sharing only its stem ("terminal", "terminate") means something else, so a derived word
 * meant too is written in its group ("configure" beside "configuration").
 */
const GROUPS = `
mock fake stub spy
sleep pause wait delay
start launch boot serve
restart reload
watch hot
disable deactivate turn-off suppress silence mute
enable activate turn-on
colour color colourful colorful colorize colourise
pretty prettify readable
verbose verbosity level
redact mask censor obfuscate scrub hide
password secret credential sensitive
delete remove erase unset
uuid guid
connection connect socket
environment env
configuration configure config
directory folder dir subfolder subdirectory
write save persist
copy clone duplicate
limit max maximum cap highest largest biggest longest
timeout deadline
parallel concurrent concurrently simultaneous
cron schedule scheduled hourly daily periodic recurring
encrypt encryption cipher
hash digest checksum
compress compression gzip deflate brotli zip shrink
authentication authenticate auth login signin
authorization authorize authorisation authorise permission
error exception failure
retry retries reattempt backoff
cache caching memoize
queue queued pending backlog
stats statistics metrics counters
install installation setup
upgrade update migrate migration
dependency dependencies package module library
bundle bundler bundling
executable binary standalone
deploy deployment ship publish hosting
docker container
print output stdout console
input stdin
spawn subprocess exec command shell
signal sigterm sigint kill
exit quit shutdown terminate
flush drain
pipe stream
websocket websockets ws
sse eventsource server-sent
serialize serialise stringify
parse parser parsing
timestamp date clock
random uuid nonce
query querystring param params parameter parameters searchparams
cookie cookies session
cors cross-origin
https tls ssl certificate cert
database db
validate validation schema
typescript typings
format formatter formatting
lint linter
debug debugger breakpoint inspect
benchmark benchmarks performance perf throughput
memory heap leak
plugin plugins extension addon middleware
hook hooks lifecycle
route routes routing endpoint
upload multipart
download
email mail
translation translate locale i18n internationalization
search lookup
sort order
pagination paging paginate
redirect redirects redirection 301 302 303 307 308
notfound 404
unauthorized 401
forbidden 403
ratelimit 429 throttle throttling
network net
request req
response res reply replies
message msg
error err
arguments argument args argv
package pkg
repository repo
milliseconds ms
number num
string str
integer int
boolean bool
object obj
function fn func
callback cb
temporary tmp temp
source src
destination dest
minimum min lowest smallest shortest youngest
length len
context ctx
options option opts
initialize initialise init
synchronous sync
asynchronous async
execute exec
specification spec
utility util utils
production prod
development dev
child children kid son daughter youngster toddler
parent mum mom mother dad father guardian
baby infant
elderly senior pensioner retired
friend mate buddy companion
partner spouse husband wife girlfriend boyfriend
price cost fee charge expensive dearer
cheaper discount concession reduced reduction
afford hardship
refund reimburse reimbursement
belongings stuff possessions
jab vaccination vaccine vaccinate immunisation immunization injection
sick illness unwell poorly
doctor gp physician
phone telephone smartphone
jumper sweater sweatshirt
trousers pants
toilet loo bathroom restroom washroom
nappy diaper
pram pushchair buggy stroller
rubbish trash garbage litter
flat apartment
lift elevator
holiday vacation
bill invoice
car vehicle
bike bicycle
broken faulty damaged damage scrape scratch dent
late overdue
spreadsheet csv excel
sign-up register registration enrol enroll enrolment
confirm confirmation approve approval
sideways horizontal horizontally
gap spacing gutter
tweak customize customise customization customisation modify
swap switch exchange
provider supplier
clash conflict collide collision
circular cycle cyclic
tolerance epsilon
throwaway disposable burner
vs versus
yearly annual annually
cancel cancellation quit
shut close closed closing closure
grandparent grandma grandmother granny nan grandpa grandfather
luggage baggage suitcase bag
alcohol alcoholic booze wine beer
taxi cab minicab
photo photograph picture pic
medicine medication tablets pills prescription antibiotics
advertising advertiser advert ads marketing
loud noisy noise
hire rent rental
chemist pharmacy pharmacist
sublet sublease subletting airbnb
pregnant pregnancy expecting
wheelchair accessible accessibility
nap sleep
colleague coworker co-worker
university uni
deliver delivery
abandon abandoned dump dumped
forever permanently permanent indefinitely
intro introduction induction introductory
nearest closest nearer closer
goalkeeper goalie
neighbour neighbor
grey gray
metre meter
litre liter
centre center
flavour flavor
favourite favorite
behaviour behavior
practise practice
licence license
recognise recognize
organise organize organisation organization
analyse analyze
catalogue catalog
programme program
enquiry inquiry
optimise optimize optimisation optimization
minimise minimize
maximise maximize
visualise visualize
normalise normalize
summarise summarize
prioritise prioritize
categorise categorize
personalise personalize
standardise standardize
`;

/** Each word's term, with the terms of the words it shares a group with. */
const RELATIVES: ReadonlyMap<string, readonly string[]> = (() => {
  const relatives = new Map<string, Set<string>>();
  for (const line of GROUPS.split('\n')) {
    const terms = [...new Set(line.split(/\s+/).map((word) => processTerm(word.replace(/-/g, '')) ?? '').filter(Boolean))];
    for (const term of terms) {
      const known = relatives.get(term) ?? new Set<string>();
      for (const other of terms) if (other !== term) known.add(other);
      relatives.set(term, known);
    }
  }
  return new Map([...relatives].map(([term, set]) => [term, [...set]]));
})();

/**
 * Each term's words as the groups write them, with their inflections: the words a question may
 * write for the entry. Other words share a stem with them and mean something else ("terminal"
 * with "terminate", "quite" with "quit", "page" with "paging", "type" with "typings").
 */
const WRITTEN: ReadonlyMap<string, ReadonlySet<string>> = (() => {
  const written = new Map<string, Set<string>>();
  for (const word of GROUPS.split(/\s+/)) {
    const plain = word.replace(/-/g, '').toLowerCase();
    const term = processTerm(plain);
    if (!term) continue;
    const forms = written.get(term) ?? new Set<string>();
    for (const form of inflections(plain)) forms.add(form);
    written.set(term, forms);
  }
  return written;
})();

/** A word and its regular inflections: plural or third person, past, present participle. */
function inflections(word: string): string[] {
  const forms = [word, `${word}s`, `${word}es`, `${word}ed`, `${word}ing`];
  if (word.endsWith('e')) forms.push(`${word}d`, `${word.slice(0, -1)}ing`);
  if (/[^aeiou]y$/.test(word)) forms.push(`${word.slice(0, -1)}ies`, `${word.slice(0, -1)}ied`);
  // A short vowel before the last consonant doubles it: "ship", "shipped", "shipping".
  if (/(^|[^aeiou])[aeiou][bdgklmnprt]$/.test(word)) forms.push(`${word}${word.at(-1)}ed`, `${word}${word.at(-1)}ing`);
  return forms;
}

/**
 * The terms the lexicon relates to a term (the analyzer's: lower case, stemmed), none when it has
 * none. With `written`, the word as the question writes it: only a word of the group or its
 * inflection brings them, not another word of the same stem ("terminal" brings no "exit").
 */
export function relativesOf(term: string, written?: string): readonly string[] {
  if (written !== undefined && !WRITTEN.get(term)?.has(written.toLowerCase())) return [];
  return RELATIVES.get(term) ?? [];
}
