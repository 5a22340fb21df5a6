import { Migration } from '@mikro-orm/migrations';

export class Migration20261121200705_initial extends Migration {

  override name = 'Migration20261121200705_initial';

  override up(): void | Promise<void> {
    this.addSql(`create table "api_keys" ("id" varchar(40) not null, "project_id" varchar(40) not null, "name" varchar(200) not null, "prefix" varchar(24) not null, "hash" varchar(64) not null, "created_at" timestamptz not null, "revoked_at" timestamptz null, "last_used_at" timestamptz null, primary key ("id"));`);
    this.addSql(`create index "api_keys_project_id_index" on "api_keys" ("project_id");`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_hash_unique" unique ("hash");`);

    this.addSql(`create table "capture_sessions" ("id" varchar(40) not null, "verification_id" varchar(40) not null, "token_hash" varchar(64) not null, "expires_at" timestamptz not null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "capture_sessions_verification_id_index" on "capture_sessions" ("verification_id");`);
    this.addSql(`alter table "capture_sessions" add constraint "capture_sessions_token_hash_unique" unique ("token_hash");`);

    this.addSql(`create table "check_results" ("id" varchar(40) not null, "verification_id" varchar(40) not null, "check" varchar(32) not null, "status" varchar(16) not null, "reasons" jsonb not null, "score" double precision null, "component" varchar(80) not null, "models" jsonb not null, "evidence" jsonb not null, "duration_ms" int not null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "check_results" add constraint "check_results_verification_id_check_unique" unique ("verification_id", "check");`);

    this.addSql(`create table "projects" ("id" varchar(40) not null, "name" varchar(200) not null, "sandbox" boolean not null, "webhook_url" text null, "webhook_secret_enc" text null, "webhook_include_result" boolean not null default false, "branding" jsonb null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);

    this.addSql(`create table "uploads" ("id" varchar(40) not null, "verification_id" varchar(40) not null, "kind" varchar(24) not null, "blob_key" varchar(80) not null, "sha256" varchar(64) not null, "size_bytes" int not null, "mime" varchar(40) not null, "width" int not null, "height" int not null, "meta" jsonb null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "uploads_verification_id_index" on "uploads" ("verification_id");`);

    this.addSql(`create table "verifications" ("id" varchar(40) not null, "project_id" varchar(40) not null, "type" varchar(8) not null, "status" varchar(16) not null, "accepted_documents" jsonb not null, "applicant" jsonb null, "claimed" jsonb null, "reference" varchar(200) null, "locale" varchar(8) null, "engine_profile" varchar(40) not null, "policy_revision" varchar(40) not null, "flow_id" varchar(40) null, "flow_version_ref" int null, "workflow_id" varchar(64) not null, "link_code_hash" varchar(64) not null, "link_expires_at" timestamptz not null, "declared_document" jsonb null, "submitted_at" timestamptz null, "processing_started_at" timestamptz null, "assessment" varchar(32) null, "confidence" double precision null, "summary_reasons" jsonb null, "result" jsonb null, "failure_code" varchar(64) null, "completed_at" timestamptz null, "erased_at" timestamptz null, "erasure_receipt" jsonb null, "review" jsonb null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "verifications_status_index" on "verifications" ("status");`);
    this.addSql(`alter table "verifications" add constraint "verifications_link_code_hash_unique" unique ("link_code_hash");`);
    this.addSql(`create index "verifications_project_id_created_at_id_index" on "verifications" ("project_id", "created_at", "id");`);

    this.addSql(`create table "webhook_deliveries" ("id" varchar(40) not null, "verification_id" varchar(40) not null, "project_id" varchar(40) not null, "event" varchar(40) not null, "delivery_key" varchar(120) not null, "attempt" int not null, "url_origin" varchar(300) not null, "status_code" int null, "error" varchar(120) null, "duration_ms" int not null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "webhook_deliveries_verification_id_index" on "webhook_deliveries" ("verification_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "api_keys" cascade;`);
    this.addSql(`drop table if exists "capture_sessions" cascade;`);
    this.addSql(`drop table if exists "check_results" cascade;`);
    this.addSql(`drop table if exists "projects" cascade;`);
    this.addSql(`drop table if exists "uploads" cascade;`);
    this.addSql(`drop table if exists "verifications" cascade;`);
    this.addSql(`drop table if exists "webhook_deliveries" cascade;`);
  }

}
