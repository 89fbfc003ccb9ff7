import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../test/app.ts';

const test = useTestApp();
const HOSPITALS = 40;

/** Forty hospitals in forty states: a listing of about 12 KB, a states list of about 2 KB. */
beforeAll(async () => {
  const pool = test.database.connection.pool;
  for (let i = 0; i < HOSPITALS; i++) {
    const code = String.fromCharCode(65 + Math.floor(i / 26), 65 + (i % 26));
    await pool.query(`INSERT INTO states (code, name, fips) VALUES ($1, $2, $3)`, [
      code,
      `Test State ${i}`,
      String(60 + i),
    ]);
    await pool.query(
      `INSERT INTO hospitals (source_key, name, state_code, location_names, addresses, is_demo)
       VALUES ($1, $2, $3, '{"Main Campus"}', '{"1 Main St"}', false)`,
      [`compression-${i}`, `Compression Test Regional Medical Center ${i}`, code],
    );
  }
});

function get(url: string, acceptEncoding?: string) {
  return test.app.inject({
    method: 'GET',
    url,
    headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
  });
}

describe('compression of large answers', () => {
  it('sends the inventory listing in Brotli, else gzip, else plain, with the same rows', async () => {
    const plain = await get('/api/Inventory/InventoryListings');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const rows = plain.json<unknown[]>();
    expect(rows).toHaveLength(HOSPITALS);
    expect(plain.rawPayload.length).toBeGreaterThan(8_000);

    const brotli = await get('/api/Inventory/InventoryListings', 'gzip, deflate, br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toContain('accept-encoding');
    expect(JSON.parse(brotliDecompressSync(brotli.rawPayload).toString('utf8'))).toEqual(rows);
    expect(brotli.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);

    const gzip = await get('/api/Inventory/InventoryListings', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString('utf8'))).toEqual(rows);

    // A client that asks for no compression gets none.
    const identity = await get('/api/Inventory/InventoryListings', 'identity');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.json()).toEqual(rows);
  });

  it('leaves a route that does not opt in plain, however large', async () => {
    // The states list is over the 1 KB threshold but small for all 52 states: not worth it.
    const states = await get('/api/master/getallstates', 'br, gzip');
    expect(states.statusCode).toBe(200);
    expect(states.rawPayload.length).toBeGreaterThan(1024);
    expect(states.headers['content-encoding']).toBeUndefined();
  });

  it('sends an answer under 1 KB plain', async () => {
    const missing = await get('/api/Inventory/hospital/00000000-0000-4000-8000-000000000000', 'br');
    expect(missing.statusCode).toBe(404);
    expect(missing.rawPayload.length).toBeLessThan(1024);
    expect(missing.headers['content-encoding']).toBeUndefined();
  });
});
