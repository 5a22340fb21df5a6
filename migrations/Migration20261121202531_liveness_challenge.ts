import { Migration } from '@mikro-orm/migrations';

export class Migration20261121202531_liveness_challenge extends Migration {

  override name = 'Migration20261121202531_liveness_challenge';

  override up(): void | Promise<void> {
    this.addSql(`alter table "verifications" add "liveness_challenge" jsonb null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "verifications" drop column "liveness_challenge";`);
  }

}
