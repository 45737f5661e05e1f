import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server, type Socket } from 'node:net';
import { configFrom } from '@workcell/config';
import { createMailer, OutboxMailer, SmtpMailer } from './mail.js';

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

/**
 * A minimal SMTP peer (RFC 5321: greeting, EHLO, MAIL, RCPT, DATA, QUIT) that keeps what it was sent: enough to see
 * the SMTP driver speak the protocol end to end over a real socket.
 */
function smtpPeer(): Promise<{ server: Server; port: number; received: { from: string; to: string[]; data: string }[] }> {
  const received: { from: string; to: string[]; data: string }[] = [];
  const server = createServer((socket: Socket) => {
    let buffer = '';
    let inData = false;
    let current = { from: '', to: [] as string[], data: '' };
    socket.write('220 peer ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            received.push(current);
            current = { from: '', to: [], data: '' };
            socket.write('250 queued\r\n');
          } else current.data += `${line.startsWith('..') ? line.slice(1) : line}\n`;
        } else if (/^(EHLO|HELO)/i.test(line)) socket.write('250 peer\r\n');
        else if (/^MAIL FROM:/i.test(line)) {
          current.from = line.slice(10);
          socket.write('250 ok\r\n');
        } else if (/^RCPT TO:/i.test(line)) {
          current.to.push(line.slice(8));
          socket.write('250 ok\r\n');
        } else if (/^DATA/i.test(line)) {
          inData = true;
          socket.write('354 go on\r\n');
        } else if (/^QUIT/i.test(line)) socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port, received })));
}

describe('SmtpMailer', () => {
  it('sends the message over SMTP (MAIL_DRIVER=smtp, MAIL_SMTP_URL)', async () => {
    const peer = await smtpPeer();
    try {
      const mailer = createMailer(configFrom({ MAIL_DRIVER: 'smtp', MAIL_SMTP_URL: `smtp://127.0.0.1:${peer.port}`, MAIL_FROM: 'Workcell <no-reply@example.com>' }));
      assert.ok(mailer instanceof SmtpMailer);
      await mailer.send({ id: 'invitation-2', to: 'grace@example.com', subject: 'Hello', text: 'Open https://example.com/accept?token=xyz' });
      await mailer.close();
      assert.equal(peer.received.length, 1);
      const [message] = peer.received;
      assert.match(message!.from, /no-reply@example\.com/);
      assert.deepEqual(
        message!.to.map((t) => t.replace(/[<>\s]/g, '')),
        ['grace@example.com'],
      );
      assert.match(message!.data, /^Message-ID: <invitation-2@workcell\.invalid>$/m);
      assert.match(message!.data, /https:\/\/example\.com\/accept\?token=xyz/);
    } finally {
      peer.server.close();
    }
  });
});
