import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ADMIN_ONLY } from '../http/openapi-errors.ts';
import { generateOpenApi, OPENAPI_FILE } from './openapi.ts';

describe('docs/openapi.json', () => {
  it('is the document the server publishes (run `npm run openapi` after changing a route)', async () => {
    expect(await readFile(OPENAPI_FILE, 'utf8')).toBe(await generateOpenApi());
  });

  it('lists the error answers: 400 for input, 401 for a session, 429 for a rate limit, 403/404/409 as routes name them', async () => {
    type Operation = { responses: Record<string, unknown>; security?: unknown };
    const document = JSON.parse(await generateOpenApi()) as {
      paths: Record<string, Record<string, Operation>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(document.components.schemas.ApiError).toMatchObject({
      required: ['isSuccess', 'statusCode', 'error', 'message'],
    });
    const error = { schema: { $ref: '#/components/schemas/ApiError' } };
    const filter = document.paths['/api/Inventory/getHospitalbyFilter']?.get;
    expect(filter?.responses['400']).toEqual({
      description: 'The request broke a rule; `errors` names each field and rule.',
      content: { 'application/json': error },
    });
    expect(filter?.responses['401']).toBeUndefined();
    const states = document.paths['/api/master/getallstates']?.get;
    expect(Object.keys(states?.responses ?? {})).toEqual(['200']);
    const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods));
    const signedIn = operations.filter((operation) => operation.security);
    expect(signedIn.length).toBeGreaterThan(20);
    for (const operation of signedIn)
      expect(operation.responses['401']).toMatchObject({ content: { 'application/json': error } });
    // The refusals the services give, where a route names them; every admin route has its 403.
    expect(document.paths['/api/Inventory/hospital/{hospitalId}']?.get?.responses['404']).toEqual({
      description: 'No hospital has this id.',
      content: { 'application/json': error },
    });
    const admin = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/api/admin/'))
      .flatMap(([, methods]) => Object.values(methods));
    expect(admin.length).toBeGreaterThan(10);
    for (const operation of admin)
      expect(operation.responses['403']).toMatchObject({ description: ADMIN_ONLY });
    // A route with its own rate limit lists its 429.
    const register = document.paths['/api/Auth/Register']?.post?.responses ?? {};
    expect(Object.keys(register).sort()).toEqual(['200', '400', '409', '429']);
    expect(Object.keys(states?.responses ?? {})).toEqual(['200']);
    // A file download keeps its 200 beside the errors.
    expect(document.paths['/api/reports/{token}']?.get?.responses['200']).toEqual({
      description: 'Default Response',
    });
  });
});
