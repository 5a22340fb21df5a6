import { Migration } from '@mikro-orm/migrations';

/** `GET /v1/verifications?reference=`: the integrator's reference looked up within its project. */
export class Migration20261129080000_verification_reference_index extends Migration {

  override name = 'Migration20261129080000_verification_reference_index';

  override up(): void | Promise<void> {
    this.addSql(`create index "verifications_project_id_reference_index" on "verifications" ("project_id", "reference");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "verifications_project_id_reference_index";`);
  }

}
