import { Migration20261121200705_initial } from './Migration20261121200705_initial.js';
import { Migration20261121202531_liveness_challenge } from './Migration20261121202531_liveness_challenge.js';
import { Migration20261121203341_flows } from './Migration20261121203341_flows.js';
import { Migration20261124180000_dashboard } from './Migration20261124180000_dashboard.js';
import { Migration20261124182037_webhook_secret_rotation } from './Migration20261124182037_webhook_secret_rotation.js';
import { Migration20261124182934_rate_limits } from './Migration20261124182934_rate_limits.js';
import { Migration20261124190000_case_result_shape } from './Migration20261124190000_case_result_shape.js';
import { Migration20261124192930_case_dispositions } from './Migration20261124192930_case_dispositions.js';
import { Migration20261124194500_worker_status } from './Migration20261124194500_worker_status.js';
import { Migration20261124220649_template_drafts } from './Migration20261124220649_template_drafts.js';
import { Migration20261129070000_idempotency_keys } from './Migration20261129070000_idempotency_keys.js';
import { Migration20261129080000_verification_reference_index } from './Migration20261129080000_verification_reference_index.js';
import { Migration20261129090000_return_url } from './Migration20261129090000_return_url.js';

/** Every committed migration, in order. `scripts/make-migration.ts` writes new ones; add them here. */
export const MIGRATIONS = [
  { name: 'Migration20261121200705_initial', class: Migration20261121200705_initial },
  { name: 'Migration20261121202531_liveness_challenge', class: Migration20261121202531_liveness_challenge },
  { name: 'Migration20261121203341_flows', class: Migration20261121203341_flows },
  { name: 'Migration20261124180000_dashboard', class: Migration20261124180000_dashboard },
  { name: 'Migration20261124182037_webhook_secret_rotation', class: Migration20261124182037_webhook_secret_rotation },
  { name: 'Migration20261124182934_rate_limits', class: Migration20261124182934_rate_limits },
  { name: 'Migration20261124190000_case_result_shape', class: Migration20261124190000_case_result_shape },
  { name: 'Migration20261124192930_case_dispositions', class: Migration20261124192930_case_dispositions },
  { name: 'Migration20261124194500_worker_status', class: Migration20261124194500_worker_status },
  { name: 'Migration20261124220649_template_drafts', class: Migration20261124220649_template_drafts },
  { name: 'Migration20261129070000_idempotency_keys', class: Migration20261129070000_idempotency_keys },
  { name: 'Migration20261129080000_verification_reference_index', class: Migration20261129080000_verification_reference_index },
  { name: 'Migration20261129090000_return_url', class: Migration20261129090000_return_url },
];
