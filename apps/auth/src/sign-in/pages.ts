import type { AccountWorkspace, CredentialView } from '@workcell/domain';

/**
 * The sign-in and account pages: plain server-rendered HTML (every value escaped), one same-origin stylesheet and one
 * same-origin script (the copy button), nothing inline and nothing from another host, so the Content-Security-Policy
 * allows only 'self'. Forms work without the script.
 */

export const STYLESHEET = `body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1b1b1b}
h1{font-size:1.6rem}h2{font-size:1.25rem;margin-top:2rem}h3{font-size:1.05rem}
label{display:block;margin:.5rem 0}input[type=text],input[type=email],input[type=date]{display:block;padding:.4rem;min-width:18rem;font:inherit}
button{font:inherit;padding:.4rem .9rem;margin:.3rem 0;cursor:pointer}
:focus-visible{outline:3px solid #1d5fd1;outline-offset:2px}
fieldset{border:1px solid #bbb;margin:.5rem 0}fieldset label{display:inline-block;margin:.15rem .8rem .15rem 0}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #ddd;vertical-align:top}
.secret{font-family:ui-monospace,monospace;width:100%;padding:.4rem}.notice{background:#eef5ff;border:1px solid #9bbcf0;padding:.6rem 1rem}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.error{background:#fff0f0;border:1px solid #e0a0a0;padding:.6rem 1rem}.inline{display:inline}
`;

/** The copy button of a new token: copies the read-only field's value and says so (the field stays selectable). */
export const COPY_SCRIPT = `document.querySelectorAll('button[data-copy]').forEach(function (button) {
  button.addEventListener('click', async function () {
    var field = document.getElementById(button.getAttribute('data-copy'));
    var status = document.getElementById(button.getAttribute('data-status'));
    field.select();
    try { await navigator.clipboard.writeText(field.value); status.textContent = 'Copied.'; }
    catch (e) { status.textContent = document.execCommand('copy') ? 'Copied.' : 'Select the token and copy it.'; }
  });
});
`;

/** Only this service's own stylesheet and script; forms post only here; never framed; no Referer leaves. */
export const PAGE_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export function layout(title: string, body: string, script = false): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · Workcell</title><link rel="stylesheet" href="/sign-in/style.css"></head>
<body>
<main>
${body}
</main>
${script ? '<script src="/account/copy.js"></script>' : ''}
</body>
</html>
`;
}

export const csrfField = (csrf: string) => `<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">`;

export function signInRequestPage(csrf: string, problem?: string): string {
  return layout(
    'Sign in',
    `<h1>Sign in to Workcell</h1>
${problem ? `<p class="error" role="alert">${escapeHtml(problem)}</p>` : ''}
<p>Enter the e-mail address of your Workcell account. We will send you a link that signs you in; it works once, for 15 minutes.</p>
<form method="post" action="/sign-in">
${csrfField(csrf)}
<label for="email">E-mail address</label>
<input type="email" id="email" name="email" required maxlength="320" autocomplete="email">
<button type="submit">Send me a sign-in link</button>
</form>`,
  );
}

export function checkMailPage(): string {
  return layout(
    'Check your mail',
    `<h1>Check your mail</h1>
<p class="notice" role="status">If this address belongs to a Workcell account, we have sent it a sign-in link. The link works once, for 15 minutes.</p>
<p><a href="/sign-in">Send another link</a></p>`,
  );
}

export function completeSignInPage(csrf: string, token: string): string {
  return layout(
    'Finish signing in',
    `<h1>Finish signing in</h1>
<p>Press the button to sign in to Workcell in this browser.</p>
<form method="post" action="/sign-in/complete">
${csrfField(csrf)}
<input type="hidden" name="token" value="${escapeHtml(token)}">
<button type="submit">Sign in</button>
</form>`,
  );
}

export function messagePage(title: string, message: string, link: { href: string; text: string } = { href: '/sign-in', text: 'Back to sign-in' }): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1>\n<p class="error" role="alert">${escapeHtml(message)}</p>\n<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a></p>`);
}

const when = (iso: string | null) => (iso === null ? 'never' : escapeHtml(iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')));

function tokenRows(workspace: AccountWorkspace, csrf: string): string {
  if (workspace.tokens.length === 0) return '<p>No active personal access tokens.</p>';
  const rows = workspace.tokens
    .map(
      (t: CredentialView) => `<tr><td>${escapeHtml(t.name)}</td><td>${escapeHtml(t.scopes.join(', '))}</td><td>${when(t.expiresAt)}</td><td>${when(t.lastUsedAt)}</td><td>
<form method="post" action="/account/tokens/revoke" class="inline">${csrfField(csrf)}<input type="hidden" name="workspaceId" value="${escapeHtml(workspace.workspaceId)}"><input type="hidden" name="id" value="${escapeHtml(t.id)}"><button type="submit" aria-label="Revoke ${escapeHtml(t.name)}">Revoke</button></form></td></tr>`,
    )
    .join('\n');
  return `<table><caption class="visually-hidden">Personal access tokens in ${escapeHtml(workspace.workspaceName)}</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Scopes</th><th scope="col">Expires</th><th scope="col">Last used</th><th scope="col">Action</th></tr></thead>
<tbody>
${rows}
</tbody></table>`;
}

function createForm(workspace: AccountWorkspace, csrf: string, today: string, maxDay: string, index: number): string {
  if (!workspace.mayCreateTokens) return '<p>Your roles in this workspace do not allow creating personal access tokens (permission <code>settings.api.personalCredentials</code>).</p>';
  const scopes = workspace.grantableScopes.map((s, i) => `<label><input type="checkbox" name="scopes" value="${escapeHtml(s)}" id="scope-${index}-${i}"> ${escapeHtml(s)}</label>`).join('\n');
  return `<form method="post" action="/account/tokens">
${csrfField(csrf)}
<input type="hidden" name="workspaceId" value="${escapeHtml(workspace.workspaceId)}">
<h3>Create a token</h3>
<label for="name-${index}">Name</label>
<input type="text" id="name-${index}" name="name" required maxlength="200">
<fieldset><legend>Scopes (what your roles allow)</legend>
${scopes}
</fieldset>
<label for="expires-${index}">Last day it works (UTC, at most a year from today)</label>
<input type="date" id="expires-${index}" name="expiresOn" required min="${today}" max="${maxDay}">
<button type="submit">Create token</button>
</form>`;
}

export interface AccountPageInput {
  readonly name: string;
  readonly email: string;
  readonly workspaces: readonly AccountWorkspace[];
  readonly csrf: string;
  readonly today: string;
  readonly maxDay: string;
  readonly created?: { readonly workspaceName: string; readonly name: string; readonly secret: string };
  readonly problem?: string;
}

export function accountPage(input: AccountPageInput): string {
  const created = input.created
    ? `<section class="notice" aria-labelledby="new-token"><h2 id="new-token">Your new token “${escapeHtml(input.created.name)}” in ${escapeHtml(input.created.workspaceName)}</h2>
<p>Copy it now: it is shown only this once.</p>
<label for="new-token-value">Token</label>
<input type="text" id="new-token-value" class="secret" readonly value="${escapeHtml(input.created.secret)}">
<button type="button" data-copy="new-token-value" data-status="copy-status">Copy</button> <span id="copy-status" role="status"></span>
</section>`
    : '';
  const workspaces =
    input.workspaces.length === 0
      ? '<p>You are not an active member of any workspace.</p>'
      : input.workspaces
          .map(
            (w, i) => `<section aria-labelledby="ws-${i}"><h2 id="ws-${i}">${escapeHtml(w.workspaceName)}</h2>
<p>Workspace <code>${escapeHtml(w.workspaceId)}</code></p>
${tokenRows(w, input.csrf)}
${createForm(w, input.csrf, input.today, input.maxDay, i)}
</section>`,
          )
          .join('\n');
  return layout(
    'Your account',
    `<h1>Your account</h1>
<p>Signed in as ${escapeHtml(input.name)} (${escapeHtml(input.email)}).</p>
${input.problem ? `<p class="error" role="alert">${escapeHtml(input.problem)}</p>` : ''}
${created}
${workspaces}
<h2>Sessions</h2>
<form method="post" action="/sign-out" class="inline">${csrfField(input.csrf)}<button type="submit">Sign out</button></form>
<form method="post" action="/sign-out/everywhere" class="inline">${csrfField(input.csrf)}<button type="submit">Sign out everywhere</button></form>`,
    input.created !== undefined,
  );
}
