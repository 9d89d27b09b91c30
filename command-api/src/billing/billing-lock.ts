import type { Pool } from '@mrn/platform';

/**
 * One billing command per funder at a time, across processes: a session advisory lock held on its own
 * connection for the command's length, Stripe call included. Without it two "start membership"
 * requests sent at once both passed the check and both charged the card, though only one could be
 * recorded.
 */
export async function withBillingLock<T>(pool: Pool, accountId: string, work: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(`select pg_advisory_lock(hashtext('billing:' || $1))`, [accountId]);
    try {
      return await work();
    } finally {
      await client.query(`select pg_advisory_unlock(hashtext('billing:' || $1))`, [accountId]);
    }
  } finally {
    client.release();
  }
}
