// Reading a domain's verification TXT record, through the operator's DNS servers (GATEHOUSE_DNS_SERVERS) or the
// system's. The answer tells a record that is missing (the domain's owner removed it: the domain is no longer
// proven) from a lookup that failed (a timeout or a server failure proves nothing either way).
import { Resolver } from 'node:dns/promises';
import { CHALLENGE_PREFIX } from '@gatehouse/shared/rules/email-domains';

export type TxtCheck =
  | { found: true }
  | { found: false; definitive: boolean; problem: string };

const MISSING = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN', 'NOTFOUND']);

export async function checkChallengeRecord(servers: string[], recordName: string, challenge: string): Promise<TxtCheck> {
  const resolver = new Resolver({ timeout: 3000, tries: 2 });
  if (servers.length > 0) resolver.setServers(servers);
  let records: string[][];
  try {
    records = await resolver.resolveTxt(recordName);
  } catch (err) {
    const code = (err as { code?: string }).code ?? 'ERROR';
    if (MISSING.has(code)) return { found: false, definitive: true, problem: `no TXT record was found at ${recordName}.` };
    return { found: false, definitive: false, problem: `the DNS lookup of ${recordName} failed (${code}).` };
  }
  // A TXT record may come split into several strings of up to 255 octets: they are one value (RFC 7208 §3.3).
  const values = records.map((chunks) => chunks.join(''));
  if (values.includes(CHALLENGE_PREFIX + challenge)) return { found: true };
  return {
    found: false,
    definitive: true,
    problem: values.some((v) => v.startsWith(CHALLENGE_PREFIX))
      ? `the TXT record at ${recordName} carries another verification value.`
      : `no TXT record at ${recordName} carries the verification value.`,
  };
}
