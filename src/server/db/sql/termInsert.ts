import type { ImportOperation } from '../../catalog/import/importPlan';
import type { SqlDialect } from './dialect';

type InsertTerm = Extract<ImportOperation, { kind: 'insertTerm' }>;

const COLUMNS = ['id', 'taxonomy', 'slug', 'name', 'parent_id', 'description'] as const;

/** An imported term's INSERT, with placeholders in the engine's style: `?` on SQLite, `$1`, `$2`… on PostgreSQL. */
export function termInsertSql(dialect: SqlDialect): string {
  const placeholders = COLUMNS.map((_column, index) => (dialect === 'sqlite' ? '?' : `$${index + 1}`));
  return `INSERT INTO terms (${COLUMNS.join(', ')}) VALUES (${placeholders.join(', ')})`;
}

/** The values of termInsertSql's placeholders, in its column order, so both engines store a term alike. */
export function termInsertValues(operation: InsertTerm): unknown[] {
  return [
    operation.id,
    operation.taxonomy,
    operation.slug,
    operation.name,
    operation.parentId,
    operation.description,
  ];
}
