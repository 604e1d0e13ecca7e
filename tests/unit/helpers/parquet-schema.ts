/**
 * The Parquet schema of a Hugging Face style file, written with hyparquet-writer, from a short
 * description: top-level columns and one level of struct (an object of leaves). Shared by the
 * Parquet unit tests, the import e2e test and the Parquet benchmark, which write such files.
 */
import type { parquetWriteBuffer } from 'hyparquet-writer';

/** The writer's own element type (it bundles its own hyparquet, whose types differ from ours). */
type SchemaElement = NonNullable<Parameters<typeof parquetWriteBuffer>[0]['schema']>[number];

export type ParquetLeaf = 'text' | 'json' | 'double' | 'int32' | 'int64';

const LEAF: Record<ParquetLeaf, Omit<SchemaElement, 'name'>> = {
  text: { type: 'BYTE_ARRAY', converted_type: 'UTF8' },
  json: { type: 'BYTE_ARRAY', converted_type: 'JSON' },
  double: { type: 'DOUBLE' },
  int32: { type: 'INT32' },
  int64: { type: 'INT64' },
};

/** Every column (and struct field) is OPTIONAL but the top-level ones named in `required`. */
export function parquetSchema(columns: Record<string, ParquetLeaf | Record<string, ParquetLeaf>>, required: readonly string[] = []): SchemaElement[] {
  const out: SchemaElement[] = [{ name: 'root', num_children: Object.keys(columns).length }];
  for (const [name, col] of Object.entries(columns)) {
    const repetition_type = required.includes(name) ? 'REQUIRED' : 'OPTIONAL';
    if (typeof col === 'string') {
      out.push({ name, ...LEAF[col], repetition_type });
      continue;
    }
    out.push({ name, repetition_type, num_children: Object.keys(col).length });
    for (const [field, leaf] of Object.entries(col)) out.push({ name: field, ...LEAF[leaf], repetition_type: 'OPTIONAL' });
  }
  return out;
}
