// `npm run user -- …`: account administration on the configured database, without the HTTP server.
import pino from 'pino';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { createServices } from '../services.js';
import { runUserCommand } from './user-command.js';

const config = loadConfig();
const db = await openDatabase(config.database);
try {
  await migrateToLatest(db);
  const services = createServices(config, db, pino({ level: 'warn' }));
  process.exitCode = await runUserCommand(process.argv.slice(2), services, (line) => process.stdout.write(`${line}\n`));
} finally {
  await db.close();
}
