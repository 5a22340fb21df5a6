import { createLifecycleActivities } from './case-lifecycle.js';
import { createCheckActivities } from './checks/index.js';
import type { ActivityDeps } from './deps.js';
import { createWebhookActivities } from './webhook-delivery.js';
import { waitingOutDatabaseAll } from './database-wait.js';

/** All Case activities as one factory over explicit deps; the workflow imports only the type. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createLifecycleActivities(deps),
    // The checks' retries are for engine faults: a database restart is waited out (database-wait.ts).
    ...waitingOutDatabaseAll(createCheckActivities(deps), (name, err) => deps.log.warn({ activity: name, err: (err as Error).message }, 'database unavailable; the check waits for it')),
    ...createWebhookActivities(deps),
  };
}

export type CaseActivities = ReturnType<typeof createActivities>;
