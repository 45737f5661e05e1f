import assert from 'node:assert/strict';
import { dbmateUrl, migrationFiles, migrationsDigest } from './index.js';

describe('migrations', () => {
  it('lists dbmate-format SQL files in order', () => {
    const files = migrationFiles();
    assert.ok(files.length > 0);
    for (const f of files) assert.match(f, /^\d{14}_[a-z0-9_]+\.sql$/);
    assert.deepEqual([...files].sort(), files);
  });

  it('digests deterministically', () => {
    assert.match(migrationsDigest(), /^[0-9a-f]{64}$/);
    assert.equal(migrationsDigest(), migrationsDigest());
  });

  it('disables TLS for dbmate unless the URL asks for it', () => {
    assert.equal(dbmateUrl('postgresql://u@h:5432/d'), 'postgresql://u@h:5432/d?sslmode=disable');
    assert.equal(dbmateUrl('postgresql://u@h:5432/d?sslmode=require'), 'postgresql://u@h:5432/d?sslmode=require');
  });
});
