import type { GrantResourceType } from '@workcell/db';

/** A credential's own safe metadata: never the verifier, a secret fragment, owner personal data or another credential. */
export interface CredentialMetadata {
  readonly id: string;
  readonly kind: 'personal_access_token' | 'service_account' | 'legacy_v1';
  readonly name: string;
  readonly status: 'active' | 'expired' | 'revoked';
  readonly scopes: readonly string[];
  readonly expiresAt: string | null;
  readonly region: string;
  readonly cell: string;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
}

export type Principal = { readonly type: 'member'; readonly id: string } | { readonly type: 'service_account'; readonly id: string };

/** Who a v1 request acts as: established by authentication, handed to every procedure as `auth`. */
export interface V1AuthContext {
  readonly workspaceId: string;
  readonly credential: CredentialMetadata;
  readonly principal: Principal;
  /** What this request may do: the credential's scopes, narrowed to the member's current permissions for personal tokens. */
  readonly effectiveScopes: readonly string[];
  /** Service-account principals only: their resource grants as of this request (kernel/grants.ts). */
  readonly grants?: readonly AuthGrant[];
  /**
   * The shared projects hidden from the principal (libs/db visibility.ts `hiddenProjectIds`), read when the credential
   * was verified; absent for administrators (who see every project) and for contexts built without it.
   */
  readonly hiddenProjectIds?: readonly string[];
  /** A v0 team token: team-wide, so project sharing does not narrow it (contract 5.1; kernel/visibility.ts). */
  readonly teamWide?: true;
}

export type GrantAccessLevel = 'read' | 'write';

/** A service account's grant on one resource, or on every resource of a type (`resourceId` null); kernel/grants.ts. */
export interface AuthGrant {
  readonly resourceType: GrantResourceType;
  readonly resourceId: string | null;
  readonly access: GrantAccessLevel;
}
