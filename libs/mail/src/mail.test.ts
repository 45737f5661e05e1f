import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configFrom } from '@workcell/config';
import { createMailer, OutboxMailer } from './mail.js';

describe('OutboxMailer', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'workcell-mail-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('writes one RFC 5322 file per message id, readable as text (and the same id again is the same file)', async () => {
    const mailer = createMailer(configFrom({ MAIL_OUTBOX_DIR: dir, MAIL_FROM: 'Workcell <no-reply@example.com>' }));
    assert.ok(mailer instanceof OutboxMailer);
    const message = { id: 'invitation-1', to: 'ada@example.com', subject: 'You are invited to “Demo”', text: 'Open https://example.com/accept?token=abc_DEF-123 to join.' };
    await mailer.send(message);
    await mailer.send(message);
    assert.deepEqual(await readdir(dir), ['invitation-1.eml']);
    const eml = await readFile(join(dir, 'invitation-1.eml'), 'utf8');
    const [head = '', body = ''] = eml.split('\n\n');
    assert.match(head, /^From: Workcell <no-reply@example\.com>$/m);
    assert.match(head, /^To: ada@example\.com$/m);
    assert.match(head, /^Subject: =\?UTF-8\?/m);
    assert.match(head, /^Message-ID: <invitation-1@workcell\.invalid>$/m);
    assert.match(head, /^Date: /m);
    assert.match(head, /^MIME-Version: 1\.0$/m);
    // An ASCII body is sent as it is (7bit): the link is readable in the file.
    assert.match(body, /https:\/\/example\.com\/accept\?token=abc_DEF-123/);
  });

  it('refuses an id that is not a safe file name (nothing written outside the directory)', async () => {
    const mailer = new OutboxMailer(dir, 'x@example.com');
    await assert.rejects(mailer.send({ id: '../escape', to: 'a@example.com', subject: 's', text: 't' }), /safe file name/);
    assert.deepEqual(await readdir(dir), []);
  });
});
