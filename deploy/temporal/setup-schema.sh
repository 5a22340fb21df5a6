#!/bin/sh
# Creates the `temporal` and `temporal_visibility` databases on PostgreSQL if missing and brings
# both schemas to the newest version shipped with the server. Idempotent: run before every start
# (scripts/temporal-postgres.ts locally, the `temporal-schema` service in docker-compose.yml).
# Needs SQL_HOST, SQL_PORT, SQL_USER, SQL_PASSWORD (read by temporal-sql-tool from the environment,
# so the password never appears in a process list), TEMPORAL_SQL_TOOL and TEMPORAL_SCHEMA_DIR
# (schema/postgresql/v12 of the server's source at the same version).
set -eu
tool=${TEMPORAL_SQL_TOOL:-temporal-sql-tool}
schema=${TEMPORAL_SCHEMA_DIR:-/etc/temporal/schema/postgresql/v12}
for pair in temporal:temporal temporal_visibility:visibility; do
  db=${pair%%:*}
  dir=${pair##*:}
  "$tool" --plugin postgres12 --db "$db" create-database
  # Version 0.0 creates only the schema_version bookkeeping; update-schema then applies every
  # versioned step the database lacks (a server upgrade: a new pinned version, then this again).
  "$tool" --plugin postgres12 --db "$db" setup-schema -v 0.0
  "$tool" --plugin postgres12 --db "$db" update-schema -d "$schema/$dir/versioned"
done
