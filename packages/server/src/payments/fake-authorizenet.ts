import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * Test support: a local HTTP server that answers as Authorize.Net's JSON API documents
 * (developer.authorize.net/api/reference): createTransactionRequest (card, bank account, stored
 * profile; a profileResponse when createProfile is set) and getUnsettledTransactionListRequest,
 * every answer starting with a byte-order mark as theirs do. A test may replace the answer of
 * the next calls (a decline, an error, a slow or broken answer) with `answerNext`.
 */

export interface RecordedRequest {
  name: string;
  body: Record<string, unknown>;
}

export interface ScriptedAnswer {
  status?: number;
  delayMs?: number;
  /** An object is sent as JSON after a BOM; a string is sent as it is. */
  body?: unknown;
  /** Record the transaction as approved even though the answer is replaced (a lost answer). */
  recordApproved?: boolean;
}

interface LedgerEntry {
  transId: string;
  invoiceNumber: string;
  amount: string;
  transactionStatus: string;
  accountNumber: string;
  accountType: string;
}

export interface FakeAuthorizeNet {
  url: string;
  requests: RecordedRequest[];
  ledger: LedgerEntry[];
  answerNext: (...answers: ScriptedAnswer[]) => void;
  close: () => Promise<void>;
}

const OK = { resultCode: 'Ok', message: [{ code: 'I00001', text: 'Successful.' }] };

export async function startFakeAuthorizeNet(
  credentials = { name: 'login-id', transactionKey: 'Key1234567890abc' },
): Promise<FakeAuthorizeNet> {
  const requests: RecordedRequest[] = [];
  const ledger: LedgerEntry[] = [];
  const scripted: ScriptedAnswer[] = [];
  let next = 60_000_000_000;

  function transact(request: Record<string, unknown>): unknown {
    const tr = request.transactionRequest as {
      amount: string;
      payment?: { creditCard?: { cardNumber: string }; bankAccount?: { accountNumber: string } };
      profile?: { createProfile?: boolean; customerProfileId?: string };
      order?: { invoiceNumber: string };
    };
    next += 1;
    const transId = String(next);
    const number =
      tr.payment?.creditCard?.cardNumber ?? tr.payment?.bankAccount?.accountNumber ?? '0000';
    const accountType = tr.payment?.bankAccount ? 'eCheck' : 'Visa';
    const entry: LedgerEntry = {
      transId,
      invoiceNumber: tr.order?.invoiceNumber ?? '',
      amount: tr.amount,
      transactionStatus: 'capturedPendingSettlement',
      accountNumber: `XXXX${number.slice(-4)}`,
      accountType,
    };
    ledger.push(entry);
    return {
      transactionResponse: {
        responseCode: '1',
        authCode: 'ABC123',
        avsResultCode: 'Y',
        cvvResultCode: 'P',
        cavvResultCode: '2',
        transId,
        refTransID: '',
        transHash: '',
        testRequest: '0',
        accountNumber: entry.accountNumber,
        accountType,
        messages: [{ code: '1', description: 'This transaction has been approved.' }],
        transHashSha2: '',
        SupplementalDataQualificationIndicator: 0,
      },
      ...(tr.profile?.createProfile
        ? {
            profileResponse: {
              messages: OK,
              customerProfileId: String(next + 500_000),
              customerPaymentProfileIdList: [String(next + 900_000)],
              customerShippingAddressIdList: [],
            },
          }
        : {}),
      refId: request.refId,
      messages: OK,
    };
  }

  const server: Server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      const parsed = JSON.parse(raw) as Record<string, Record<string, unknown>>;
      const [name] = Object.keys(parsed);
      const body = (name && parsed[name]) || {};
      requests.push({ name: name ?? '', body });
      const answer = scripted.shift();
      const auth = body.merchantAuthentication as { name?: string; transactionKey?: string };
      let reply: unknown;
      if (answer?.body !== undefined) {
        if (answer.recordApproved) transact(body);
        reply = answer.body;
      } else if (
        auth?.name !== credentials.name ||
        auth.transactionKey !== credentials.transactionKey
      )
        reply = {
          messages: {
            resultCode: 'Error',
            message: [
              {
                code: 'E00007',
                text: 'User authentication failed due to invalid authentication values.',
              },
            ],
          },
        };
      else if (name === 'createTransactionRequest') reply = transact(body);
      else if (name === 'getUnsettledTransactionListRequest') {
        const paging = body.paging as { limit: number; offset: number } | undefined;
        const limit = paging?.limit ?? 1000;
        const offset = paging?.offset ?? 1;
        const newestFirst = [...ledger].reverse();
        reply = {
          transactions: newestFirst.slice((offset - 1) * limit, offset * limit).map((t) => ({
            transId: t.transId,
            submitTimeUTC: new Date().toISOString(),
            transactionStatus: t.transactionStatus,
            invoiceNumber: t.invoiceNumber,
            firstName: 'Ellen',
            lastName: 'Johnson',
            accountType: t.accountType,
            accountNumber: t.accountNumber,
            settleAmount: Number(t.amount),
            marketType: 'eCommerce',
            product: 'Card Not Present',
          })),
          totalNumInResultSet: ledger.length,
          messages: OK,
        };
      } else
        reply = {
          messages: {
            resultCode: 'Error',
            message: [{ code: 'E00003', text: 'Unknown request.' }],
          },
        };
      const send = () => {
        if (res.destroyed) return;
        res.statusCode = answer?.status ?? 200;
        res.setHeader('content-type', 'application/json; charset=utf-8');
        res.end(typeof reply === 'string' ? reply : `\uFEFF${JSON.stringify(reply)}`);
      };
      if (answer?.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/xml/v1/request.api`,
    requests,
    ledger,
    answerNext: (...answers) => scripted.push(...answers),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
