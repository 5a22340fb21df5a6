import { Migration } from '@mikro-orm/migrations';

/**
 * Data only: `verifications.result` gets its one shape (domain/case-result.ts). Results written
 * before it had two shapes: expired Cases stored only `{ checks: {}, decision }`. Both now carry
 * `basis`, the assessment fields, `document` and `decision.capture_expired`; nothing is removed.
 */
export class Migration20261124190000_case_result_shape extends Migration {

  override name = 'Migration20261124190000_case_result_shape';

  override up(): void | Promise<void> {
    this.addSql(`update "verifications" set "result" = jsonb_build_object(
      'basis', 'capture_expired',
      'assessment', coalesce("assessment", 'assessment_incomplete'),
      'confidence', coalesce("confidence", 0),
      'summary_reasons', coalesce("summary_reasons", '["capture_expired"]'::jsonb),
      'document', null,
      'checks', '{}'::jsonb,
      'decision', jsonb_build_object('policy_revision', "policy_revision", 'engine_profile', "engine_profile", 'flow_version_ref', "flow_version_ref", 'capture_expired', true))
      where "result" is not null and not ("result" ? 'basis') and ("result"->'decision'->>'capture_expired') = 'true';`);
    this.addSql(`update "verifications" set "result" = "result"
      || jsonb_build_object('basis', 'checks', 'document', coalesce("result"->'document', 'null'::jsonb))
      || jsonb_build_object('decision', ("result"->'decision') || jsonb_build_object('flow_version_ref', "flow_version_ref", 'capture_expired', false))
      where "result" is not null and not ("result" ? 'basis');`);
  }

  override down(): void | Promise<void> {
    this.addSql(`update "verifications" set "result" = ("result" - 'basis') where "result" is not null;`);
  }

}
