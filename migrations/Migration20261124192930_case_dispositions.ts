import { Migration } from '@mikro-orm/migrations';

/**
 * Customer dispositions (issue 17): an append-only history per Case, apart from the assessment.
 * Foreign keys as every other table has them (deferrable, checked at commit).
 */
export class Migration20261124192930_case_dispositions extends Migration {

  override name = 'Migration20261124192930_case_dispositions';

  override up(): void | Promise<void> {
    this.addSql(`create table "case_dispositions" ("id" varchar(40) not null, "verification_id" varchar(40) not null, "project_id" varchar(40) not null, "actor_user_id" varchar(40) not null, "state" varchar(40) not null, "note" text null, "note_erased_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "case_dispositions_verification_id_created_at_index" on "case_dispositions" ("verification_id", "created_at");`);
    this.addSql(`alter table "case_dispositions" add constraint "case_dispositions_state_check" check ("state" in ('no_customer_concerns_recorded', 'customer_review_continues', 'customer_concern_recorded'));`);
    const fk = (column: string, parent: string) =>
      this.addSql(`alter table "case_dispositions" add constraint "case_dispositions_${column}_foreign" foreign key ("${column}") references "${parent}" ("id") on update cascade on delete no action deferrable initially deferred;`);
    fk('verification_id', 'verifications');
    fk('project_id', 'projects');
    fk('actor_user_id', 'users');
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "case_dispositions" cascade;`);
  }

}
