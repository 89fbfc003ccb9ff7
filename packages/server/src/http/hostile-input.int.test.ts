import {
  CodeSearchFilterSchema,
  CustomSearchInputSchema,
  HospitalFilterSchema,
  SearchInputSchema,
} from '@ratelens/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generateOpenApi } from '../cli/openapi.ts';
import { authHeaders, signedInAdmin, signedInUser, useTestApp } from '../test/app.ts';

/**
 * Every route of the published API, asked with what a careless or hostile client sends: names
 * every JavaScript object has, empty and enormous text, wrong types, broken JSON and multipart.
 * Each must answer as a client error does (4xx with the error format), never with a 5xx, and
 * within a few seconds. The routes come from the OpenAPI document, so a new route is swept too.
 */

// Rate limits would answer most of these with 429 before their handlers read them.
const test = useTestApp({
  PAYMENT_RATE_LIMIT_PER_MINUTE: '1000000',
  TEXT_REPORTS_PER_HOUR: '1000000',
  DONATION_OTP_PER_HOUR: '1000000',
});

type Parameter = { in: 'path' | 'query' | 'header'; name: string; schema?: Schema };
interface Schema {
  type?: string | string[];
  format?: string;
  pattern?: string;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  minimum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
}
type Operation = {
  parameters?: Parameter[];
  security?: unknown;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
};

/** What a field of this name usually holds, tried first when it fits the field's schema. */
const HINTS: [RegExp, string][] = [
  [/e-?mail/i, 'someone@example.org'],
  [/password/i, 'Sunny-Day-42!'],
  [/msaname/i, 'Anchorage, AK'],
  [/msa/i, '11260'],
  [/lives/i, '1'],
  [/accumulator/i, '0'],
  [/paymentmethod/i, 'Inpatient'],
  [/cardnumber/i, '4111111111111111'],
  [/expiry/i, '12/2030'],
  [/cvv/i, '123'],
  [/routing/i, '011000015'],
  [/zip/i, '02139'],
  [/statename/i, 'Alaska'],
  [/state/i, 'AK'],
  [/otp/i, '1234'],
  [/website|url/i, 'https://example.org'],
  [/price|amount/i, '10.00'],
  [/number|phone/i, '6175550123'],
  [/idempotency/i, 'hostile-input-key-0001'],
  [/code/i, '99213'],
  [/name/i, 'Test'],
];

/**
 * Query parameters that hold JSON (the spec's FilterJson and oobinput), which the document gives
 * as text: their JSON's schema, so that each of its fields is swept too, and whether its
 * plausible JSON has every field (a code search needs msaId or msaName, both optional) or only
 * the required ones (the search's optional fields name the account, which another session's
 * request may not).
 */
const JSON_IN_QUERY: Record<string, { schema: z.ZodType; everyField: boolean }> = {
  '/api/Inventory/getHospitalbyFilter FilterJson': {
    schema: HospitalFilterSchema,
    everyField: true,
  },
  '/api/OobRates/GetCodeDescriptionbyMSA FilterJson': {
    schema: CodeSearchFilterSchema,
    everyField: true,
  },
  '/api/OobRates/exportOobData oobinput': { schema: SearchInputSchema, everyField: false },
  '/api/OobRates/exportOobDatacustomvalue oobinput': {
    schema: CustomSearchInputSchema,
    everyField: false,
  },
};

/** Text tried, in turn, for a string field, until one fits its pattern and length. */
const PLAUSIBLE_TEXT = [
  'Test',
  '00000000-0000-4000-8000-000000000000',
  '1',
  'MA',
  '99213',
  '2026-01-15',
  'someone@example.org',
];

/**
 * A value that the schema accepts, where one can be told from it and the field's name: the
 * request each hostile value is put into, one field at a time, so that it reaches the handler
 * rather than stopping at another field's rule. An object has its required fields, or with
 * `everyField` all of them.
 */
function plausible(schema: Schema | undefined, name = '', everyField = false): unknown {
  if (!schema) return 'x';
  const choice = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (choice) return plausible(schema.anyOf?.find((s) => s.type === 'string') ?? choice, name);
  if (schema.enum) return schema.enum[0];
  // `["boolean", "null"]`: the first type that is not null.
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'object') {
    const keys = everyField ? Object.keys(schema.properties ?? {}) : (schema.required ?? []);
    return Object.fromEntries(keys.map((key) => [key, plausible(schema.properties?.[key], key)]));
  }
  if (type === 'array')
    return Array.from({ length: schema.minItems ?? 0 }, () => plausible(schema.items, name));
  if (type === 'integer' || type === 'number') return Math.max(schema.minimum ?? 1, 1);
  if (type === 'boolean') return true;
  const fits = (text: string) =>
    (schema.pattern === undefined || new RegExp(schema.pattern, 'u').test(text)) &&
    text.length >= (schema.minLength ?? 0) &&
    text.length <= (schema.maxLength ?? Infinity) &&
    (schema.format !== 'email' || text.includes('@'));
  const hinted = HINTS.filter(([pattern]) => pattern.test(name)).map(([, text]) => text);
  const tried = [...hinted, ...PLAUSIBLE_TEXT];
  return tried.find(fits) ?? 'x'.repeat(Math.max(schema.minLength ?? 1, 1));
}

/** Text tried in every field, path, query parameter and header. */
const HOSTILE_TEXT = [
  'constructor',
  '__proto__',
  'toString',
  'hasOwnProperty',
  '',
  ' ',
  '\u0000',
  '%',
  "'; DROP TABLE users; --",
  '-1',
  '1e309',
  'NaN',
  '99999999999999999999999',
  '../../etc/passwd',
  '{"__proto__":{"role":"admin"}}',
  '{"constructor":{"prototype":{}}}',
  '[]',
  'null',
  '{}',
  '😀',
  '\ud800',
  'x'.repeat(10_000),
];

/** Values a JSON field may be given, beyond the text above. */
const HOSTILE_VALUES: unknown[] = [
  ...HOSTILE_TEXT,
  null,
  true,
  -1,
  0,
  1e308,
  1.5,
  [],
  ['constructor'],
  {},
  { constructor: 'x' },
  JSON.parse('{"__proto__":{"role":"admin"}}'),
];

/** Whole bodies, as sent. */
const HOSTILE_BODIES = [
  'not json',
  '{"unterminated": ',
  '[]',
  'null',
  '"text"',
  '1',
  '{}',
  '{"__proto__":{"role":"admin"}}',
  '{"constructor":{"prototype":{"role":"admin"}}}',
  `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
];

/** Text as a URL's path segment or query value: lone surrogates replaced, the rest encoded. */
const inUrl = (text: string) => encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '\ufffd'));

interface Asked {
  method: string;
  url: string;
  headers?: Record<string, string>;
  payload?: string;
  what: string;
}

describe('every API route, asked with hostile input', () => {
  it('answers each request with a 4xx or 2xx, never a 5xx, and never hangs', async () => {
    const document = JSON.parse(await generateOpenApi()) as {
      paths: Record<string, Record<string, Operation>>;
    };
    const admin = authHeaders(await signedInAdmin(test));
    const user = authHeaders(await signedInUser(test.app));
    const requests: Asked[] = [];
    let keys = 0;
    // Signing out ends the sessions the other requests use: it goes last.
    const paths = Object.entries(document.paths).sort(
      ([a], [b]) => Number(/logout/i.test(a)) - Number(/logout/i.test(b)),
    );
    for (const [template, methods] of paths) {
      for (const [lower, operation] of Object.entries(methods)) {
        const method = lower.toUpperCase();
        const parameters = operation.parameters ?? [];
        // The plausible JSON of each parameter that holds JSON, and its schema.
        const jsonIn = new Map(
          parameters.flatMap((p) => {
            const json = JSON_IN_QUERY[`${template} ${p.name}`];
            if (!json) return [];
            const schema = z.toJSONSchema(json.schema, { io: 'input', unrepresentable: 'any' });
            const base = plausible(schema as Schema, p.name, json.everyField);
            return [
              [p, { schema: schema as Schema, base: base as Record<string, unknown> }] as const,
            ];
          }),
        );
        // Every parameter plausible but `hostile`, which is given `text`.
        const request = (hostile?: Parameter, text = '') => {
          const value = (p: Parameter) =>
            p === hostile
              ? text
              : /idempotency/i.test(p.name)
                ? `hostile-input-${++keys}` // a key used once, so no answer is a replay
                : jsonIn.has(p)
                  ? JSON.stringify(jsonIn.get(p)?.base)
                  : String(plausible(p.schema, p.name));
          const path = parameters
            .filter((p) => p.in === 'path')
            .reduce((url, p) => url.replace(`{${p.name}}`, inUrl(value(p))), template);
          const query = parameters
            .filter((p) => p.in === 'query')
            .map((p) => `${p.name}=${inUrl(value(p))}`);
          const headers = Object.fromEntries(
            parameters
              .filter((p) => p.in === 'header')
              .map((p) => [p.name, value(p).replace(/[^\t\x20-\x7e]/g, '?')]),
          );
          return { url: query.length > 0 ? `${path}?${query.join('&')}` : path, headers };
        };
        const roles = operation.security ? [admin, user] : [{}];
        for (const role of roles) {
          const ask = (asked: Omit<Asked, 'method'>) =>
            requests.push({ method, ...asked, headers: { ...role, ...asked.headers } });
          ask({ ...request(), what: 'plausible parameters' });
          for (const p of parameters)
            for (const text of HOSTILE_TEXT)
              ask({ ...request(p, text), what: `${p.in} ${p.name}` });
          for (const p of parameters.filter((q) => q.in === 'query')) {
            const { url, headers } = request();
            const repeated = `${url}&${p.name}=1&${p.name}=2`;
            ask({ url: repeated, headers, what: `query ${p.name} given three times` });
          }
          // Each field of a parameter's JSON given each hostile value, the others plausible.
          for (const [p, { schema, base }] of jsonIn) {
            for (const field of Object.keys(schema.properties ?? {}))
              for (const value of HOSTILE_VALUES) {
                const text = JSON.stringify({ ...base, [field]: value });
                ask({ ...request(p, text), what: `${p.name}.${field}` });
              }
          }
          const plain = request();
          if (method === 'GET' || method === 'DELETE') continue;
          const json = { ...plain.headers, 'content-type': 'application/json' };
          for (const body of HOSTILE_BODIES)
            ask({
              url: plain.url,
              headers: json,
              payload: body,
              what: `body ${body.slice(0, 40)}`,
            });
          const schema = operation.requestBody?.content?.['application/json']?.schema;
          const base = plausible(schema) as Record<string, unknown>;
          ask({
            url: plain.url,
            headers: json,
            payload: JSON.stringify(base),
            what: 'plausible body',
          });
          for (const field of Object.keys(schema?.properties ?? {}))
            for (const value of HOSTILE_VALUES) {
              const payload = JSON.stringify({ ...base, [field]: value });
              ask({ url: plain.url, headers: json, payload, what: `field ${field}` });
            }
          // Uploads: multipart with no boundary, a boundary never used, a part cut short.
          const multipart = (type: string, payload: string, what: string) =>
            ask({
              url: plain.url,
              headers: { ...plain.headers, 'content-type': type },
              payload,
              what,
            });
          multipart('multipart/form-data', 'garbage', 'multipart without a boundary');
          multipart('multipart/form-data; boundary=x', 'garbage', 'multipart without parts');
          multipart(
            'multipart/form-data; boundary=x',
            '--x\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF',
            'multipart cut short',
          );
          multipart('text/plain', 'constructor', 'text body');
        }
      }
    }

    const failures: string[] = [];
    for (const asked of requests) {
      const answered = test.app.inject({
        method: asked.method as 'GET',
        url: asked.url,
        headers: asked.headers,
        payload: asked.payload,
      });
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<null>((resolve) => (timer = setTimeout(resolve, 5_000, null)));
      const response = await Promise.race([answered, timeout]);
      clearTimeout(timer);
      const where = `${asked.method} ${asked.url.slice(0, 120)} (${asked.what})`;
      if (response === null) {
        failures.push(`${where}: no answer in 5 s`);
        continue;
      }
      if (response.statusCode >= 500)
        failures.push(`${where}: ${response.statusCode} ${response.body.slice(0, 200)}`);
      else if (response.statusCode >= 400 && !/"message"/.test(response.body))
        failures.push(`${where}: ${response.statusCode} without a message: ${response.body}`);
    }
    expect(requests.length).toBeGreaterThan(3_000);
    expect(failures).toEqual([]);
  }, 600_000);
});
