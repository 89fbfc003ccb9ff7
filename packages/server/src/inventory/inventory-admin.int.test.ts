import { describe, expect, it } from 'vitest';
import { authHeaders, signedInAdmin, signedInUser, useTestApp } from '../test/app.ts';

const test = useTestApp();

async function hospital(): Promise<string> {
  const { rows } = await test.database.connection.pool.query<{ id: string }>(
    `INSERT INTO hospitals (source_key, name) VALUES (gen_random_uuid()::text, 'Classified Hospital') RETURNING id`,
  );
  return rows[0]?.id ?? '';
}

const classify = (id: string, headers: Record<string, string>, payload: unknown) =>
  test.app.inject({
    method: 'PUT',
    url: `/api/admin/hospitals/${id}/classification`,
    headers,
    payload: payload as Record<string, unknown>,
  });

describe('PUT api/admin/hospitals/:hospitalId/classification', () => {
  it("stores an admin's labels, trimmed", async () => {
    const id = await hospital();
    const admin = await signedInAdmin(test);
    const response = await classify(id, authHeaders(admin), {
      hospitalType: ' Critical Access Hospitals ',
      healthsystemType: 'Independent',
    });
    expect(response.statusCode).toBe(200);
    const { rows } = await test.database.connection.pool.query(
      `SELECT hospital_type, health_system_type FROM hospitals WHERE id = $1`,
      [id],
    );
    expect(rows[0]).toEqual({
      hospital_type: 'Critical Access Hospitals',
      health_system_type: 'Independent',
    });
    // The hospital's page shows them (and the admin's form starts from them).
    const detail = await test.app.inject({ method: 'GET', url: `/api/Inventory/hospital/${id}` });
    expect(detail.json()).toMatchObject({
      hospitalType: 'Critical Access Hospitals',
      healthsystemType: 'Independent',
    });
    await classify(id, authHeaders(admin), { hospitalType: '', healthsystemType: null });
    const cleared = await test.app.inject({ method: 'GET', url: `/api/Inventory/hospital/${id}` });
    expect(cleared.json()).toMatchObject({ hospitalType: null, healthsystemType: null });
  });

  it('is for administrators only (401 signed out, 403 otherwise)', async () => {
    const id = await hospital();
    const body = { hospitalType: null, healthsystemType: null };
    expect((await classify(id, {}, body)).statusCode).toBe(401);
    const user = await signedInUser(test.app);
    expect((await classify(id, authHeaders(user), body)).statusCode).toBe(403);
  });

  it('names the field of a bad value (400) and answers 404 for an unknown hospital', async () => {
    const admin = await signedInAdmin(test);
    const tooLong = await classify(await hospital(), authHeaders(admin), {
      hospitalType: 'x'.repeat(61),
      healthsystemType: null,
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json<{ errors: { field: string }[] }>().errors[0]?.field).toBe('hospitalType');
    const wrongType = await classify(await hospital(), authHeaders(admin), {
      hospitalType: 5,
      healthsystemType: null,
    });
    expect(wrongType.statusCode).toBe(400);
    const unknown = await classify('00000000-0000-0000-0000-000000000000', authHeaders(admin), {
      hospitalType: null,
      healthsystemType: null,
    });
    expect(unknown.statusCode).toBe(404);
  });
});
