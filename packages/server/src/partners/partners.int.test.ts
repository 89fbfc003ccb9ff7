import type { Partner } from '@ratelens/core';
import type { LoginResponse } from '@ratelens/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authHeaders,
  createTestApp,
  signedInAdmin,
  signedInUser,
  type TestApp,
} from '../test/app.ts';
import { multipart, png, type FormPart } from '../test/files.ts';

let test: TestApp;
let admin: LoginResponse;
beforeAll(async () => {
  test = await createTestApp();
  admin = await signedInAdmin(test);
});
afterAll(async () => {
  await test.close();
});

const SVG = Buffer.from(
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 40"><rect width="120" height="40"/></svg>',
);

function create(session: LoginResponse | null, parts: FormPart[]) {
  const form = multipart(parts);
  return test.app.inject({
    method: 'POST',
    url: '/api/Partner',
    payload: form.payload,
    headers: { ...form.headers, ...(session ? authHeaders(session) : {}) },
  });
}

function partnerForm(name: string, image: Buffer, filename = 'logo.png'): FormPart[] {
  return [
    { name: 'name', value: name },
    { name: 'website', value: 'https://partner.example.org' },
    { name: 'image', filename, content: image },
  ];
}

async function list(): Promise<Partner[]> {
  const response = await test.app.inject({ method: 'GET', url: '/api/Partner/list' });
  expect(response.statusCode).toBe(200);
  return response.json<{ data: Partner[] }>().data;
}

describe('partners', () => {
  it('lists nothing before an admin adds a partner', async () => {
    expect(await list()).toEqual([]);
  });

  it('lets an admin add a partner whose logo the public list links with its size', async () => {
    const response = await create(admin, partnerForm('Acme Health', png(4, 3)));
    expect(response.statusCode).toBe(200);
    const partner = response.json<Partner>();
    expect(partner).toMatchObject({
      name: 'Acme Health',
      website: 'https://partner.example.org',
      imageurl: `/api/Partner/image/${partner.id}`,
      imageWidth: 4,
      imageHeight: 3,
    });
    expect(await list()).toContainEqual(partner);
  });

  it('refuses an image whose header claims more than 10,000 pixels a side', async () => {
    // A one-pixel PNG whose header claims another size (as a crafted file would).
    const claiming = (width: number, height: number) => {
      const image = png(1, 1);
      image.writeUInt32BE(width, 16);
      image.writeUInt32BE(height, 20);
      return image;
    };
    for (const image of [claiming(65_535, 65_535), claiming(4_000_000_000, 1)]) {
      const response = await create(admin, partnerForm('Giant', image));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        errors: [
          {
            field: 'image',
            message: 'The image must not be more than 10,000 pixels wide or high.',
          },
        ],
      });
    }
  });

  it('serves the logo bytes with their type and a long cache lifetime', async () => {
    const image = png(4, 3);
    const partner = (await create(admin, partnerForm('Served', image))).json<Partner>();
    const response = await test.app.inject({ method: 'GET', url: partner.imageurl });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(image)).toBe(true);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['cache-control']).toContain('max-age=31536000');
    // Only the policy every answer has: a bitmap runs nothing.
    expect(response.headers['content-security-policy']).toBe("frame-ancestors 'none'");
  });

  it('serves an SVG logo as image/svg+xml under a policy that runs nothing', async () => {
    const partner = (await create(admin, partnerForm('Vector', SVG, 'logo.svg'))).json<Partner>();
    expect([partner.imageWidth, partner.imageHeight]).toEqual([120, 40]);
    const response = await test.app.inject({ method: 'GET', url: partner.imageurl });
    expect(response.headers['content-type']).toBe('image/svg+xml');
    expect(response.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    );
  });

  it('orders the list by position', async () => {
    const last = (
      await create(admin, [...partnerForm('Last', png(1, 1)), { name: 'position', value: '900' }])
    ).json<Partner>();
    const first = (
      await create(admin, [...partnerForm('First', png(1, 1)), { name: 'position', value: '0' }])
    ).json<Partner>();
    const ids = (await list()).map((p) => p.id);
    // 'Served' was added earlier at the default position, after the first partner (0).
    const served = (await list()).find((p) => p.name === 'Served');
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(served?.id ?? ''));
    expect(ids.at(-1)).toBe(last.id);
  });

  it.each([
    ['0x10', 'Position must be a whole number.'],
    ['1e3', 'Position must be a whole number.'],
    ['2.5', 'Position must be a whole number.'],
    ['-1', 'Position must be a whole number.'],
    ['1000001', 'Position is too large.'],
  ])('rejects the position %s', async (position, message) => {
    const response = await create(admin, [
      ...partnerForm('Placed', png(1, 1)),
      { name: 'position', value: position },
    ]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ errors: [{ field: 'position', message }] });
  });

  it('rejects a file that is not an image, whatever its name', async () => {
    const response = await create(
      admin,
      partnerForm('Disguised', Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), 'logo.png'),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      errors: [
        {
          field: 'image',
          rule: 'file-type',
          message: 'The image must be a PNG, JPEG, WebP or SVG file.',
        },
      ],
    });
  });

  it.each([
    ['http://partner.example.org', 'Website must be an https:// address.'],
    ['https://user:pass@partner.example.org/', 'Website must not hold a user name or password.'],
    // No URL at all: refused as such, not thrown by the check of a user name (a 500 before).
    ['not a url', 'Website must be an https:// address.'],
    ['https://[::1', 'Website must be an https:// address.'],
  ])('rejects the website %s', async (website, message) => {
    const response = await create(admin, [
      { name: 'name', value: 'Plain' },
      { name: 'website', value: website },
      { name: 'image', filename: 'logo.png', content: png(1, 1) },
    ]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ errors: [{ field: 'website', message }] });
  });

  it('refuses a field cut at 10,000 bytes or given twice, rather than keep it other than sent', async () => {
    for (const [fields, rule, message] of [
      [
        [{ name: 'website', value: `https://partner.example.org/${'€'.repeat(4000)}` }],
        'too_big',
        'website must not be more than 10,000 bytes.',
      ],
      [
        [
          { name: 'website', value: 'https://partner.example.org' },
          { name: 'website', value: 'https://other.example.org' },
        ],
        'repeated',
        'website must be given once.',
      ],
    ] as const) {
      const response = await create(admin, [
        { name: 'name', value: 'Twice' },
        ...fields,
        { name: 'image', filename: 'logo.png', content: png(1, 1) },
      ]);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ errors: [{ field: 'website', rule, message }] });
    }
    // A field the route does not read is let be, however long or often.
    const extra = await create(admin, [
      { name: 'name', value: 'Extra' },
      { name: 'website', value: 'https://extra.example.org' },
      { name: 'note', value: 'x'.repeat(20_000) },
      { name: 'note', value: 'again' },
      { name: 'image', filename: 'logo.png', content: png(1, 1) },
    ]);
    expect(extra.statusCode).toBe(200);
  });

  it('answers 413 for an image over 1 MB', async () => {
    const big = Buffer.concat([png(1, 1), Buffer.alloc(1024 * 1024)]);
    const response = await create(admin, partnerForm('Huge', big));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ message: 'The image must not be larger than 1 MB.' });
  });

  it('answers 403 to a web user who tries to add or remove a partner', async () => {
    const user = await signedInUser(test.app);
    const partner = (await create(admin, partnerForm('Kept', png(1, 1)))).json<Partner>();
    const created = await create(user, partnerForm('Intruder', png(1, 1)));
    const removed = await test.app.inject({
      method: 'DELETE',
      url: `/api/Partner/${partner.id}`,
      headers: authHeaders(user),
    });
    expect([created.statusCode, removed.statusCode]).toEqual([403, 403]);
  });

  it('answers 401 to an anonymous visitor who tries to add a partner', async () => {
    const response = await create(null, partnerForm('Anonymous', png(1, 1)));
    expect(response.statusCode).toBe(401);
  });

  it('lets an admin remove a partner, after which its logo is gone', async () => {
    const partner = (await create(admin, partnerForm('Gone', png(1, 1)))).json<Partner>();
    const response = await test.app.inject({
      method: 'DELETE',
      url: `/api/Partner/${partner.id}`,
      headers: authHeaders(admin),
    });
    expect(response.statusCode).toBe(200);
    expect((await list()).map((p) => p.id)).not.toContain(partner.id);
    expect((await test.app.inject({ method: 'GET', url: partner.imageurl })).statusCode).toBe(404);
    const again = await test.app.inject({
      method: 'DELETE',
      url: `/api/Partner/${partner.id}`,
      headers: authHeaders(admin),
    });
    expect(again.statusCode).toBe(404);
    expect(again.json<{ message: string }>().message).toBe('No partner has this id.');
  });

  it('answers 400 naming the id when it is no partner id', async () => {
    const removed = await test.app.inject({
      method: 'DELETE',
      url: '/api/Partner/12',
      headers: authHeaders(admin),
    });
    const image = await test.app.inject({ method: 'GET', url: '/api/Partner/image/logo.png' });
    for (const response of [removed, image]) {
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        errors: [{ field: 'id', message: 'id must be a partner id.' }],
      });
    }
  });
});
