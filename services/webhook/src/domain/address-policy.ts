import ipaddr from 'ipaddr.js';

/**
 * Which IP addresses a webhook may reach (SSRF protection). Only public unicast addresses are
 * allowed: loopback, private (RFC 1918, IPv6 unique-local), link-local, CGNAT, multicast,
 * broadcast, reserved/documentation/benchmarking, unspecified, and IPv6 transition forms that
 * embed an IPv4 address (mapped, NAT64, 6to4, Teredo, IPv4-compatible) are refused. IPv4-mapped
 * IPv6 addresses are judged as the IPv4 address they carry. An allow-list of CIDRs (config)
 * opens chosen ranges, e.g. loopback for local development.
 */
export class AddressPolicy {
  private readonly allow: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]>;

  constructor(allowCidrs: readonly string[] = []) {
    this.allow = allowCidrs.map((c) => {
      try {
        return ipaddr.parseCIDR(c);
      } catch {
        throw new Error(`invalid CIDR in the webhook allow-list: "${c}"`);
      }
    });
  }

  /** null when the address may be contacted, else the reason it may not. */
  refusal(address: string): string | null {
    let addr: ipaddr.IPv4 | ipaddr.IPv6;
    try {
      addr = ipaddr.process(address);
    } catch {
      return `"${address}" is not an IP address`;
    }
    if (this.allow.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits))) return null;
    const range = addr.range();
    if (range !== 'unicast') return `${addr.toString()} is a ${range} address`;
    if (addr.kind() === 'ipv6') {
      const v6 = addr as ipaddr.IPv6;
      // Global unicast is 2000::/3; everything else (e.g. ::/96 IPv4-compatible) is not routable here.
      if (!v6.match(ipaddr.IPv6.parse('2000::'), 3)) return `${addr.toString()} is a reserved address`;
    }
    return null;
  }

  allowed(address: string): boolean {
    return this.refusal(address) === null;
  }
}

/** The literal IP address in a URL host (`[::1]` unwrapped), or null for a DNS name. */
export function literalIp(hostname: string): string | null {
  const h = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(h) && (ipaddr.IPv4.isValidFourPartDecimal(h) || h.includes(':')) ? h : null;
}

/** RFC 6761: `localhost` and `*.localhost` always mean loopback, whatever DNS says. */
export function isLocalhostName(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost');
}
