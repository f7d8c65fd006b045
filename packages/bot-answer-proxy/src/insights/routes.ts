import type { RateLimiterMemory as MemoryLimiter } from 'rate-limiter-flexible';
import type { RequestContext } from '../proxy/context.js';
import { ProxyError } from '../proxy/errors.js';
import { clientAddressOf, memoryRateLimiter } from '../proxy/rate-limit.js';
import { readRequestText } from '../proxy/request-body.js';
import { INSIGHTS_CSS, INSIGHTS_JS } from './assets.js';
import { InsightsAuth } from './auth.js';
import { CSV_HEADER, csvLine } from './csv.js';
import { INSIGHTS_CSP, insightsPage, signInPage, unavailablePage } from './page.js';
import { buildReport, PERIODS, periodFilter } from './report.js';
import type { ExportCursor, InsightsStore } from './types.js';

/** Failed sign-ins (wrong token, by form or header) allowed per client address per minute. */
const FAILED_SIGN_INS_PER_MINUTE = 10;
const EXPORT_PAGE_ROWS = 1_000;
const encoder = new TextEncoder();

const HTML_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': INSIGHTS_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  // Same-origin: the sign-in form's post carries its Origin; links out carry no referrer.
  'referrer-policy': 'same-origin',
};

const ASSETS: Record<string, { body: string; type: string }> = {
  '/insights.css': { body: INSIGHTS_CSS, type: 'text/css; charset=utf-8' },
  '/insights.js': { body: INSIGHTS_JS, type: 'text/javascript; charset=utf-8' },
};

/** A refusal of an insights route, as JSON (scripts read it) with the challenge a client expects. */
function unauthorized(ctx: RequestContext, wrongToken: boolean): Response {
  const challenge = wrongToken ? 'Bearer realm="insights", error="invalid_token"' : 'Bearer realm="insights"';
  return ctx.fail(new ProxyError(wrongToken ? 'insights_wrong_token' : 'insights_signed_out'), { 'www-authenticate': challenge });
}

/**
 * The owner's routes under the insights path: the page (`GET`), its stylesheet and script, the
 * sign-in form (`POST /sign-in`), sign-out, and the CSV export. Every route but the two assets
 * takes `Authorization: Bearer <token>` or the session cookie the sign-in form sets.
 */
export class InsightsRoutes {
  private readonly auth: InsightsAuth;
  private readonly failures: MemoryLimiter = memoryRateLimiter(FAILED_SIGN_INS_PER_MINUTE);

  constructor(
    private readonly store: InsightsStore,
    token: string,
    private readonly base: string,
    /** Opens the store before its first read (the recorder's open, shared). */
    private readonly ready: () => Promise<void>,
  ) {
    this.auth = new InsightsAuth(token);
  }

  async route(ctx: RequestContext): Promise<Response> {
    const { request, url } = ctx;
    ctx.record.outcome = 'insights';
    const sub = url.pathname.slice(this.base.length);
    const asset = ASSETS[sub];
    if (asset) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return ctx.fail(new ProxyError('method_not_allowed'), { allow: 'GET, HEAD' });
      return ctx.respond(200, asset.body, { 'content-type': asset.type, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' });
    }
    if (url.searchParams.has('token') || url.searchParams.has('access_token')) throw new ProxyError('insights_token_in_url');
    if (sub === '/sign-in') return this.signIn(ctx);
    if (sub === '/sign-out') return this.signOut(ctx);
    if (sub !== '' && sub !== '/questions.csv') throw new ProxyError('not_found');
    if (request.method !== 'GET' && request.method !== 'HEAD') return ctx.fail(new ProxyError('method_not_allowed'), { allow: 'GET, HEAD' });
    const who = await this.who(ctx);
    if (who instanceof Response) return who;
    if (who === 'anonymous') {
      // A browser goes to the sign-in form; a script gets 401.
      if (sub === '') return ctx.respond(303, null, { location: `${this.base}/sign-in`, 'cache-control': 'no-store' });
      return unauthorized(ctx, false);
    }
    const filter = this.filter(ctx);
    if (sub === '') return this.page(ctx, filter);
    return this.csv(ctx, filter);
  }

  /** `owner` with a right token or session, `anonymous` with neither; a wrong bearer token is refused here. */
  private async who(ctx: RequestContext): Promise<'owner' | 'anonymous' | Response> {
    const bearer = InsightsAuth.bearer(ctx.request);
    if (bearer !== undefined) {
      const throttled = await this.throttled(ctx);
      if (throttled) return throttled;
      if (await this.auth.isToken(bearer)) return 'owner';
      return (await this.failed(ctx)) ?? unauthorized(ctx, true);
    }
    return (await this.auth.hasSession(ctx.request)) ? 'owner' : 'anonymous';
  }

  private clientKey(ctx: RequestContext): string {
    return `insights:${clientAddressOf(ctx.request, ctx.host, ctx.cfg) ?? 'unknown'}`;
  }

  /** 429 once a client has used up its failed attempts for the minute, before any token is compared. */
  private async throttled(ctx: RequestContext): Promise<Response | undefined> {
    const used = await this.failures.get(this.clientKey(ctx));
    if (!used || used.remainingPoints > 0) return undefined;
    return ctx.fail(new ProxyError('rate_limited', { retryAfter: Math.max(1, Math.ceil(used.msBeforeNext / 1000)) }));
  }

  /** Counts a failed attempt; 429 when it was one too many. */
  private async failed(ctx: RequestContext): Promise<Response | undefined> {
    ctx.log.event('warn', 'insights: wrong token', { id: ctx.id });
    try {
      await this.failures.consume(this.clientKey(ctx));
      return undefined;
    } catch (rejection) {
      const ms = (rejection as { msBeforeNext?: number }).msBeforeNext ?? 60_000;
      return ctx.fail(new ProxyError('rate_limited', { retryAfter: Math.max(1, Math.ceil(ms / 1000)) }));
    }
  }

  /**
   * Whether the browser says a form came from anywhere but this page (`Sec-Fetch-Site`, else
   * `Origin`): such posts are refused. Clients that send neither (scripts) are not browsers a
   * forged form could drive.
   */
  private crossSite(ctx: RequestContext): boolean {
    const site = ctx.request.headers.get('sec-fetch-site');
    if (site !== null) return site !== 'same-origin' && site !== 'none';
    if (ctx.origin === null) return false;
    return !URL.canParse(ctx.origin) || new URL(ctx.origin).host !== ctx.url.host;
  }

  /** Whether the page is served over https (directly, or behind a trusted proxy that says so). */
  private secure(ctx: RequestContext): boolean {
    if (ctx.url.protocol === 'https:') return true;
    return ctx.cfg.trustProxy !== false && ctx.request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim() === 'https';
  }

  private async signIn(ctx: RequestContext): Promise<Response> {
    const { request } = ctx;
    if (request.method === 'GET' || request.method === 'HEAD') {
      ctx.record.outcome = 'sign_in';
      return ctx.respond(200, signInPage(this.base), { ...HTML_HEADERS });
    }
    if (request.method !== 'POST') return ctx.fail(new ProxyError('method_not_allowed'), { allow: 'GET, HEAD, POST' });
    if (this.crossSite(ctx)) return ctx.fail(new ProxyError('origin_not_allowed'));
    ctx.record.outcome = 'sign_in';
    const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/x-www-form-urlencoded') throw new ProxyError('not_form_content_type');
    const throttled = await this.throttled(ctx);
    if (throttled) return throttled;
    const token = new URLSearchParams(await readRequestText(request, 4_096)).get('token') ?? '';
    if (!(await this.auth.isToken(token))) {
      return (await this.failed(ctx)) ?? ctx.respond(401, signInPage(this.base, 'That token is not right.'), { ...HTML_HEADERS });
    }
    const cookie = InsightsAuth.sessionCookie(await this.auth.newSession(), this.base, this.secure(ctx));
    return ctx.respond(303, null, { location: this.base, 'set-cookie': cookie, 'cache-control': 'no-store' });
  }

  private signOut(ctx: RequestContext): Response {
    if (ctx.request.method !== 'POST') return ctx.fail(new ProxyError('method_not_allowed'), { allow: 'POST' });
    if (this.crossSite(ctx)) return ctx.fail(new ProxyError('origin_not_allowed'));
    return ctx.respond(303, null, { location: this.base, 'set-cookie': InsightsAuth.clearedCookie(this.base, this.secure(ctx)), 'cache-control': 'no-store' });
  }

  /** The period (`period`, days: 1, 7, 30 or 90; default 30) and bot (`bot`, default all) of the query. */
  private filter(ctx: RequestContext) {
    const params = ctx.url.searchParams;
    const period = params.get('period');
    const days = period === null || period === '' ? PERIODS[0] : Number(period);
    if (!(PERIODS as readonly number[]).includes(days)) throw new ProxyError('insights_bad_filter', { detail: `"period" is a number of days: ${PERIODS.join(', ')}.` });
    const bot = params.get('bot') || undefined;
    if (bot !== undefined && bot.length > 256) throw new ProxyError('insights_bad_filter', { detail: '"bot" is a bot id.' });
    return periodFilter(days, bot);
  }

  private async page(ctx: RequestContext, filter: ReturnType<typeof periodFilter>): Promise<Response> {
    let html: string;
    try {
      await this.ready();
      html = insightsPage(await buildReport(this.store, filter), this.base);
    } catch (error) {
      ctx.log.event('error', 'insights: the database could not be read', { id: ctx.id, error: (error as { code?: string }).code ?? (error as Error).message });
      ctx.record.outcome = 'store_unavailable';
      return ctx.respond(503, unavailablePage(this.base), { ...HTML_HEADERS, 'retry-after': '5' });
    }
    return ctx.respond(200, html, { ...HTML_HEADERS });
  }

  /** The rows as CSV, read from the store a page at a time as the client takes them. */
  private async csv(ctx: RequestContext, filter: ReturnType<typeof periodFilter>): Promise<Response> {
    const store = this.store;
    let first: Awaited<ReturnType<InsightsStore['exportPage']>>;
    try {
      await this.ready();
      first = await store.exportPage(filter, undefined, EXPORT_PAGE_ROWS);
    } catch {
      ctx.record.outcome = 'store_unavailable';
      return ctx.fail(new ProxyError('store_unavailable', { retryAfter: 5 }));
    }
    const day = (time: number) => new Date(time).toISOString().slice(0, 10);
    const botPart = filter.bot === undefined ? '' : `-${filter.bot.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 40)}`;
    const filename = `questions-${day(filter.from)}-to-${day(filter.to - 1)}${botPart}.csv`;
    let rows: typeof first | undefined = first;
    let cursor: ExportCursor | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(`${CSV_HEADER}\r\n`));
      },
      async pull(controller) {
        try {
          const page = rows ?? (await store.exportPage(filter, cursor, EXPORT_PAGE_ROWS));
          rows = undefined;
          if (page.length > 0) {
            controller.enqueue(encoder.encode(page.map(csvLine).join('')));
            const last = page.at(-1)!;
            cursor = { time: last.time, request_id: last.request_id };
          }
          if (page.length < EXPORT_PAGE_ROWS) controller.close();
        } catch (error) {
          ctx.log.event('error', 'insights: the export stopped, the database failed', { id: ctx.id, error: (error as Error).message });
          controller.error(error);
        }
      },
    });
    ctx.record.status = 200;
    ctx.complete();
    const headers = ctx.headers({
      'content-type': 'text/csv; charset=utf-8; header=present',
      'content-disposition': `attachment; filename="${filename}"`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    return new Response(ctx.request.method === 'HEAD' ? null : body, { status: 200, headers });
  }
}
