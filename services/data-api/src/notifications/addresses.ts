/**
 * Which addresses a webhook may reach. A webhook's URL is chosen by a tenant (a company's ClientAdmin
 * may add one) and the data API POSTs to it from inside the deployment, so an address of the local
 * machine or network would let a tenant probe what only the data API can see (server-side request
 * forgery): the data API itself, the project databases, a cloud's metadata service (169.254.169.254).
 * Only public addresses are reached, unless WEBHOOKS_ALLOW_PRIVATE_ADDRESSES says otherwise (tests).
 */
import { isIPv4, isIPv6 } from "node:net";

export type AddressKind = "loopback" | "private" | "link-local" | "unspecified" | "shared" | "multicast" | "reserved";

/** How a refusal names each kind: "… is a link-local address". */
const KIND_PHRASES: Record<AddressKind, string> = {
  loopback: "a loopback",
  private: "a private",
  "link-local": "a link-local",
  unspecified: "an unspecified",
  shared: "a carrier-grade NAT (100.64.0.0/10)",
  multicast: "a multicast",
  reserved: "a reserved",
};

/** IPv4 ranges that are not the public internet: [first address, prefix length, kind]. */
const IPV4_RANGES: readonly [string, number, AddressKind][] = [
  ["0.0.0.0", 8, "unspecified"], // "this network": 0.0.0.0 reaches the local machine on Linux
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "shared"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"], // cloud metadata services
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "reserved"],
  ["192.0.2.0", 24, "reserved"],
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "reserved"],
  ["198.51.100.0", 24, "reserved"],
  ["203.0.113.0", 24, "reserved"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"], // and 255.255.255.255, broadcast
];

const ipv4Number = (ip: string) => ip.split(".").reduce((n, part) => n * 256 + Number(part), 0);

function ipv4Kind(n: number): AddressKind | null {
  for (const [first, bits, kind] of IPV4_RANGES) {
    const size = 2 ** (32 - bits);
    if (Math.floor(n / size) === Math.floor(ipv4Number(first) / size)) return kind;
  }
  return null;
}

/** The eight 16-bit groups of a valid IPv6 address (a trailing dotted IPv4 part becomes the last two; a zone is dropped). */
function ipv6Groups(ip: string): number[] {
  let text = ip.split("%")[0]!;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const parse = (part: string | undefined) => (part ? part.split(":").map((g) => parseInt(g, 16)) : []);
  const first = parse(head);
  const last = parse(tail);
  return tail === undefined ? first : [...first, ...new Array<number>(8 - first.length - last.length).fill(0), ...last];
}

function ipv6Kind(g: number[]): AddressKind | null {
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const embedded = (hi: number, lo: number) => ipv4Kind(hi * 65536 + lo);
  if (zero(0, 8)) return "unspecified";
  if (zero(0, 7) && g[7] === 1) return "loopback";
  // An IPv4 address written as IPv6 reaches that IPv4 address: mapped (::ffff:a.b.c.d), translated
  // (::ffff:0:a.b.c.d), the deprecated compatible form (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and 6to4 (2002:AABB:CCDD::).
  if (zero(0, 5) && g[5] === 0xffff) return embedded(g[6]!, g[7]!);
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return embedded(g[6]!, g[7]!);
  if (zero(0, 6)) return embedded(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return embedded(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return "private"; // local-use NAT64 (RFC 8215)
  if (g[0] === 0x2002) return embedded(g[1]!, g[2]!);
  if ((g[0]! & 0xfe00) === 0xfc00) return "private"; // unique local, fc00::/7
  if ((g[0]! & 0xffc0) === 0xfec0) return "private"; // site-local (deprecated), fec0::/10
  if ((g[0]! & 0xffc0) === 0xfe80) return "link-local";
  if ((g[0]! & 0xff00) === 0xff00) return "multicast";
  if (g[0] === 0x2001 && g[1] === 0xdb8) return "reserved"; // documentation
  if (g[0] === 0x100 && zero(1, 4)) return "reserved"; // discard-only, 100::/64
  return null;
}

/** What kind of non-public address `ip` (an IPv4 or IPv6 address, without brackets) is, or null when it is public. */
export function addressKind(ip: string): AddressKind | null {
  if (isIPv4(ip)) return ipv4Kind(ipv4Number(ip));
  if (isIPv6(ip)) return ipv6Kind(ipv6Groups(ip));
  throw new Error(`Not an IP address: ${ip}`);
}

/** `localhost` and any name under it (RFC 6761): the local machine, whatever DNS answers. */
const isLocalhostName = (host: string) => /(^|\.)localhost$/i.test(host.replace(/\.+$/, ""));

/** A URL's host as an address or name: without IPv6's brackets. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, "$1");

const PUBLIC_ADDRESS_NEEDED = "A webhook must reach a public address";

/**
 * Why a webhook may not reach `url`'s host, judged without DNS: a localhost name, or an address
 * written in the URL that is not public; or null. Enough when a webhook is added; each delivery also
 * checks what the name resolves to (`resolvedRefusal`).
 */
export function hostRefusal(url: URL): string | null {
  const host = hostOf(url);
  if (isLocalhostName(host)) return `${PUBLIC_ADDRESS_NEEDED}: ${host} names the local machine.`;
  const kind = isIPv4(host) || isIPv6(host) ? addressKind(host) : null;
  return kind ? `${PUBLIC_ADDRESS_NEEDED}: ${host} is ${KIND_PHRASES[kind]} address.` : null;
}

/** Why `host` may not be reached at `address`, which it resolved to, or null. */
export function resolvedRefusal(host: string, address: string): string | null {
  const kind = addressKind(address);
  return kind ? `${PUBLIC_ADDRESS_NEEDED}: ${host} resolves to ${address}, ${KIND_PHRASES[kind]} address.` : null;
}
