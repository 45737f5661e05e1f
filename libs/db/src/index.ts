export { createDatabase, type Database, type Prisma, PrismaClient } from './database.js';
