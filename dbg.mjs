import { Level } from 'level';
import { pack } from 'msgpackr';
import { parse } from 'csv-parse/sync';
import { readFileSync, rmSync } from 'node:fs';
const recs = parse(readFileSync('/tmp/imp.csv','utf8'), {bom:true, relax_column_count:true, skip_empty_lines:true}).slice(1);
const packed = recs.map(r => pack(r));
async function run(name, opts, fn) {
  rmSync('/tmp/raw.db',{recursive:true,force:true});
  const db = new Level('/tmp/raw.db', opts); await db.open();
  const t = performance.now();
  const per = 10000;
  for (let i=0;i<packed.length;i+=per) await fn(db, i, Math.min(i+per, packed.length));
  const s=(performance.now()-t)/1000; console.log(name, s.toFixed(2),'s', Math.round(packed.length/s),'rows/s');
  await db.close();
}
const key = (j) => 'row:'+String(j+1).padStart(16,'0');
await run('array utf8', {valueEncoding:'view'}, async (db,a,b) => { const ops=[]; for (let j=a;j<b;j++) ops.push({type:'put', key:key(j), value: packed[j]}); await db.batch(ops,{sync:true}); });
await run('chained utf8', {valueEncoding:'view'}, async (db,a,b) => { const ch=db.batch(); for (let j=a;j<b;j++) ch.put(key(j), packed[j]); await ch.write({sync:true}); });
await run('array view keys', {valueEncoding:'view', keyEncoding:'view'}, async (db,a,b) => { const ops=[]; for (let j=a;j<b;j++) ops.push({type:'put', key:Buffer.from(key(j)), value: packed[j]}); await db.batch(ops,{sync:true}); });
await run('chained view keys', {valueEncoding:'view', keyEncoding:'view'}, async (db,a,b) => { const ch=db.batch(); for (let j=a;j<b;j++) ch.put(Buffer.from(key(j)), packed[j]); await ch.write({sync:true}); });
