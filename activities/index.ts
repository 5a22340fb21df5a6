import { createLifecycleActivities } from './case-lifecycle.js';
import { createCheckActivities } from './checks/index.js';
import type { ActivityDeps } from './deps.js';
import { createWebhookActivities } from './webhook-delivery.js';

/** All Case activities as one factory over explicit deps; the workflow imports only the type. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createLifecycleActivities(deps),
    ...createCheckActivities(deps),
    ...createWebhookActivities(deps),
  };
}

export type CaseActivities = ReturnType<typeof createActivities>;
