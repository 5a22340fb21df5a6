import { Migration } from '@mikro-orm/migrations';

export class Migration20261124182934_rate_limits extends Migration {

  override name = 'Migration20261124182934_rate_limits';

  override up(): void | Promise<void> {
    // Unlogged: counters are disposable (a crash resets them), so they skip the WAL on every request.
    this.addSql(`create unlogged table "rate_limit_counters" ("key" varchar(200) not null, "count" int not null, "window_ends_at" timestamptz not null, primary key ("key"));`);
    this.addSql(`create index "rate_limit_counters_window_ends_at_index" on "rate_limit_counters" ("window_ends_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "rate_limit_counters" cascade;`);
  }

}
