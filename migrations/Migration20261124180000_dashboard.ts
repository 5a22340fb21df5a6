import { Migration } from '@mikro-orm/migrations';

/**
 * The dashboard model (issue 16): users, identities, orgs, memberships, invitations, dashboard
 * sessions and audit events; projects get an org. Existing projects are adopted, one org per
 * project (the org id reuses the project's ULID, its name is the project's), so no row is lost
 * and nobody gains access: an operator grants the first owner (`npm run grant-owner`).
 *
 * Foreign keys across every table (there were none). They are DEFERRABLE INITIALLY DEFERRED:
 * the entities keep scalar id columns and a flush may insert a child before its parent; the
 * constraint is checked at commit. Rows whose parent is missing (none are expected: nothing
 * deleted parents) would make this migration fail loudly rather than drop data: an orphaned
 * project reference is adopted by re-creating a placeholder project for it first.
 */
export class Migration20261124180000_dashboard extends Migration {

  override name = 'Migration20261124180000_dashboard';

  override up(): void | Promise<void> {
    this.addSql(`create table "orgs" ("id" varchar(40) not null, "name" varchar(200) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create table "users" ("id" varchar(40) not null, "email" varchar(320) not null, "name" varchar(200) null, "created_at" timestamptz not null, "last_sign_in_at" timestamptz null, primary key ("id"));`);
    this.addSql(`alter table "users" add constraint "users_email_unique" unique ("email");`);
    this.addSql(`create table "identities" ("id" varchar(40) not null, "user_id" varchar(40) not null, "provider" varchar(16) not null, "subject" varchar(255) not null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "identities_user_id_index" on "identities" ("user_id");`);
    this.addSql(`alter table "identities" add constraint "identities_provider_subject_unique" unique ("provider", "subject");`);
    this.addSql(`create table "memberships" ("id" varchar(40) not null, "org_id" varchar(40) not null, "user_id" varchar(40) not null, "role" varchar(16) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "memberships_user_id_index" on "memberships" ("user_id");`);
    this.addSql(`alter table "memberships" add constraint "memberships_org_id_user_id_unique" unique ("org_id", "user_id");`);
    this.addSql(`alter table "memberships" add constraint "memberships_role_check" check ("role" in ('owner', 'admin', 'developer', 'compliance'));`);
    this.addSql(`create table "invitations" ("id" varchar(40) not null, "org_id" varchar(40) not null, "email" varchar(320) not null, "role" varchar(16) not null, "status" varchar(16) not null, "invited_by_user_id" varchar(40) null, "accepted_user_id" varchar(40) null, "created_at" timestamptz not null, "resolved_at" timestamptz null, primary key ("id"));`);
    this.addSql(`create index "invitations_org_id_index" on "invitations" ("org_id");`);
    this.addSql(`create index "invitations_email_status_index" on "invitations" ("email", "status");`);
    this.addSql(`alter table "invitations" add constraint "invitations_role_check" check ("role" in ('owner', 'admin', 'developer', 'compliance'));`);
    this.addSql(`alter table "invitations" add constraint "invitations_status_check" check ("status" in ('pending', 'accepted', 'revoked'));`);
    this.addSql(`create table "dashboard_sessions" ("id" varchar(40) not null, "token_hash" varchar(64) not null, "user_id" varchar(40) not null, "csrf_token" varchar(64) not null, "active_org_id" varchar(40) null, "active_project_id" varchar(40) null, "created_at" timestamptz not null, "last_seen_at" timestamptz not null, "expires_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`alter table "dashboard_sessions" add constraint "dashboard_sessions_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "dashboard_sessions_user_id_index" on "dashboard_sessions" ("user_id");`);
    this.addSql(`create table "audit_events" ("id" varchar(40) not null, "org_id" varchar(40) null, "project_id" varchar(40) null, "actor_user_id" varchar(40) null, "actor_api_key_id" varchar(40) null, "action" varchar(48) not null, "target_id" varchar(48) null, "meta" jsonb null, "created_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "audit_events_org_id_created_at_index" on "audit_events" ("org_id", "created_at");`);

    // Adoption. A project referenced by a child row but missing (never expected) gets a
    // placeholder so the foreign keys can be added without deleting the children.
    this.addSql(`insert into "projects" ("id", "name", "sandbox", "webhook_include_result", "created_at", "updated_at")
      select distinct r.project_id, 'Recovered project', true, false, now(), now() from (
        select project_id from "api_keys" union select project_id from "verifications" union select project_id from "webhook_deliveries"
        union select project_id from "templates" union select project_id from "flows") r
      where not exists (select 1 from "projects" p where p.id = r.project_id);`);
    this.addSql(`alter table "projects" add "org_id" varchar(40) null;`);
    this.addSql(`insert into "orgs" ("id", "name", "created_at", "updated_at") select 'org_' || substr("id", 5), "name", "created_at", now() from "projects";`);
    this.addSql(`update "projects" set "org_id" = 'org_' || substr("id", 5);`);
    this.addSql(`alter table "projects" alter column "org_id" set not null;`);
    this.addSql(`create index "projects_org_id_index" on "projects" ("org_id");`);

    const fk = (table: string, column: string, parent: string, onDelete = 'no action') =>
      this.addSql(`alter table "${table}" add constraint "${table}_${column}_foreign" foreign key ("${column}") references "${parent}" ("id") on update cascade on delete ${onDelete} deferrable initially deferred;`);
    fk('projects', 'org_id', 'orgs');
    fk('api_keys', 'project_id', 'projects');
    fk('verifications', 'project_id', 'projects');
    fk('verifications', 'flow_id', 'flows');
    fk('capture_sessions', 'verification_id', 'verifications');
    fk('uploads', 'verification_id', 'verifications');
    fk('check_results', 'verification_id', 'verifications');
    fk('webhook_deliveries', 'verification_id', 'verifications');
    fk('webhook_deliveries', 'project_id', 'projects');
    fk('templates', 'project_id', 'projects');
    fk('flows', 'project_id', 'projects');
    fk('flow_versions', 'flow_id', 'flows');
    fk('flow_versions', 'template_id', 'templates');
    fk('identities', 'user_id', 'users', 'cascade');
    fk('memberships', 'org_id', 'orgs', 'cascade');
    fk('memberships', 'user_id', 'users', 'cascade');
    fk('invitations', 'org_id', 'orgs', 'cascade');
    fk('invitations', 'invited_by_user_id', 'users', 'set null');
    fk('invitations', 'accepted_user_id', 'users', 'set null');
    fk('dashboard_sessions', 'user_id', 'users', 'cascade');
    fk('dashboard_sessions', 'active_org_id', 'orgs', 'set null');
    fk('dashboard_sessions', 'active_project_id', 'projects', 'set null');
    fk('audit_events', 'org_id', 'orgs');
    fk('audit_events', 'project_id', 'projects');
    fk('audit_events', 'actor_user_id', 'users');
    fk('audit_events', 'actor_api_key_id', 'api_keys');
  }

  override down(): void | Promise<void> {
    for (const [t, c] of [['projects', 'org_id'], ['api_keys', 'project_id'], ['verifications', 'project_id'], ['verifications', 'flow_id'], ['capture_sessions', 'verification_id'], ['uploads', 'verification_id'], ['check_results', 'verification_id'], ['webhook_deliveries', 'verification_id'], ['webhook_deliveries', 'project_id'], ['templates', 'project_id'], ['flows', 'project_id'], ['flow_versions', 'flow_id'], ['flow_versions', 'template_id']] as const) {
      this.addSql(`alter table "${t}" drop constraint if exists "${t}_${c}_foreign";`);
    }
    this.addSql(`drop table if exists "audit_events", "dashboard_sessions", "invitations", "memberships", "identities", "users" cascade;`);
    this.addSql(`alter table "projects" drop column "org_id";`);
    this.addSql(`drop table if exists "orgs" cascade;`);
  }

}
