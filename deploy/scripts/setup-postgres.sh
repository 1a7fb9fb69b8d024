#!/bin/sh
# Creates Temporal's two PostgreSQL databases and brings their schemas up to date (idempotent).
set -eu
until nc -z -w 10 postgresql 5432; do echo 'waiting for PostgreSQL'; sleep 1; done
for db in temporal temporal_visibility; do
  schema=$([ "$db" = temporal ] && echo temporal || echo visibility)
  temporal-sql-tool --plugin postgres12 --ep postgresql -u temporal -p 5432 --db "$db" create || true
  temporal-sql-tool --plugin postgres12 --ep postgresql -u temporal -p 5432 --db "$db" setup-schema -v 0.0 || true
  temporal-sql-tool --plugin postgres12 --ep postgresql -u temporal -p 5432 --db "$db" \
    update-schema -d "/etc/temporal/schema/postgresql/v12/$schema/versioned"
done
