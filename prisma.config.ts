// Prisma CLI configuration. Only `prisma generate` is used; migrations are plain SQL applied by dbmate.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
});
