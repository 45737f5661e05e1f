import { loadConfigOrExit } from '@workcell/config';
import { migrate } from '@workcell/migrations';

/**
 * Applies pending migrations to the database (creating it if needed). Safe to run again. Over DATABASE_DIRECT_URL:
 * dbmate's migrations are sessions of their own, never statements a transaction pooler may split across servers.
 */
const config = loadConfigOrExit();
try {
  const output = await migrate(config.database.directUrl);
  process.stdout.write(output.trim() ? `${output.trim()}\n` : 'migrations: nothing to apply\n');
} catch (error) {
  const detail = (error as { stderr?: string }).stderr?.trim() || (error as Error).message;
  process.stderr.write(`migration failed: ${detail}\n`);
  process.exit(1);
}
