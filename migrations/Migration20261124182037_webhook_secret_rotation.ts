import { Migration } from '@mikro-orm/migrations';

export class Migration20261124182037_webhook_secret_rotation extends Migration {

  override name = 'Migration20261124182037_webhook_secret_rotation';

  override up(): void | Promise<void> {
    this.addSql(`alter table "projects" add "webhook_previous_secrets" jsonb null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "projects" drop column "webhook_previous_secrets";`);
  }

}
