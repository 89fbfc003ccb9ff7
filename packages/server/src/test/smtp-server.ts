import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/**
 * A real SMTP server on loopback (the `smtp-server` package), speaking the protocol nodemailer
 * talks to in production. While `refusing` it answers every sender with 451 (try again later),
 * as a mail server that is overloaded or greylisting does; it answers 550 (no such mailbox, for
 * good) for a recipient whose address starts with `nobody`, and 553 (sender refused) for a
 * sender whose address starts with `wrong`. With `delayMs` it takes that long to
 * say it has taken a message, as a slow server does.
 */
export interface TestSmtpServer {
  url: string;
  received: ReceivedMail[];
  refusing: boolean;
  delayMs: number;
  close(): Promise<void>;
}

export async function startSmtpServer(): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const state = { refusing: false, delayMs: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onMailFrom(address, _session, callback) {
      if (address.address.startsWith('wrong'))
        return callback(Object.assign(new Error('Sender address rejected'), { responseCode: 553 }));
      if (!state.refusing) return callback();
      const error = Object.assign(new Error('Mailbox busy, try again later'), {
        responseCode: 451,
      });
      callback(error);
    },
    onRcptTo(address, _session, callback) {
      if (!address.address.startsWith('nobody')) return callback();
      const error = Object.assign(new Error(`No such mailbox <${address.address}>`), {
        responseCode: 550,
      });
      callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        setTimeout(callback, state.delayMs);
      });
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    get refusing() {
      return state.refusing;
    },
    set refusing(value: boolean) {
      state.refusing = value;
    },
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(value: number) {
      state.delayMs = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
