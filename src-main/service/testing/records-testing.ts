import { expect } from 'vitest';
import type { TestClient } from './harness.js';

/** A patient file with one connection per access level given; its _id. */
export async function patientFileWithConnections(admin: TestClient, levels: number[]): Promise<string> {
  const file = (await admin.post('/c_patientfiles', { c_name: 'File' })).json();
  for (const access of levels) {
    const res = await admin.post('/connections', { context: { _id: file._id, object: 'c_patientfile' }, access });
    expect(res.statusCode, res.body).toBe(200);
  }
  return file._id as string;
}
