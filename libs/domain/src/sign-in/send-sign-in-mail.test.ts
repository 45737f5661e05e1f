import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { createDatabase, type Database } from '@workcell/db';
import type { Mailer, MailMessage } from '@workcell/mail';
import { useTestEnvironment } from '@workcell/testing';
import type { ProcedureContext } from '../kernel/procedure.js';
import { requestSignIn } from './request-sign-in.js';
import { sendNextSignInMail } from './send-sign-in-mail.js';

/**
 * The worker's sign-in e-mail (docs/authentication.md "Signing in"), against PostgreSQL with a mailer the test
 * controls and a clock it sets: a committed link is mailed once with a token only its hash of is stored; a failed
 * send leaves no token and is retried once due again; an expired link is never mailed; concurrent workers take
 * different links (SKIP LOCKED).
 */

const env = useTestEnvironment();

/** A mailer that records, fails while `failing`, and holds a send while `hold` is set (calling `entered` first). */
class TestMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  failing = false;
  hold: Promise<void> | null = null;
  entered = () => undefined as void;
  async send(message: MailMessage): Promise<void> {
    this.entered();
    if (this.hold) await this.hold;
    if (this.failing) throw new Error('the mail server refused');
    this.sent.push(message);
  }
  close = () => Promise.resolve();
}

describe('sendNextSignInMail', () => {
  let database: Database;
  let clock = new Date('2026-12-01T10:00:00.000Z');
  const ctx = () => ({ database, config: env.config, now: () => clock }) as ProcedureContext;

  beforeAll(() => {
    database = createDatabase(env.config, { poolSize: 4 });
  });
  afterAll(() => database?.close());

  async function asks(): Promise<{ email: string; userId: string }> {
    const email = `mail-${randomUUID().slice(0, 8)}@example.com`;
    const { id } = await database.prisma.user.create({ data: { email, name: 'Mail' } });
    await requestSignIn(ctx(), { email });
    return { email, userId: id };
  }
  const linkOf = (userId: string) => database.prisma.signInLink.findFirstOrThrow({ where: { userId } });
  const tokenIn = (message: MailMessage) => new URL(/(http\S+)/.exec(message.text)![1]!).searchParams.get('token')!;

  it('mails a due link once; only its token’s SHA-256 is stored', async () => {
    const { email, userId } = await asks();
    assert.equal((await linkOf(userId)).tokenHash, null);
    const mailer = new TestMailer();
    assert.equal(await sendNextSignInMail(ctx(), mailer), 'sent');
    assert.equal(await sendNextSignInMail(ctx(), mailer), 'none');
    assert.equal(mailer.sent.length, 1);
    const [message] = mailer.sent;
    assert.equal(message?.to, email);
    const link = await linkOf(userId);
    assert.equal(message?.id, `sign-in-${link.id}`);
    assert.deepEqual(Buffer.from(link.tokenHash!), createHash('sha256').update(tokenIn(message!)).digest());
    assert.equal(link.mailDueAt, null);
  });

  it('a failed send stores no token and is retried when due again, until the link expires', async () => {
    const { userId } = await asks();
    const mailer = new TestMailer();
    mailer.failing = true;
    await assert.rejects(sendNextSignInMail(ctx(), mailer), /refused/);
    const failed = await linkOf(userId);
    assert.equal(failed.tokenHash, null);
    assert.equal(failed.mailAttempts, 1);
    assert.ok(failed.mailDueAt! > clock, 'due again later');
    assert.equal(await sendNextSignInMail(ctx(), mailer), 'none', 'not before it is due');
    mailer.failing = false;
    clock = new Date(failed.mailDueAt!.getTime());
    assert.equal(await sendNextSignInMail(ctx(), mailer), 'sent');
    assert.equal((await linkOf(userId)).mailAttempts, 2);

    const late = await asks();
    mailer.failing = true;
    await assert.rejects(sendNextSignInMail(ctx(), mailer));
    clock = new Date((await linkOf(late.userId)).expiresAt.getTime());
    mailer.failing = false;
    assert.equal(await sendNextSignInMail(ctx(), mailer), 'none', 'an expired link is not mailed');
    assert.equal((await linkOf(late.userId)).tokenHash, null);
  });

  it('concurrent workers mail different links (a claimed link is skipped, not waited for)', async () => {
    const a = await asks();
    const b = await asks();
    const slow = new TestMailer();
    let release = () => undefined as void;
    slow.hold = new Promise<void>((resolve) => (release = resolve));
    const sending = new Promise<void>((resolve) => (slow.entered = resolve));
    const first = sendNextSignInMail(ctx(), slow);
    // The first worker is in its send: it holds its link's row lock until it commits.
    await sending;
    const fast = new TestMailer();
    assert.equal(await sendNextSignInMail(ctx(), fast), 'sent');
    release();
    assert.equal(await first, 'sent');
    assert.deepEqual([...slow.sent, ...fast.sent].map((m) => m.to).sort(), [a.email, b.email].sort());
  });
});
