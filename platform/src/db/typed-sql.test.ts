import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestDatabase, type TestDatabase } from '../testing.ts';
import {
  exec,
  integerLiteral,
  many,
  maybeOne,
  one,
  RowCountError,
  RowSchemaError,
  sql,
  toPg,
} from './typed-sql.ts';

// The slonik-token helper against a real PostgreSQL: rows parsed by their zod schema, clear errors that
// name the statement, and every interpolated value bound as a parameter.

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  await db.pool.query(`create table typed_sql_people (
    id bigint generated always as identity primary key,
    name text not null unique,
    born date,
    tags text[] not null default '{}',
    seen_at timestamptz not null default now()
  )`);
  await db.pool.query(
    `insert into typed_sql_people (name, born, tags) values ('Ada', '1815-12-10', '{math}'), ('Grace', null, '{}')`,
  );
});
afterAll(async () => {
  await db.drop();
});

const Person = z.object({
  id: z.number(),
  name: z.string(),
  born: z.date().nullable(),
  tags: z.array(z.string()),
  seen_at: z.date(),
});

describe('typed SQL over a pg pool', () => {
  it('parses every row with the statement schema, and returns its output type', async () => {
    const rows = await many(
      db.pool,
      sql.type(Person)`select id, name, born, tags, seen_at from typed_sql_people order by id`,
    );
    expect(rows.map((r) => r.name)).toEqual(['Ada', 'Grace']);
    expect(rows[0]!.id).toBeTypeOf('number');
    expect(rows[0]!.born).toBeInstanceOf(Date);
    expect(rows[0]!.tags).toEqual(['math']);
    expect(rows[1]!.born).toBeNull();

    // The output type, transforms included.
    const Upper = z.object({ name: z.string().transform((n) => n.toUpperCase()) });
    const first = await one(db.pool, sql.type(Upper)`select name from typed_sql_people where id = ${1}`);
    expect(first.name).toBe('ADA');
  });

  it('refuses a row that does not match its schema, naming the statement, the row and the column', async () => {
    const Wrong = z.object({ name: z.string(), born: z.date() });
    const query = sql.type(Wrong)`select name, born from typed_sql_people order by id`;
    const error = await many(db.pool, query).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RowSchemaError);
    const message = (error as Error).message;
    expect(message).toContain('"select name, born from typed_sql_people order by id"');
    expect(message).toContain('row 1 does not match its schema');
    expect(message).toContain('born:');
    expect((error as RowSchemaError).rowIndex).toBe(1);
    expect((error as RowSchemaError).issues[0]!.path).toEqual(['born']);

    // A prepared statement is named by its name.
    const named = sql.prepared(
      'mrn_test_wrong',
      Wrong,
    )`select name, born from typed_sql_people where born is null`;
    await expect(one(db.pool, named)).rejects.toThrow(
      /Query "mrn_test_wrong": row 0 does not match its schema/,
    );
  });

  it('one wants exactly one row, maybeOne at most one', async () => {
    const Name = z.object({ name: z.string() });
    const none = sql.type(Name)`select name from typed_sql_people where name = ${'Nobody'}`;
    const both = sql.type(Name)`select name from typed_sql_people`;
    await expect(one(db.pool, none)).rejects.toThrow(RowCountError);
    await expect(one(db.pool, none)).rejects.toThrow(
      /Query "select name from typed_sql_people where name = \$1": expected one row, got 0/,
    );
    await expect(one(db.pool, both)).rejects.toThrow(/expected one row, got 2/);
    expect(await maybeOne(db.pool, none)).toBeUndefined();
    await expect(maybeOne(db.pool, both)).rejects.toThrow(/expected at most one row, got 2/);
    expect(
      await maybeOne(db.pool, sql.type(Name)`select name from typed_sql_people where id = ${2}`),
    ).toEqual({
      name: 'Grace',
    });
  });

  it('binds values as parameters: an injection attempt in a value is inert', async () => {
    const evil = `x'); drop table typed_sql_people; --`;
    const sneaky = `' or '1'='1`;
    const statement = sql.fragment`insert into typed_sql_people (name) values (${evil}), (${sneaky})`;
    expect(toPg(statement)).toEqual({
      text: 'insert into typed_sql_people (name) values ($1), ($2)',
      values: [evil, sneaky],
    });
    expect(await exec(db.pool, statement)).toBe(2);

    const Name = z.object({ name: z.string() });
    // Stored as typed, the table still there, and the "always true" condition matches only itself.
    expect(
      await one(db.pool, sql.type(Name)`select name from typed_sql_people where name = ${evil}`),
    ).toEqual({
      name: evil,
    });
    const matched = await many(
      db.pool,
      sql.type(Name)`select name from typed_sql_people where name = ${sneaky}`,
    );
    expect(matched).toEqual([{ name: sneaky }]);
    const names = await many(
      db.pool,
      sql.type(
        Name,
      )`select name from typed_sql_people where name = any(${sql.array(['Ada', evil], 'text')}) order by id`,
    );
    expect(names.map((r) => r.name)).toEqual(['Ada', evil]);
    expect(
      await exec(
        db.pool,
        sql.fragment`delete from typed_sql_people where name = any(${sql.array([evil, sneaky], 'text')})`,
      ),
    ).toBe(2);

    // Text can only enter a statement as a literal the code wrote, or as a safe integer.
    expect(() => integerLiteral(Number.NaN)).toThrow(TypeError);
    expect(() => integerLiteral('1; drop table x' as unknown as number)).toThrow(TypeError);
    expect(toPg(sql.type(Name)`select name from typed_sql_people limit ${integerLiteral(1)}`).text).toBe(
      'select name from typed_sql_people limit 1',
    );
  });

  it('runs a prepared token as a named statement, on a client as on the pool', async () => {
    const client = await db.pool.connect();
    try {
      const Count = z.object({ n: z.number() });
      const query = sql.prepared(
        'mrn_test_count',
        Count,
      )`select count(*) as n from typed_sql_people where id >= ${1}`;
      expect(await one(client, query)).toEqual({ n: 2 });
      expect(await one(client, query)).toEqual({ n: 2 });
      const prepared = await many(
        client,
        sql.type(
          z.object({ name: z.string() }),
        )`select name from pg_prepared_statements where name = ${'mrn_test_count'}`,
      );
      expect(prepared).toHaveLength(1);
    } finally {
      client.release();
    }
  });

  it("passes the database's errors through as they are (their codes are what callers test)", async () => {
    const error = await exec(
      db.pool,
      sql.fragment`insert into typed_sql_people (name) values (${'Ada'})`,
    ).catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe('23505');
  });
});
