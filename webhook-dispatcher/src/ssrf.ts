import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Server-side request forgery guard (DESIGN §5): a webhook URL may only reach the public internet.
 * The check runs when a URL is saved (`checkWebhookUrl`) and again at connect time on every address
 * the host name resolves to (`guardedLookup`, handed to undici's `connect.lookup`), so a name that
 * resolves to an internal address later (DNS rebinding) is refused too.
 */
const forbidden = new BlockList();
// IPv4: "this" network, private, carrier-grade NAT, loopback, link-local, IETF protocol assignments,
// documentation, benchmarking, multicast, reserved and broadcast.
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  forbidden.addSubnet(net, prefix, 'ipv4');
}
// IPv6: unspecified, loopback, NAT64, discard, documentation, unique local, link-local, site-local, multicast.
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  forbidden.addSubnet(net, prefix, 'ipv6');
}

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

export interface AddressPolicy {
  /** `WEBHOOK_ALLOW_LOOPBACK=true`: 127.0.0.0/8 and ::1 allowed (development and tests); nothing else. */
  allowLoopback?: boolean;
}

/** The IPv4 address inside an IPv4-mapped (`::ffff:a.b.c.d`) or IPv4-compatible IPv6 address. */
function embeddedIpv4(ip: string): string | undefined {
  const m = /^(?:0{0,4}:){0,5}(?:0{0,4}:)?(?:ffff:)?((?:\d{1,3}\.){3}\d{1,3})$/i.exec(ip);
  if (m) return m[1];
  // ::ffff:7f00:1 written in hex
  const hex = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(ip);
  if (!hex) return undefined;
  const hi = Number.parseInt(hex[1]!, 16);
  const lo = Number.parseInt(hex[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** True when a webhook may not connect to this IP address (a literal; anything unparseable is refused). */
export function isForbiddenAddress(ip: string, policy: AddressPolicy = {}): boolean {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const family = isIP(bare);
  if (family === 0) return true;
  if (family === 6) {
    const v4 = embeddedIpv4(bare);
    if (v4 !== undefined) return isForbiddenAddress(v4, policy);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (policy.allowLoopback && loopback.check(bare, type)) return false;
  return forbidden.check(bare, type);
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
