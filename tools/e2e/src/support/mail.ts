/** The text body of an .eml file (the mail outbox's) as a mail client shows it: quoted-printable decoded, long lines unwrapped. */
export function textOf(eml: string): string {
  const [head = '', ...rest] = eml.split('\n\n');
  const body = rest.join('\n\n');
  if (!/^Content-Transfer-Encoding: quoted-printable$/im.test(head)) return body;
  const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}
