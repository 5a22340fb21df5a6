import { stack, sql } from './helpers.js';

/**
 * A minimal browser for the sign-in flows over real HTTP: follows redirects by hand, keeps cookies
 * per origin, and fills the stand-in providers' login forms (the Google stand-in is oidc-provider's
 * login form; the GitHub stand-in's form takes an email and a "verified" box).
 */
export class Browser {
  readonly jar = new Map<string, Map<string, string>>();
  readonly setCookies: string[] = [];

  cookieFor(url: string): string {
    const jar = this.jar.get(new URL(url).origin);
    return jar ? [...jar].map(([k, v]) => `${k}=${v}`).join('; ') : '';
  }

  get(origin: string, name: string): string | undefined {
    return this.jar.get(origin)?.get(name);
  }

  set(origin: string, name: string, value: string | null): void {
    if (!this.jar.has(origin)) this.jar.set(origin, new Map());
    if (value === null) this.jar.get(origin)!.delete(name);
    else this.jar.get(origin)!.set(name, value);
  }

  async fetch(url: string, init: { method?: string; form?: Record<string, string>; json?: unknown; headers?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = { ...(init.headers ?? {}) };
    const cookie = this.cookieFor(url);
    if (cookie) headers.cookie = cookie;
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    } else if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    }
    const res = await fetch(url, { method: init.method ?? (body !== undefined ? 'POST' : 'GET'), headers, body, redirect: 'manual' });
    const origin = new URL(url).origin;
    for (const c of res.headers.getSetCookie()) {
      if (origin === new URL(stack().apiUrl).origin) this.setCookies.push(c);
      const [pair, ...attrs] = c.split(';');
      const i = pair!.indexOf('=');
      const name = pair!.slice(0, i).trim();
      const value = pair!.slice(i + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
      this.set(origin, name, expired ? null : value);
    }
    return res;
  }

  /** Follows redirects until a non-redirect answer; returns it and the last URL. */
  async follow(url: string, init: Parameters<Browser['fetch']>[1] = {}, max = 15): Promise<{ res: Response; url: string; chain: string[] }> {
    let res = await this.fetch(url, init);
    const chain = [url];
    while (res.status >= 300 && res.status < 400 && chain.length < max) {
      url = new URL(res.headers.get('location')!, url).toString();
      chain.push(url);
      res = await this.fetch(url);
    }
    return { res, url, chain };
  }
}

export interface SignedIn { browser: Browser; landing: string; chain: string[]; token: string }

/** Signs in through the real flow: api → stand-in provider → login form → api callback. */
export async function signIn(provider: 'google' | 'github', email: string, o: { browser?: Browser; verified?: boolean; returnTo?: string } = {}): Promise<SignedIn> {
  const b = o.browser ?? new Browser();
  const api = stack().apiUrl;
  const start = `${api}/auth/${provider}/start${o.returnTo ? `?return_to=${encodeURIComponent(o.returnTo)}` : ''}`;
  const first = await b.follow(start);
  if (first.res.status !== 200) throw new Error(`expected the provider login form, got ${first.res.status} at ${first.url}`);
  const page = await first.res.text();
  const action = /<form[^>]*action="([^"]+)"/.exec(page)![1]!.replace(/&amp;/g, '&');
  const formUrl = new URL(action, first.url).toString();
  let fields: Record<string, string>;
  if (provider === 'google') {
    fields = { prompt: 'login', login: email, password: 'any' };
  } else {
    fields = Object.fromEntries([...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))]));
    fields.email = email;
    if (o.verified !== false) fields.verified = '1';
  }
  // Follow until the api's callback has answered (it redirects into the dashboard or the sign-in page).
  let res = await b.fetch(formUrl, { form: fields });
  let url = formUrl;
  const chain = [...first.chain, formUrl];
  while (res.status >= 300 && res.status < 400) {
    url = new URL(res.headers.get('location')!, url).toString();
    chain.push(url);
    if (url.startsWith(`${api}/dashboard`)) break;
    res = await b.fetch(url);
  }
  return { browser: b, landing: url, chain, token: b.get(api, 'ivs_session') ?? '' };
}

/** The CSRF token of the session, as a page renders it. */
export async function csrfOf(b: Browser): Promise<string> {
  const res = await b.fetch(`${stack().apiUrl}/dashboard/orgs`);
  const html = await res.text();
  const m = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error(`no CSRF token on the page (status ${res.status})`);
  return m[1]!;
}

export async function userIdOf(email: string): Promise<string> {
  return (await sql<{ id: string }>('select id from users where email = $1', [email.toLowerCase()]))[0]!.id;
}

export const uniqueEmail = (tag: string) => `${tag}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.test`;
