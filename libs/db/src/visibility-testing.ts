import type { Viewer } from './visibility.js';

/** A v0 team token's view (every resource of the workspace): for tests of statements that take a viewer. */
export const TEAM_WIDE_VIEWER: Viewer = { unrestricted: true, memberId: null, serviceAccountId: null, hiddenProjects: [], credentialId: '00000000-0000-0000-0000-000000000000', grants: null };
