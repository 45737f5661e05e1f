import { loadConfigOrExit } from '@workcell/config';
import { migrate } from '@workcell/migrations';

/** Applies pending migrations to DATABASE_URL (creating the database if needed). Safe to run again. */
const config = loadConfigOrExit();
try {
  const output = await migrate(config.database.url);
  process.stdout.write(output.trim() ? `${output.trim()}\n` : 'migrations: nothing to apply\n');
} catch (error) {
  const detail = (error as { stderr?: string }).stderr?.trim() || (error as Error).message;
  process.stderr.write(`migration failed: ${detail}\n`);
  process.exit(1);
}
