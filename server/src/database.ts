import { commandMigrations } from '@mrn/command-api';
import {
  type Config,
  createPool,
  type EmbeddedPostgresHandle,
  type Logger,
  type Pool,
  platformMigrations,
  runMigrations,
  startEmbeddedPostgres,
} from '@mrn/platform';
import { projectionMigrations } from '@mrn/projections';
import { queryMigrations } from '@mrn/query-api';
import { dispatcherMigrations } from '@mrn/webhook-dispatcher';

export const allMigrations = () => [
  ...platformMigrations(),
  ...commandMigrations(),
  ...projectionMigrations(),
  ...queryMigrations(),
  ...dispatcherMigrations(),
];

export interface Database {
  url: string;
  pool: Pool;
  close(): Promise<void>;
}

/** DATABASE_URL when set, otherwise embedded PostgreSQL in DATA_DIR; migrated before anything uses it. */
export async function openDatabase(config: Config, logger: Logger): Promise<Database> {
  let embedded: EmbeddedPostgresHandle | undefined;
  let url = config.DATABASE_URL;
  if (!url) {
    logger.info({ dataDir: config.DATA_DIR, port: config.EMBEDDED_PG_PORT }, 'starting embedded PostgreSQL');
    embedded = await startEmbeddedPostgres({
      dataDir: config.DATA_DIR,
      port: config.EMBEDDED_PG_PORT,
      database: 'mrn',
    });
    url = embedded.url('mrn');
  }
  const pool = createPool(url);
  const applied = await runMigrations(pool, allMigrations());
  if (applied.length > 0) logger.info({ applied }, 'migrations applied');
  return {
    url,
    pool,
    async close() {
      await pool.end();
      await embedded?.stop();
    },
  };
}
