import { Migration } from '@mikro-orm/migrations';

export class Migration20261124194500_worker_status extends Migration {

  override name = 'Migration20261124194500_worker_status';

  override up(): void | Promise<void> {
    // Unlogged: a worker rewrites its row every few seconds; after a crash the rows are rebuilt.
    this.addSql(`create unlogged table "worker_status" ("id" varchar(200) not null, "task_queue" varchar(200) not null, "engine_profile" varchar(64) not null, "engines" jsonb null, "started_at" timestamptz not null, "seen_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "worker_status_task_queue_index" on "worker_status" ("task_queue");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "worker_status" cascade;`);
  }

}
