// A real DNS server on loopback (dns2, UDP) serving TXT records the test sets: the service under test resolves
// through it (GATEHOUSE_DNS_SERVERS=127.0.0.1:{port}). A name without records answers NXDOMAIN, as the internet does.
import dns2 from 'dns2';

const { Packet } = dns2;

export interface TestDns {
  /** `host:port`, for GATEHOUSE_DNS_SERVERS. */
  address: string;
  /** Sets (or, with [], removes) the TXT strings of a name. */
  setTxt(name: string, values: string[]): void;
  /** Leaves queries for the name unanswered (the service's lookup times out, as with an unreachable server). */
  dropQueriesFor(name: string): void;
  /** How many queries reached the server. */
  queries(): number;
  close(): Promise<void>;
}

export async function startTestDns(): Promise<TestDns> {
  const txt = new Map<string, string[]>();
  const dropped = new Set<string>();
  let count = 0;
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      count++;
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      if (question && dropped.has(question.name.toLowerCase().replace(/\.$/, ''))) return;
      const values = question ? txt.get(question.name.toLowerCase().replace(/\.$/, '')) : undefined;
      if (!question || !values) {
        response.header.rcode = Packet.RCODE.NXDOMAIN;
      } else if (question.type === Packet.TYPE.TXT) {
        for (const data of values) response.answers.push({ name: question.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 1, data } as never);
      }
      send(response);
    },
  });
  const listening = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = (listening.udp as { port: number }).port;
  return {
    address: `127.0.0.1:${port}`,
    setTxt: (name, values) => { if (values.length) txt.set(name.toLowerCase(), values); else txt.delete(name.toLowerCase()); },
    dropQueriesFor: (name) => { dropped.add(name.toLowerCase()); },
    queries: () => count,
    close: () => server.close(),
  };
}
