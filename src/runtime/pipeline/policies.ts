// The two trivial policies: for tests, trusted automation, and as the engine's extremes.
import type { PermissionPolicy } from './types.js';

export const allowAll: PermissionPolicy = {
  decide: () => ({ behavior: 'allow', reason: 'all tools are allowed (allow-all policy)' }),
};

export const denyAll: PermissionPolicy = {
  decide: () => ({ behavior: 'deny', reason: 'all tools are denied (deny-all policy)' }),
};
