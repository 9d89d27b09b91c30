import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Server-side request forgery guard (DESIGN §5): a webhook URL may only reach the public internet.
 * The check runs when a URL is saved (`checkWebhookUrl`) and again at connect time on every address
 * the host name resolves to (`guardedLookup`, handed to undici's `connect.lookup`), so a name that
 * resolves to an internal address later (DNS rebinding) is refused too.
 *
 * What counts as public is ipaddr.js's table of special-purpose ranges (the IANA registries): an address
 * must be plain `unicast` there. IPv6 forms that carry an IPv4 address are judged by that address when
 * the embedding is unambiguous (IPv4-mapped) and refused outright when it is a transition or
 * translation form (IPv4-compatible `::a.b.c.d`, SIIT `::ffff:0:a.b.c.d`, NAT64, 6to4, Teredo), which
 * a receiver has no reason to use and which name internal hosts as easily as public ones
 * (`http://[::169.254.169.254]/` is the cloud metadata service).
 */
export interface AddressPolicy {
  /** `WEBHOOK_ALLOW_LOOPBACK=true`: 127.0.0.0/8 and ::1 allowed (development and tests); nothing else. */
  allowLoopback?: boolean;
}

// ipaddr.js counts ::/96 (IPv4-compatible, deprecated by RFC 4291) as ordinary unicast.
const IPV4_COMPATIBLE = ipaddr.IPv6.parse('::');

/** True when a webhook may not connect to this IP address (a literal; anything unparseable is refused). */
export function isForbiddenAddress(ip: string, policy: AddressPolicy = {}): boolean {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  // Node's own parser decides what is an address: ipaddr.js alone also reads `0x7f.1` and `127.1`.
  const family = isIP(bare);
  if (family === 0) return true;
  if (family === 4) return !isPublicIpv4(ipaddr.IPv4.parse(bare), policy);
  const v6 = ipaddr.IPv6.parse(bare);
  const range = v6.range();
  if (range === 'ipv4Mapped') return !isPublicIpv4(v6.toIPv4Address(), policy);
  if (range === 'loopback') return !policy.allowLoopback;
  if (range !== 'unicast') return true;
  return v6.match(IPV4_COMPATIBLE, 96);
}

function isPublicIpv4(v4: ipaddr.IPv4, policy: AddressPolicy): boolean {
  const range = v4.range();
  if (range === 'loopback') return policy.allowLoopback === true;
  return range === 'unicast';
}

export class ForbiddenAddressError extends Error {
  readonly code = 'EWEBHOOKFORBIDDEN';
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`Webhook host ${host} resolves to a forbidden address (${address})`);
    this.name = 'ForbiddenAddressError';
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `dns.lookup` replacement for `net.connect`: resolves, refuses the connection when any resolved
 * address is forbidden, otherwise answers in the shape asked for (one address, or all of them).
 */
export function guardedLookup(policy: AddressPolicy = {}) {
  return (hostname: string, options: LookupOptions | undefined, callback: LookupCallback) => {
    dnsLookup(hostname, { ...(options ?? {}), all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const list = addresses as LookupAddress[];
      const bad = list.find((a) => isForbiddenAddress(a.address, policy));
      if (bad) return callback(new ForbiddenAddressError(hostname, bad.address), []);
      if (list.length === 0) {
        const none: NodeJS.ErrnoException = new Error(`no address for ${hostname}`);
        none.code = 'ENOTFOUND';
        return callback(none, []);
      }
      if (options?.all) return callback(null, list);
      const first = list[0]!;
      return callback(null, first.address, first.family);
    });
  };
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/** Only http(s), no credentials in the URL, and a host (literal or resolved) on the public internet. */
export function checkWebhookUrlSyntax(raw: string, policy: AddressPolicy = {}): UrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'is not a valid URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, reason: 'must be http or https' };
  if (url.username || url.password) return { ok: false, reason: 'must not contain credentials' };
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (host === '') return { ok: false, reason: 'must name a host' };
  if (isIP(host) !== 0 && isForbiddenAddress(host, policy)) {
    return { ok: false, reason: 'must not point to a private, loopback, link-local or reserved address' };
  }
  return { ok: true, url };
}

/** The save-time check: the syntax above, then every address the host resolves to now. */
export async function checkWebhookUrl(raw: string, policy: AddressPolicy = {}): Promise<UrlCheck> {
  const syntax = checkWebhookUrlSyntax(raw, policy);
  if (!syntax.ok) return syntax;
  const host = syntax.url.hostname.startsWith('[') ? syntax.url.hostname.slice(1, -1) : syntax.url.hostname;
  if (isIP(host) !== 0) return syntax;
  const lookup = guardedLookup(policy);
  return new Promise((resolve) => {
    lookup(host, { all: true }, (err) => {
      if (!err) return resolve(syntax);
      if (err instanceof ForbiddenAddressError) {
        return resolve({
          ok: false,
          reason: 'must not point to a private, loopback, link-local or reserved address',
        });
      }
      resolve({ ok: false, reason: 'names a host that cannot be resolved' });
    });
  });
}
