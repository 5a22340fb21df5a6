import { Migration } from '@mikro-orm/migrations';

/**
 * Idempotency keys on creates (db/entities/idempotency-key.ts): one row per project and key,
 * its primary key the lock that makes two concurrent creates with one key make one Case.
 * Foreign keys as every other table has them (deferrable, checked at commit: the key is claimed
 * before its Case row is written, in the same transaction).
 */
export class Migration20261129070000_idempotency_keys extends Migration {

  override name = 'Migration20261129070000_idempotency_keys';

  override up(): void | Promise<void> {
    this.addSql(`create table "idempotency_keys" ("project_id" varchar(40) not null, "key_hash" varchar(64) not null, "scope" varchar(120) not null, "request_hash" varchar(64) null, "verification_id" varchar(40) not null, "link_code_enc" text null, "created_at" timestamptz not null, "expires_at" timestamptz not null, primary key ("project_id", "key_hash"));`);
    this.addSql(`create index "idempotency_keys_verification_id_index" on "idempotency_keys" ("verification_id");`);
    this.addSql(`create index "idempotency_keys_expires_at_index" on "idempotency_keys" ("expires_at");`);
    const fk = (column: string, parent: string) =>
      this.addSql(`alter table "idempotency_keys" add constraint "idempotency_keys_${column}_foreign" foreign key ("${column}") references "${parent}" ("id") on update cascade on delete no action deferrable initially deferred;`);
    fk('project_id', 'projects');
    fk('verification_id', 'verifications');
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "idempotency_keys" cascade;`);
  }

}
