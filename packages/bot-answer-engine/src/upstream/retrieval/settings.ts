import type { ColumnWeights } from '../index/kb-index.js';

/**
 * How retrieval ranks and when it answers. Every field has a default (`DEFAULT_RETRIEVAL`);
 * the benchmark turns each idea off in turn to measure what it gains.
 */
export interface RetrievalSettings {
  /** BM25 weight of each field: the title, the heading path and names written as code weigh apart from body text. */
  weights: ColumnWeights;
  /** Weight of a joined form of the question's words (a compound, an identifier) against a word of its own. */
  joinWeight: number;
  /** Candidates are the passages holding every known word of the question when there are any; else those holding any. */
  allWordsFirst: boolean;
  /**
   * Also candidates: the heading paths holding all the question's words but one (the best this
   * many for each word left out), so a page titled with most of the question is found though the
   * question has one word it lacks.
   */
  dropOne: number;
  /** The answer quotes at most one passage per page, so its sources are distinct pages. */
  onePerPage: boolean;
  /**
   * A question word the knowledge base lacks matches the docs' word one typo from it (a word of 6
   * letters or more, not in its first two: `complain`: `complaint`), in full, or failing that, for
   * half, the longer words it begins (`auth`: `authentication`).
   */
  prefix: boolean;
  /**
   * Weight of a word the lexicon relates to a question's word (`lexicon.ts`: "fake" brings
   * "mock") against a word of its own (0: the lexicon is not used), and how much of that word
   * it counts as matching (for the gate).
   */
  lexiconWeight: number;
  lexiconCredit: number;
  /** Weight of the conversation's words (a follow-up's earlier turns) against the question's own. */
  contextWeight: number;
  /**
   * A follow-up (a question asked with a conversation) passes the rules that read the question's
   * own telling words, as a question asked alone does: its passage must match `confidentTelling`
   * of the follow-up's own telling weight, and a telling word of it that no page holds must be
   * matched (`tellingEnough`, `lackedName`). Off: the gate alone decides a follow-up (before
   * round 15), so "Who won the 2018 FIFA World Cup?" asked after a webhook question was answered
   * from the webhooks page.
   */
  followUpTrust: boolean;
  /**
   * A follow-up naming at most this many words of its own (frame words aside: "And for a
   * child?") is too short for its share of telling weight to judge: the conversation carries it
   * past `confidentTelling`; a telling word no page holds still makes it unsure (`followUpTrust`).
   */
  followUpWords: number;
  /**
   * A telling word of a follow-up that no page holds need not be matched when everyday English
   * uses it at least this commonly (`englishRarity` under it; 2: above 5 on the Zipf scale,
   * "waiting", "soon", "normal"): the visitor's own wording of what the conversation is about.
   * Its weight still counts against the follow-up's share (`confidentTelling`). 0: off.
   */
  followUpEveryday: number;
  /**
   * The confidence model judges a follow-up that passes the rules above, on the figures of its
   * passage as ranked with the conversation, and it must be at least this sure (in place of
   * `minConfidence`): a follow-up the docs do not answer ("What is the meaning of life?" after a
   * rate-limit question) matches little of its own beside what the conversation brought, and
   * the model reads that as it does a question's weak match. The model is the follow-ups' own
   * (`followUpModel`), hence a bar of its own. A follow-up not answered so is decided again as
   * its words asked alone (answered when they are: a follow-up changing the subject); one it is
   * not sure of shows first the page it would have answered from. 0: off, the rules above alone
   * decide a follow-up (round 15).
   */
  followUpConfidence: number;
  /**
   * The model judging a follow-up is one fitted on follow-ups (`FOLLOW_UP_MODEL`: the tune
   * halves' follow-ups and their unanswerable questions asked after a confident answer), not the
   * questions' (`CONFIDENCE_MODEL`), whose weights read a question's own words. Off: the
   * questions' model at `followUpConfidence` (round 16).
   */
  followUpModel: boolean;
  /**
   * A follow-up's relief from the rules on its own words (its share of telling weight waived for
   * few own words, `followUpWords`; an everyday word no page holds, `followUpEveryday`) holds
   * only for a passage the conversation helped find, one matching at least one of its words. A
   * passage its own words alone found is judged by the rules of the same words asked alone: "Can
   * I bring my dog to the office?" after a travel question matched the office guide by "bring"
   * and "office", no word of the conversation's, and was answered for "dog" being everyday.
   * Off: any passage (round 17).
   */
  followUpCarried: boolean;
  /**
   * A follow-up that leans on the question before it (`refersBack`: "what about my cat?", "Can I
   * stop it whenever I want?") and that no page relates by its own words (no page holds "cat") is
   * "not sure" with the pages the conversation's words rank first (at most `relatedPages`), not
   * refused with nothing: the visitor is still on the subject the last answer was about. A
   * follow-up asking a question of its own ("What is the capital of Australia?") is still refused.
   * Off: refused (before round 38).
   */
  followUpRelated: boolean;
  /** Most of the conversation's words used: the most telling. */
  contextTerms: number;
  /**
   * Words in most passages ("log" in a logger's docs) are left out of the search, but a candidate
   * holding one matches it for the gate: a question is not refused for a word it shares with
   * everything.
   */
  commonInGate: boolean;
  /** Share of the scores of a passage's page's other matching passages it gains (each counting `pageDecay` of the one before). 0: off. */
  pageWeight: number;
  pageDecay: number;
  /**
   * Within each page, its passages are ordered by score x (1 + this x the share of the
   * question's telling weight their body text matches) and take the page's scores in that
   * order: the section whose text holds the question's telling words comes first, and the page
   * ranks among the others as before. 0: off.
   */
  sectionTelling: number;
  /**
   * Every passage's score x (1 + this x the share of the question's telling weight its body
   * (code, text and joined forms, not the heading path) matches), and the pages ranked by it: a
   * section whose headings share the question's common words no longer outranks, on another
   * page, one whose text holds its telling words. 0: off, the default: it puts the right page
   * first more often, but with the confidence model fitted again for it more unanswerable
   * questions are answered on the eval halves (bench/retrieval/rounds.md, "Confident when right, round 11").
   */
  bodyTelling: number;
  /** Passages scored per question. */
  candidates: number;
  /** Most passages an answer quotes. */
  maxPassages: number;
  /**
   * The relevance gate. The best passage must match all the question's words (at least
   * `fullCoverage` of it, by rarity) with `fullStrength`, or two of its words or more covering
   * `minCoverage` with `minStrength`: one common word matched is not an answer, and neither is
   * one word of several; a question missing one of its words can still be. The strength bar
   * is what keeps a far-off question sharing a few everyday words with the docs ("How do I fix
   * my car engine?") from the model, which can be sure of such a passage; the coverage bar can be
   * lower (0.25, was 0.3) since the model judges what passes (bench/retrieval/rounds.md, "Confident when
   * right, round 12 (the gate's bars)").
   */
  minCoverage: number;
  minStrength: number;
  /**
   * A passage whose heading path (`headTelling`) matches a word of the question, and which
   * matches two of its words as themselves (not by a prefix, a typo fixed or the lexicon),
   * passes the gate's strength bar at this lower one (0: never): words common in the docs,
   * under a heading naming what is asked, where a far-off question's common words ("How do I
   * fix my car engine?") meet in a body alone.
   */
  headedStrength: number;
  /**
   * A passage whose heading path holds at least this share of the question's telling weight
   * passes the gate on one word of a question of several matched as itself, whatever its strength
   * (with `minCoverage`): the page's heading naming the thing asked about ("How do I stop my
   * *membership*?" under "Memberships") is the page saying it is about it, where one common
   * word met in a body says little. A question of one word is not read so: its word is all of
   * its telling weight, whatever heading holds it ("What time is it?"). The model and the rules
   * after it still judge. 0: off.
   */
  headedGate: number;
  fullCoverage: number;
  fullStrength: number;
  /** "All the question's words" means each matched as itself (or a joined form), not by a prefix, a typo fixed or the lexicon. */
  fullExact: boolean;
  /** "All the question's words" leaves out the words that frame a question ("how do I *make* ..."). */
  frameWords: boolean;
  /** Passages after the best must score at least this share of its score. */
  relativeScore: number;
  /**
   * The gate decides whether to answer, the score what comes first: the passages chosen are given
   * best score first, though the one that passed the gate scored lower than another chosen.
   */
  gateDecides: boolean;
  /**
   * A confident answer the model judged (`minConfidence`) quotes the passage judged first, though
   * another page's passage chosen beside it scores higher: the confidence is that passage's, and
   * the one scoring higher did not pass the gate (a page whose headings share the question's
   * words outscoring the one whose text answers: `sails.log` over `sails.config.log`'s table for
   * "the default log level"). With the gate alone deciding (a follow-up, `minConfidence` 0),
   * `gateDecides` orders them.
   */
  judgedFirst: boolean;
  /** Least share of the question's telling weight (`SearchHit.telling`) a passage must match to answer; 0: off. */
  confidentTelling: number;
  /**
   * Least confidence (`confidence.ts`: how clearly its page wins, how much of the question it
   * and its page match, its headings) of the passage it would answer from (`Decision.judged`)
   * for a confident answer; below it, not sure. It stands in for a hand-set rival margin and,
   * for a passage that matches every telling word the docs lack, for `confidentTelling`. 0: off,
   * the gate alone decides. A follow-up is decided by the gate alone (its scores are not the
   * question's own).
   */
  minConfidence: number;
  /**
   * Least share a page must match (its passages together, or its best one without `relatedByPage`)
   * to count as a related page when nothing answers; below it on every page, the question is
   * refused. The pages counted by this and the rules below decide a "not sure" answer's first
   * page and how many pages it shows; the pages after the first are `relatedFusion`'s.
   */
  relatedTelling: number;
  /** Most related pages given when not sure. */
  relatedPages: number;
  /** A page is related by what its passages match together (`relatedTelling`, `minStrength`), not by its best passage alone. */
  relatedByPage: boolean;
  /** A "not sure" answer counts the page scoring best among its pages (it may be first), whatever the related pages' bar. */
  relatedBest: boolean;
  /**
   * The page scoring best is related whatever the strength of the words it matches (the share,
   * `relatedTelling`, still holds) when its best passage scores at least this many times the
   * best of any other page: a page that stands out on the question's everyday words ("How long
   * must my password be?": the password policy's "Password requirements") is worth showing,
   * where a far-off question's words are scattered over several pages. 0: off.
   */
  relatedStandout: number;
  /**
   * A page is related whatever the strength of the words it matches (the share, `relatedTelling`,
   * still holds) when one of its passages matches at least this many of the question's words as
   * themselves, leaving out the words that frame a question and those in most passages: in a
   * small folder a topic's own words ("swimming", "lessons") are in many passages and weak one by
   * one, where a far-off question shares one word with the docs ("life", "Lisbon"). 0: off.
   */
  relatedWords: number;
  /**
   * A "not sure" answer counts the page whose passage matches the most of the question's telling
   * weight (`SearchHit.telling`), in the place of the lowest-scoring page other than the best
   * and the one it would have answered from (so it may be first, and the one it replaces not):
   * a page whose headings share the question's common words outscores the one whose text holds
   * its telling words.
   */
  relatedMostTelling: boolean;
  /**
   * A "not sure" answer's first page is, of the pages counted, the one whose passage scores best
   * x the share of the question's telling weight it matches (ties: by score), not the one scoring
   * best: the page first is the one both close and about the question's telling words.
   */
  relatedOrderTelling: boolean;
  /**
   * A "not sure" answer counting fewer pages than `relatedPages` also counts, in its free places,
   * the best-scoring pages not counted that score at least this share of the best page's score
   * and match the related pages' share (`relatedTelling`) by their passages together, whatever
   * the strength of their words: two pages sharing the question's words alike ("stop casting
   * mocks with 'as jest.Mock'": `valid-mock-module-path` and `prefer-jest-mocked`), the one the
   * related pages' rules let in counted, the other not. It decides how many pages show (which
   * follow the first is `relatedFusion`'s), and never turns a refusal into "not sure" (an answer
   * with no page counted has no free place). 0: off.
   */
  relatedFill: number;
  /**
   * A "not sure" answer showing two pages or more gives the places after its first (as many as
   * the rules above count) to the candidates' pages in the order of rankings fused by their
   * reciprocal ranks (1 / (this + rank), summed): by the page's best score x the most of the
   * question's telling weight one of its passages matches, and by that share alone (and by its
   * best score, `relatedFusedScore`). The rules choose how many pages are worth showing and which
   * first; the fused ranking, which others: a page whose text holds the question's telling words
   * but scores lower (a long page, its words spread) is found among the pages sharing the
   * question's common words. The page judged and the one that outmatched it keep no place of
   * their own (keeping them: fewer links, bench/retrieval/rounds.md, "Which page, round 13 (recall)"). It
   * is the only way the pages after the first are chosen: there is no "off".
   */
  relatedFusion: number;
  /**
   * `relatedFusion` fuses a third ranking with its two: by the page's best score alone. A page
   * closest to the question's words whose telling share is low (the telling word is one the docs
   * lack: "Airbnb", "6ft 6", "2am"; or the everyday word it matches is in its title: "car" on
   * "Our cars") ranks low by both telling rankings, under pages sharing a more telling word in a
   * passing mention; by its score it keeps a place among them. Which page is first is not
   * changed (`relatedFusedFirst` still reads the two telling rankings).
   */
  relatedFusedScore: boolean;
  /**
   * A "not sure" answer showing two pages or more puts first the page first in both of
   * `relatedFusion`'s rankings (by its best score x the most telling share of its passages, and
   * by that share; ahead of every other candidate page in each, ties not), when the rules chose
   * another: that one follows it. The rules' first is the best by score x telling share among
   * the pages they count, by the passage counted; a page clearly both closest and most about
   * the question's telling words, which a passage of it other than its best-scoring one may
   * match, or which no rule counted, is the likelier page.
   */
  relatedFusedFirst: boolean;
  /**
   * A "not sure" answer's pages after the first skip a copy of a page already placed (its best
   * candidate passage says the same, as `#sameText` judges: a page copied, a mirror, another
   * version), while other pages are left: a copy shows nothing new, and takes the place of a
   * page that might be the right one. The copies follow the other pages, within the count.
   */
  relatedDistinct: boolean;
  /**
   * The question's telling words: those weighing at least this share of its most telling one
   * (IDF times English rarity). A passage answers only when it matches each of them with at
   * least `tellingCredit` (1: as itself or a joined form; 0.5: by a typo fixed, a prefix or the lexicon). 0: off.
   */
  tellingWordShare: number;
  tellingCredit: number;
  /** Only the telling words the docs lack (in no passage) must be matched (by a typo fixed or the lexicon); those the docs hold elsewhere count by their weight alone. */
  tellingLacking: boolean;
  /**
   * A word holding a digit the docs lack ("2am", "130g/km", "120") is no telling word: it is a
   * value the question gives, not a topic the docs would name, and English has no rarity for it
   * (it weighs as the rarest word). It still weighs in the question's telling shares, which the
   * confidence model reads (`minConfidence`).
   */
  tellingValues: boolean;
  /** A passage matching at least this share of the question's telling weight answers though a telling word is unmatched ("tries" in "when it tries to push the new tag"); 0: off. */
  tellingEnough: number;
  /**
   * The `tellingEnough` bar for a question asked alone that does not ask yes or no (0: `tellingEnough`'s; `tellingEnough` 0 turns both off):
   * a yes/no question's word the docs lack is often the thing it asks about ("Can I bring my
   * *dog* to the office?"), which a passage matching the rest cannot affirm. It holds while
   * another page matches a word of the question (the pages were compared, as `tellingLone`).
   */
  tellingEnoughOpen: number;
  /**
   * A question asked alone that a telling word the docs lack left "not sure", with one page
   * only worth showing though its words find other pages too, is decided again with that word
   * waived (a name `lackedName` keeps is still not): when the related pages' rules set the
   * other pages aside and the rest of the question points at one, the word it lacks is how the
   * asker says it ("nurse", "toddler", "bin men"), not another topic sharing the docs' words,
   * which relates several of their pages. Where its words find no other page, there is nothing
   * set aside, and the word still counts ("Where do lions sleep at the zoo?" over one page on
   * lions). The model and the other rules still judge (with the gate alone deciding,
   * `minConfidence` 0, it is not applied), and the answer must come from that page.
   */
  tellingLone: boolean;
  /**
   * A telling word the docs lack that is no English word, nor written as a name, is taken for a
   * misspelling ("lsit", "permision"): a passage holding a term of the docs one edit from it
   * ("list", "permission": any such term, not only the most frequent the typo fix takes) matches
   * it for the telling-word rule (`tellingLacking`). Its English rarity (no entry in the list) is what tells a slip of the
   * keys from a word of another topic one edit from the docs' ("wine" and "wipe", "roll" and
   * "role"), which the rule must still stop. Retrieval is unchanged (see `prefix`).
   */
  tellingMisspelt: boolean;
  /**
   * A passage missing only telling words the docs lack that English uses mostly as other than a
   * noun (`mostlyNotNoun`: a verb, an adjective, an adverb), or as a noun naming only a person or
   * a time (`namesPersonOrTime`), answers when the model is at least this sure of it: such a word
   * tells how the asker is placed ("How *far* ahead can I book", "my window won't open
   * *properly*", "the house we've just *bought*", "my *son* broke my laptop", "time off for the
   * *summer*"), while another noun the docs lack names what is asked about ("Are *dogs*
   * allowed", "the company *VPN*"), which a passage matching the rest cannot answer
   * (`tellingLacking`). A name, and a word the lexicon lacks, count as nouns of a topic. 0: off.
   */
  tellingNouns: number;
  /**
   * A word no page holds, that English lacks, whose stem hides a slip of the keys ("chnage" stems
   * to itself, two edits from "change"'s "chang"; "cirlce" to a stem too short for the typo fix),
   * is read as the most common English word one edit from it as written, keeping its first
   * letter, whose stem the docs hold (`misspeltWord`): for retrieval as the typo fix reads, and
   * for the telling-word rule as `tellingMisspelt` reads. Off: the stems alone (round 38).
   */
  misspeltWords: boolean;
  /**
   * A name of the question (`namedTerms`) that the docs lack and that is at least this rare in
   * everyday English (`englishRarity`) must be matched whatever `tellingEnough` and `tellingLone`
   * say: "How do I use Turborepo with a Java *Maven* build?" asks about Maven, however much of
   * the rest a guide on other languages matches, and "Can I book a meeting room in the *Paris*
   * office?" asks about an office the docs never name, however well the Lisbon office's rooms
   * match the rest. 0.25 (the scale's floor): every such name, however common in English
   * ("Paris", "Berlin", "Chinese": a name written in a question and in no page is what the
   * answer would be wrong about); 3: only the rare ones (before round 19). 0: off.
   */
  lackedName: number;
  /**
   * A name the question writes in mixed case ("How do I send a *WhatsApp* message?", `iPhone`,
   * `mixedCaseNames`) that no page holds whole, in any form, leaves no passage to answer from:
   * the analyser splits it into parts ("whats", a stop word, and "app", on many pages), which
   * pages about something else match, while the name itself is what the question asks about.
   */
  wholeNames: boolean;
  /**
   * A confident answer needs no passage of another page, scoring at least 0.6 of it, that
   * matches at least this much more of the question's telling weight: the page whose headings
   * share the question's common words wins the score while another's text holds its telling
   * ones (sails' `sails.log` over `sails.config.log` for "the default log level"). Such a close
   * call is "not sure" (that page is counted, and may be first; the pages after the first are
   * `relatedFusion`'s, which often hold it, but it keeps no place of its own). It joins the confidence (`minConfidence`):
   * with the gate alone deciding, it is not checked. 0: off.
   */
  tellingRival: number;
  /**
   * A twin: a passage of another page (not a copy of its text) matching the very same words of
   * the question and scoring within this margin of the answer's (ln of the score ratio). Two
   * pages saying the same words alike (a guide and its reference page, two sibling API pages)
   * are a coin toss for the score: with a twin, an answer the model is only just sure of
   * (under `twinConfidence`) is "not sure", both pages counted. It joins the confidence
   * (`minConfidence`): with the gate alone deciding, it is not checked. 0: off.
   */
  twinMargin: number;
  /** With a twin (`twinMargin`), the least confidence a confident answer needs (0: a twin always makes it not sure). */
  twinConfidence: number;
  /**
   * A question asked alone left "not sure" with a passage judged (the model not sure of it, or a
   * rule after it) whose first page shown is another (the page both close and about the
   * question's telling words, which the related pages' rules put first) has that page's passage
   * judged too, when it passes the gate and matches every telling word the docs lack and every
   * name asked: answered from it when the model is at least this sure of it and the rules after
   * the model pass (`tellingRival`, `twinMargin`, `numberedInPassage`, `writtenOnPage`,
   * `pricedInPassage`, `yesNoTelling`). The passage judged is the best that passed the gate,
   * which a page whose headings share the question's common words can be; the page shown first
   * is the likelier one, and the model can be sure of it where it was not of the other. Higher
   * than `minConfidence`: a second reading must be surer than the first. 0: off.
   */
  shownFirstConfidence: number;
  /**
   * A confident answer's page must match each name of the question (a word it writes with a
   * capital where no sentence begins, not an acronym: "Unity", "Phantom", `namedTerms`) that the
   * docs hold and that weighs at least this share of its most telling word: a name the docs
   * hold only on other pages is what the question is about, however common its lower-case form
   * ("How do I export my A-Frame scene into a Unity project?"). Else the answer is "not sure",
   * its page shown. 0: off.
   */
  namedOnPage: number;
  /**
   * A confident answer's passage must hold each number the question writes after a word ("How do
   * I enable *HTTP/3*?", "Node 14", `numberedWords`) when the candidate passages write that word
   * with another number ("HTTP/2"): the docs name other versions, and a passage without the one
   * asked about speaks of something else. Else the answer is "not sure", its page shown.
   */
  numberedInPassage: boolean;
  /**
   * A confident answer's page must write each name the question writes as a package or an
   * identifier is written (in mixed case or with a dot, "generateText", "app.param"; hyphenated
   * words ending a clause, "retries in node-fetch?": `writtenNames`) as written, in any case, in
   * the passages found for it: a page matching only the name's parts ("generate", "text",
   * "node", "fetch") or its stem ("param") is about something else. Else the answer is "not
   * sure", its page shown.
   */
  writtenOnPage: boolean;
  /**
   * With `writtenOnPage`, two or more capitalised words in a row that no article comes before are
   * such a name too (`capitalisedPhrases`: "like Great Skerry?"), to be written together: a page
   * holding its words apart ("Skerry Ferries") is about something else.
   */
  writtenPhrases: boolean;
  /** With `writtenOnPage`, a follow-up's answer must write the names the follow-up's own words write too. */
  writtenFollowUps: boolean;
  /**
   * A confident answer to a question asking a price (`asksPrice`: "How much is a day pass?",
   * "What does it cost?") must quote a passage stating a figure or "free": a passage about the
   * thing that names no price speaks around it ("How much does the council charge to collect an
   * old fridge?" over the bulky-waste note), and the docs that state a price state it with the
   * thing. Else the answer is "not sure", its page shown.
   */
  pricedInPassage: boolean;
  /**
   * A yes/no question (`asksYesNo`: "Can I get a discount on Flex...?") whose passage judged
   * matches under this share of its telling weight is answered confidently only when the model
   * is at least `yesNoConfidence` sure: a passage holding some of the thing asked about seldom
   * says yes or no to it, and where the model is only just sure it is a coin toss. Else the
   * answer is "not sure", its page shown. 0: off.
   */
  yesNoTelling: number;
  /** The least confidence for a yes/no question's answer under `yesNoTelling` (the twins' bar, `twinConfidence`). */
  yesNoConfidence: number;
  /**
   * A confident answer's best section is quoted with at most this many of its subsections
   * among the candidates (best score first) that hold a word of the question in their own
   * heading or text, under its link: the fact often sits a level below the heading that names
   * the topic (a heading over a line, or a page's bare opening). 0: off.
   */
  subsections: number;
  /**
   * A confident answer whose first page's quoted sections are short (their cleaned text under
   * 300 characters in all) also quotes that page's best other candidate holding a word of the
   * question in its own heading or text, linked as itself, when it scores at least this share of
   * the first passage and the answer cites fewer passages than it may (`maxPassages`; else see
   * `shortSectionFull`): on a page of short sections the fact asked for often sits in the section
   * next to the one that names the topic, and the answer has room for it. It reads the page's candidates `subsections`
   * reads (none when that is 0). 0: off.
   */
  shortSection: number;
  /**
   * A question asking for no figure (`answerType` none) brings, as one asking for a figure
   * does, the first page's other candidate whose names in code (code spans, command-line flags:
   * the `code` type of `answer-type.ts`) sit beside a word of the question that no such unit of
   * the quoted sections holds: the section stating the option or command, where the quoted one
   * names the topic. After the first page's passages, linked as itself, while the answer cites
   * fewer passages than it may. false: off.
   */
  codeSection: boolean;
  /**
   * `shortSection` also where the answer already cites all it may (`maxPassages`), for a
   * candidate scoring at least this share of the first passage (and `shortSection`'s): the
   * section added is the first page's, so no other page loses its place among the sources, and
   * the first page's quoted sections are short, so it has room beside them. 0: off.
   */
  shortSectionFull: number;
  /**
   * A question writing a number ("my 16 year old", "do I still pay for 7?") that no quoted
   * section of the first page holds brings that page's best other candidate holding it, scoring
   * at least this share of the first passage, after the first page's passages, linked as itself:
   * the section stating the rule for that number. While the answer cites fewer passages than it
   * may, or whatever it cites under `numberSectionFull`. 0: off.
   */
  numberSection: number;
  /** `numberSection` also where the answer already cites all it may (`maxPassages`). */
  numberSectionFull: boolean;
  /**
   * The first page's best other candidate whose own heading holds a telling word of the question
   * (in at most half the passages) that no quoted section of the page holds in its own heading,
   * scoring at least this share of the first passage and short (`headedSectionChars`): after the
   * first page's passages, linked as itself, while the answer cites fewer passages than it may,
   * or whatever it cites under `headedSectionFull`. A heading names what its section tells: the
   * sibling headed by the question's word ("Step 3: an appeal", "Exporting") states the fact
   * where the section quoted names the topic. 0: off.
   */
  headedSection: number;
  /** `headedSection` also where the answer already cites all it may (`maxPassages`). */
  headedSectionFull: boolean;
  /** `headedSection`'s candidate at most this many characters of cleaned text. 0: any length. */
  headedSectionChars: number;
}

/** The settings in use, measured on the tune half of the evaluation sets (bench/README.md). */
export const DEFAULT_RETRIEVAL: RetrievalSettings = {
  weights: { title: 2.5, headings: 2, code: 1.5, body: 1, joined: 1, path: 2 },
  joinWeight: 0.25,
  allWordsFirst: true,
  dropOne: 5,
  onePerPage: true,
  prefix: true,
  lexiconWeight: 0.4,
  lexiconCredit: 0.5,
  contextWeight: 0.75,
  followUpTrust: true,
  followUpWords: 1,
  followUpEveryday: 2,
  followUpRelated: true,
  followUpConfidence: 0.4,
  followUpModel: true,
  followUpCarried: true,
  contextTerms: 8,
  commonInGate: true,
  pageWeight: 0.4,
  pageDecay: 0.5,
  sectionTelling: 0.3,
  bodyTelling: 0,
  candidates: 60,
  maxPassages: 3,
  minCoverage: 0.25,
  minStrength: 1,
  headedStrength: 0.85,
  headedGate: 0.5,
  fullCoverage: 0.55,
  fullStrength: 0.5,
  fullExact: true,
  frameWords: true,
  relativeScore: 0.5,
  gateDecides: true,
  judgedFirst: true,
  confidentTelling: 0.5,
  minConfidence: 0.5,
  relatedTelling: 0.2,
  relatedPages: 3,
  relatedByPage: true,
  relatedBest: true,
  relatedStandout: 3,
  relatedWords: 2,
  relatedMostTelling: true,
  relatedOrderTelling: true,
  relatedFill: 0.5,
  relatedFusion: 5,
  relatedFusedScore: true,
  relatedFusedFirst: true,
  relatedDistinct: true,
  tellingWordShare: 0.7,
  tellingCredit: 0.5,
  tellingLacking: true,
  tellingEnough: 0.6,
  tellingEnoughOpen: 0.55,
  tellingLone: true,
  tellingMisspelt: true,
  tellingNouns: 0.8,
  misspeltWords: true,
  tellingValues: false,
  lackedName: 0.25,
  wholeNames: true,
  tellingRival: 0.2,
  twinMargin: 0.15,
  twinConfidence: 0.6,
  shownFirstConfidence: 0.75,
  namedOnPage: 0.5,
  numberedInPassage: true,
  writtenOnPage: true,
  writtenPhrases: true,
  writtenFollowUps: true,
  pricedInPassage: true,
  yesNoTelling: 0.75,
  yesNoConfidence: 0.6,
  subsections: 1,
  shortSection: 0.5,
  codeSection: true,
  shortSectionFull: 0.5,
  numberSection: 0.5,
  numberSectionFull: true,
  headedSection: 0.95,
  headedSectionFull: true,
  headedSectionChars: 600,
};
