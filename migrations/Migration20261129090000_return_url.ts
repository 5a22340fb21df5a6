import { Migration } from '@mikro-orm/migrations';

/** `return_url` on creates and intake: where the hosted page sends the applicant after submit (PII, erased). */
export class Migration20261129090000_return_url extends Migration {

  override name = 'Migration20261129090000_return_url';

  override up(): void | Promise<void> {
    this.addSql(`alter table "verifications" add column "return_url" varchar(2000) null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "verifications" drop column "return_url";`);
  }

}
