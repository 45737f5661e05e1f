import type { AccountWorkspace, PendingDeviceLoginView } from '@workcell/domain';
import { csrfField, escapeHtml, layout } from '../sign-in/pages.js';

/** The device login's pages (RFC 8628 "verification_uri"), in the sign-in pages' layout and security headers. */

export function deviceCodePage(csrf: string, typed = '', problem?: string): string {
  return layout(
    'Log in a device',
    `<h1>Log in a device</h1>
${problem ? `<p class="error" role="alert">${escapeHtml(problem)}</p>` : ''}
<p>Enter the code your terminal shows (<code>workcell login</code>). It has eight letters, like <code>BCDF-GHJK</code>.</p>
<form method="post" action="/device">
${csrfField(csrf)}
<label for="user_code">Code</label>
<input type="text" id="user_code" name="user_code" required maxlength="20" autocomplete="off" autocapitalize="characters" spellcheck="false" value="${escapeHtml(typed)}">
<button type="submit">Continue</button>
</form>
<p><a href="/account">Your account</a></p>`,
  );
}

export interface DeviceApprovalInput {
  readonly csrf: string;
  readonly login: PendingDeviceLoginView;
  readonly workspaces: readonly AccountWorkspace[];
  readonly name: string;
  readonly today: string;
  readonly defaultDay: string;
  readonly maxDay: string;
  readonly problem?: string;
}

function workspaceForm(input: DeviceApprovalInput, workspace: AccountWorkspace, index: number): string {
  const requested = new Set(input.login.requestedScopes);
  // With no scopes asked for, everything the roles allow is offered checked: the token never acts beyond the member's permissions anyway.
  const checked = (scope: string) => (requested.size === 0 || requested.has(scope) ? ' checked' : '');
  const scopes = workspace.grantableScopes
    .map((s, i) => `<label><input type="checkbox" name="scopes" value="${escapeHtml(s)}" id="scope-${index}-${i}"${checked(s)}> ${escapeHtml(s)}</label>`)
    .join('\n');
  return `<section aria-labelledby="ws-${index}"><h2 id="ws-${index}">${escapeHtml(workspace.workspaceName)}</h2>
<form method="post" action="/device/approve">
${csrfField(input.csrf)}
<input type="hidden" name="user_code" value="${escapeHtml(input.login.userCode)}">
<input type="hidden" name="workspaceId" value="${escapeHtml(workspace.workspaceId)}">
<label for="name-${index}">Token name</label>
<input type="text" id="name-${index}" name="name" required maxlength="200" value="${escapeHtml(input.name)}">
<fieldset><legend>Scopes (what your roles allow)</legend>
${scopes}
</fieldset>
<label for="expires-${index}">Last day it works (UTC, at most a year from today)</label>
<input type="date" id="expires-${index}" name="expiresOn" required min="${input.today}" max="${input.maxDay}" value="${input.defaultDay}">
<button type="submit">Approve for ${escapeHtml(workspace.workspaceName)}</button>
</form>
</section>`;
}

export function deviceApprovalPage(input: DeviceApprovalInput): string {
  const allowed = input.workspaces.filter((w) => w.mayCreateTokens);
  const forms =
    allowed.length === 0
      ? '<p>None of your workspaces lets you create personal access tokens (permission <code>settings.api.personalCredentials</code>).</p>'
      : allowed.map((w, i) => workspaceForm(input, w, i)).join('\n');
  return layout(
    'Approve a device login',
    `<h1>Approve a device login</h1>
${input.problem ? `<p class="error" role="alert">${escapeHtml(input.problem)}</p>` : ''}
<p class="notice" role="status">${escapeHtml(input.login.clientName)} asks for a personal access token of yours, with the code <strong>${escapeHtml(input.login.userCode)}</strong>.
Approve only if you started <code>workcell login</code> yourself just now and your terminal shows this code.</p>
${forms}
<form method="post" action="/device/deny">
${csrfField(input.csrf)}
<input type="hidden" name="user_code" value="${escapeHtml(input.login.userCode)}">
<button type="submit">Deny</button>
</form>`,
  );
}

export function deviceDonePage(approved: boolean): string {
  return layout(
    approved ? 'Device approved' : 'Device login denied',
    approved
      ? `<h1>Device approved</h1>\n<p class="notice" role="status">Return to your terminal: it receives its token within a few seconds. You can revoke it on <a href="/account">your account page</a>.</p>`
      : `<h1>Device login denied</h1>\n<p class="notice" role="status">The device gets no token. <a href="/account">Your account</a></p>`,
  );
}
