import { Migration } from '@mikro-orm/migrations';

export class Migration20261121203341_flows extends Migration {

  override name = 'Migration20261121203341_flows';

  override up(): void | Promise<void> {
    this.addSql(`create table "flows" ("id" varchar(40) not null, "project_id" varchar(40) not null, "slug" varchar(64) not null, "name" varchar(200) not null, "active" boolean not null, "current_version" int not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "flows" add constraint "flows_project_id_slug_unique" unique ("project_id", "slug");`);

    this.addSql(`create table "flow_versions" ("id" varchar(40) not null, "flow_id" varchar(40) not null, "version" int not null, "template_id" varchar(40) not null, "definition" jsonb not null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "flow_versions" add constraint "flow_versions_flow_id_version_unique" unique ("flow_id", "version");`);

    this.addSql(`create table "templates" ("id" varchar(40) not null, "project_id" varchar(40) not null, "name" varchar(200) not null, "definition" jsonb not null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "templates_project_id_index" on "templates" ("project_id");`);

    this.addSql(`alter table "verifications" add "verifiee" jsonb null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "flows" cascade;`);
    this.addSql(`drop table if exists "flow_versions" cascade;`);
    this.addSql(`drop table if exists "templates" cascade;`);

    this.addSql(`alter table "verifications" drop column "verifiee";`);
  }

}
