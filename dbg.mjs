import { generateCsv } from './build/test/helpers/csv-generator.js';
import { analyzeWithCsvParse } from './build/test/helpers/analyze-oracle.js';
import { writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
const b = generateCsv(42, { rows: 40000, columns: 7, crlf: true, bom: true, newlines: 0.05, ragged: 0.001 });
writeFileSync('/tmp/big1.csv', b); console.log('size', b.length);
const exp = analyzeWithCsvParse('/tmp/big1.csv');
for (const w of ['1','2']) for (const cs of ['4096','65536','1MiB']) {
  let out;
  try { out = execFileSync('node', ['build/src/bin/stint.js','analyze','/tmp/big1.csv','--workers',w,'--chunk-size',cs], {env:{...process.env, STINT_HOME:'/tmp/sh2'}}).toString(); } catch (e) { out = e.stdout.toString(); }
  const env = JSON.parse(out);
  const a = env.data.established[0].a;
  const same = JSON.stringify(a.columns) === JSON.stringify(JSON.parse(JSON.stringify(exp.columns))) && a.rows === exp.rows;
  console.log(w, cs, env.meta.exit_code, env.meta.duration_ms, same, JSON.stringify(env.warnings).slice(0,200));
}
const out = JSON.parse(execFileSync('node', ['build/src/bin/stint.js','analyze','/tmp/big1.csv'], {env:{...process.env, STINT_HOME:'/tmp/sh2'}}).toString());
const a = out.data.established[0].a; console.log(a.rows, exp.rows, exp.raggedCount);
a.columns.forEach((c,k)=>{ if (JSON.stringify(c)!==JSON.stringify(exp.columns[k])) console.log(JSON.stringify(c),'\n',JSON.stringify(exp.columns[k])); });
