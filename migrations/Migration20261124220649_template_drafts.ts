import { Migration } from '@mikro-orm/migrations';

/**
 * Template drafts (issue 17, Build page): mutable compositions saved server-side per project.
 * Foreign keys as every other table has them (deferrable, checked at commit); the generator's
 * diff also proposed dropping the hand-written foreign keys of other tables, which is left out.
 */
export class Migration20261124220649_template_drafts extends Migration {

  override name = 'Migration20261124220649_template_drafts';

  override up(): void | Promise<void> {
    this.addSql(`create table "template_drafts" ("id" varchar(40) not null, "project_id" varchar(40) not null, "name" varchar(200) not null, "definition" jsonb not null, "created_by_user_id" varchar(40) not null, "updated_by_user_id" varchar(40) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "template_drafts_project_id_updated_at_index" on "template_drafts" ("project_id", "updated_at");`);
    const fk = (column: string, parent: string) =>
      this.addSql(`alter table "template_drafts" add constraint "template_drafts_${column}_foreign" foreign key ("${column}") references "${parent}" ("id") on update cascade on delete no action deferrable initially deferred;`);
    fk('project_id', 'projects');
    fk('created_by_user_id', 'users');
    fk('updated_by_user_id', 'users');
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "template_drafts" cascade;`);
  }

}
