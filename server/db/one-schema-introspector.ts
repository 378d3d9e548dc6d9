// Kysely's PostgreSQL introspector reads the tables of every schema in the database, calling
// has_schema_privilege() and pg_get_serial_sequence() on each; a schema dropped meanwhile by another
// tenant or test run failed our migration with 'schema "…" does not exist'. The migrator only asks
// whether its own tables exist, so this one reads the one schema our connections use.
import { sql, type DatabaseIntrospector, type DatabaseMetadata, type Kysely, type SchemaMetadata, type TableMetadata } from 'kysely';

interface ColumnRow {
  table: string;
  table_type: string;
  column: string;
  type: string;
  type_schema: string;
  not_null: boolean;
  has_default: boolean;
  identity: string;
}

export class OneSchemaIntrospector implements DatabaseIntrospector {
  constructor(
    // The introspector runs queries outside our typed tables (pg_catalog).
    private readonly db: Kysely<unknown>,
    private readonly schema: string,
  ) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`
      SELECT nspname AS name FROM pg_catalog.pg_namespace WHERE nspname = ${this.schema}`.execute(this.db);
    return rows;
  }

  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<ColumnRow>`
      SELECT c.relname AS table, c.relkind AS table_type, a.attname AS column, typ.typname AS type,
             tns.nspname AS type_schema, a.attnotnull AS not_null, a.atthasdef AS has_default,
             a.attidentity AS identity
        FROM pg_catalog.pg_namespace ns
        JOIN pg_catalog.pg_class c ON c.relnamespace = ns.oid
        JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid
        JOIN pg_catalog.pg_type typ ON typ.oid = a.atttypid
        JOIN pg_catalog.pg_namespace tns ON tns.oid = typ.typnamespace
       WHERE ns.nspname = ${this.schema} AND c.relkind IN ('r', 'v', 'p')
         AND a.attnum >= 0 AND NOT a.attisdropped
       ORDER BY c.relname, a.attnum`.execute(this.db);
    const tables = new Map<string, TableMetadata & { columns: TableMetadata['columns'][number][] }>();
    for (const row of rows) {
      let table = tables.get(row.table);
      if (!table) {
        table = { name: row.table, schema: this.schema, isView: row.table_type === 'v', columns: [] };
        tables.set(row.table, table);
      }
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.type_schema,
        isNullable: !row.not_null,
        hasDefaultValue: row.has_default,
        // Identity columns; serial columns show as a default instead, which the migrator never asks about.
        isAutoIncrementing: row.identity !== '',
      });
    }
    return [...tables.values()];
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}
