import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Database } from '@workcell/db';
import { waitFor } from '@workcell/testing';

/** The text body of an .eml file (the mail outbox's) as a mail client shows it: quoted-printable decoded, long lines unwrapped. */
export function textOf(eml: string): string {
  const [head = '', ...rest] = eml.split('\n\n');
  const body = rest.join('\n\n');
  if (!/^Content-Transfer-Encoding: quoted-printable$/im.test(head)) return body;
  const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** The first link in the e-mail's text whose path is `path` (`/sign-in`, `/invitations/accept`). */
export function linkOf(eml: string, path: string): URL {
  const link = new RegExp(`^(http://\\S+${path.replace(/[/]/g, '\\/')}\\?token=\\S+)$`, 'm').exec(textOf(eml))?.[1];
  if (!link) throw new Error(`no ${path} link in ${eml}`);
  return new URL(link);
}

/** The SHA-256 of the link's token: all the platform stores of it. */
export const tokenHashOf = (link: URL): Uint8Array<ArrayBuffer> =>
  new Uint8Array(
    createHash('sha256')
      .update(link.searchParams.get('token') ?? '', 'utf8')
      .digest(),
  );

/**
 * An e-mail the worker sends, once its link works. The worker writes the e-mail inside the transaction that stores
 * the token's hash and commits only after the send succeeded (a failed send leaves no token behind), so for a moment
 * after the file appears its link names nothing: a reader as quick as a test on a busy machine can be refused.
 * `read` returns the file (null while absent; read again on every try, since a retried send overwrites it) and
 * `stored` whether the token it carries is committed. A bound, not a timing assertion.
 */
export function sentMail(what: string, read: () => Promise<string | null>, stored: (eml: string) => Promise<boolean>): Promise<string> {
  return waitFor(what, async () => {
    const eml = await read();
    return eml !== null && (await stored(eml)) ? eml : null;
  });
}

/** The e-mail of an invitation event in `outboxDir` (`invitation-<event id>.eml`), once its acceptance link works. */
export function invitationMail(database: Database, workspaceId: string, outboxDir: string, eventId: string): Promise<string> {
  const read = () => readFile(join(outboxDir, `invitation-${eventId}.eml`), 'utf8').catch(() => null);
  const stored = async (eml: string) => (await database.prisma.invitationMessage.count({ where: { workspaceId, id: eventId, tokenHash: tokenHashOf(linkOf(eml, '/invitations/accept')) } })) === 1;
  return sentMail(`the e-mail of invitation event ${eventId}`, read, stored);
}
