import type { Position } from './types.ts';

// A Postgres position is the pair (transaction id, sequence position) of DESIGN §3. Both parts are
// written as 16 hex digits so that plain string comparison is the log's order: the token can travel
// through HTTP headers and checkpoints without anyone parsing it.
const WIDTH = 16;

export const START: Position = `${'0'.repeat(WIDTH)}-${'0'.repeat(WIDTH)}`;

export function encodePosition(transactionId: bigint | string, position: bigint | string | number): Position {
  const hex = (v: bigint | string | number) => BigInt(v).toString(16).padStart(WIDTH, '0');
  return `${hex(transactionId)}-${hex(position)}`;
}

export function decodePosition(token: Position): { transactionId: bigint; position: bigint } {
  const match = /^([0-9a-f]{16})-([0-9a-f]{16})$/.exec(token);
  if (!match) throw new Error(`Not a position: ${token}`);
  return { transactionId: BigInt(`0x${match[1]}`), position: BigInt(`0x${match[2]}`) };
}

export const isPosition = (token: string): boolean => /^[0-9a-f]{16}-[0-9a-f]{16}$/.test(token);

export const comparePositions = (a: Position, b: Position): number => (a < b ? -1 : a > b ? 1 : 0);
