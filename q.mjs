import { DuckDBInstance } from '@duckdb/node-api';
const i = await DuckDBInstance.create('/tmp/q.duckdb', { access_mode: 'READ_ONLY' }); const c = await i.connect();
for (const sql of ["select column_name, data_type from duckdb_columns() where table_name='typed'", 'select * from typed', 'select tbl, key, octet_length(value) from stint_import_state', 'select * from typed_rejects'])
  console.log((await c.runAndReadAll(sql)).getRows());
