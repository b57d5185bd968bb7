/**
 * A small authoritative DNS server on loopback (UDP, node:dgram) that answers TXT queries from a
 * table the test fills in. The wire format (RFC 1035 §4) is encoded here by hand: a header, the
 * question copied from the query, and one TXT answer per value, each split into character strings
 * of at most 255 bytes. Names not in the table answer NXDOMAIN; other query types of a known name
 * answer NOERROR with no records; names marked failing answer SERVFAIL.
 *
 *   const dns = await startDnsServer();
 *   dns.setTxt('_platform-verify.example.com', ['platform-verify=abc']);
 *   startStack({ env: { DNS_SERVERS: dns.address } });
 *   await dns.close();
 */
import { createSocket, type RemoteInfo } from 'node:dgram';

const TYPE_TXT = 16;
const CLASS_IN = 1;
const RCODE = { noError: 0, formErr: 1, servFail: 2, nxDomain: 3 } as const;

export interface DnsServer {
  /** `127.0.0.1:<port>`, as DNS_SERVERS takes it. */
  address: string;
  setTxt(name: string, values: string[]): void;
  remove(name: string): void;
  /** Answer SERVFAIL for this name (a resolver that cannot answer). */
  fail(name: string): void;
  /** Names asked so far, lowercased, in order. */
  readonly asked: string[];
  close(): Promise<void>;
}

interface Question {
  name: string;
  type: number;
  /** The question section's bytes, echoed in the answer. */
  raw: Buffer;
}

function readQuestion(msg: Buffer): Question | null {
  if (msg.length < 12 || msg.readUInt16BE(4) !== 1) return null;
  const labels: string[] = [];
  let at = 12;
  for (;;) {
    if (at >= msg.length) return null;
    const len = msg[at]!;
    if (len === 0) break;
    // Queries carry no compression pointers; anything else is malformed here.
    if (len > 63 || at + 1 + len > msg.length) return null;
    labels.push(msg.toString('latin1', at + 1, at + 1 + len));
    at += 1 + len;
  }
  const end = at + 1 + 4;
  if (end > msg.length) return null;
  return { name: labels.join('.').toLowerCase(), type: msg.readUInt16BE(at + 1), raw: msg.subarray(12, end) };
}

function header(id: number, queryFlags: number, rcode: number, answers: number, questions = 1): Buffer {
  const h = Buffer.alloc(12);
  h.writeUInt16BE(id, 0);
  // QR=1 (answer), AA=1 (authoritative), RD copied from the query, RA=1.
  h.writeUInt16BE(0x8000 | 0x0400 | (queryFlags & 0x0100) | 0x0080 | rcode, 2);
  h.writeUInt16BE(questions, 4);
  h.writeUInt16BE(answers, 6);
  return h;
}

function txtAnswer(value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  const chunks: Buffer[] = [];
  let i = 0;
  do {
    const part = bytes.subarray(i, i + 255);
    chunks.push(Buffer.from([part.length]), part);
    i += 255;
  } while (i < bytes.length);
  const rdata = Buffer.concat(chunks);
  const rr = Buffer.alloc(12);
  rr.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's name at offset 12
  rr.writeUInt16BE(TYPE_TXT, 2);
  rr.writeUInt16BE(CLASS_IN, 4);
  rr.writeUInt32BE(60, 6);
  rr.writeUInt16BE(rdata.length, 10);
  return Buffer.concat([rr, rdata]);
}

export async function startDnsServer(): Promise<DnsServer> {
  const records = new Map<string, string[]>();
  const failing = new Set<string>();
  const asked: string[] = [];
  const socket = createSocket('udp4');

  const answer = (msg: Buffer): Buffer | null => {
    if (msg.length < 12) return null;
    const id = msg.readUInt16BE(0);
    const flags = msg.readUInt16BE(2);
    const q = readQuestion(msg);
    if (q === null) return header(id, flags, RCODE.formErr, 0, 0);
    asked.push(q.name);
    const reply = (rcode: number, rrs: Buffer[]) => {
      const h = header(id, flags, rcode, rrs.length);
      return Buffer.concat([h, q.raw, ...rrs]);
    };
    if (failing.has(q.name)) return reply(RCODE.servFail, []);
    const values = records.get(q.name);
    if (values === undefined) return reply(RCODE.nxDomain, []);
    return reply(RCODE.noError, q.type === TYPE_TXT ? values.map(txtAnswer) : []);
  };

  socket.on('message', (msg: Buffer, from: RemoteInfo) => {
    const out = answer(msg);
    if (out !== null) socket.send(out, from.port, from.address);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => resolve());
  });
  const { port } = socket.address();

  return {
    address: `127.0.0.1:${port}`,
    setTxt: (name, values) => {
      failing.delete(name.toLowerCase());
      records.set(name.toLowerCase(), values);
    },
    remove: (name) => {
      records.delete(name.toLowerCase());
    },
    fail: (name) => {
      failing.add(name.toLowerCase());
    },
    asked,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
