import { Level } from 'level';
import { pack } from 'msgpackr';
import { parse } from 'csv-parse/sync';
import { readFileSync, rmSync } from 'node:fs';
const recs = parse(readFileSync('/tmp/imp.csv','utf8'), {bom:true, relax_column_count:true, skip_empty_lines:true}).slice(1);
const packed = recs.map(r => pack(r));
for (const sync of [true, false]) {
  rmSync('/tmp/raw.db',{recursive:true,force:true});
  const db = new Level('/tmp/raw.db', {valueEncoding:'view'}); await db.open();
  const t = performance.now();
  const per = 26000;
  for (let i=0;i<packed.length;i+=per) {
    const ops=[]; for (let j=i;j<Math.min(i+per,packed.length);j++) ops.push({type:'put', key:'row:'+String(j+1).padStart(16,'0'), value: packed[j]});
    await db.batch(ops, {sync});
  }
  const s=(performance.now()-t)/1000; console.log('sync',sync, s.toFixed(2),'s', Math.round(packed.length/s),'rows/s');
  await db.close();
}
