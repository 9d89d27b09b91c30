import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing.ts';
import { pageOf } from './page-of.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await db.pool.query('create table fruit (id int primary key, name text not null, kind text not null)');
  await db.pool.query(`create table kinds (kind text primary key, label text not null)`);
  await db.pool.query(`insert into kinds values ('berry', 'Berries'), ('pome', 'Pomes')`);
  await db.pool.query(
    `insert into fruit select i, 'fruit ' || i, case when i % 3 = 0 then 'pome' else 'berry' end
       from generate_series(1, 10) as i`,
  );
});
afterAll(async () => {
  await db?.drop();
});

describe('pageOf', () => {
  it('answers the page asked for and the count of the whole list, with the parameters of both', async () => {
    const page = await pageOf<{ id: number; label: string }>(db.pool, {
      select: 'f.id, k.label',
      from: 'from fruit f join kinds k on k.kind = f.kind',
      countFrom: 'from fruit f',
      where: 'f.kind = $1',
      params: ['berry'],
      orderBy: 'f.id desc',
      page: 2,
      perPage: 3,
    });
    // Berries: 1 2 4 5 7 8 10 (7 of them); newest first, the second page of three.
    expect(page.rows).toEqual([
      { id: 5, label: 'Berries' },
      { id: 4, label: 'Berries' },
      { id: 2, label: 'Berries' },
    ]);
    expect(page.total).toBe(7);
  });

  it('answers no rows past the end, and the count still', async () => {
    const page = await pageOf(db.pool, {
      select: 'id',
      from: 'from fruit',
      where: 'true',
      orderBy: 'id',
      page: 5,
      perPage: 4,
    });
    expect(page).toEqual({ rows: [], total: 10 });
  });
});
