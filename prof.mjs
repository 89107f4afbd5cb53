import { readFileSync } from 'node:fs';
import { map } from './build/src/commands/analyze/csv-stats-map.js';
import { readCsvHeader } from './build/src/commands/analyze/csv-header.js';
const b = readFileSync('/tmp/b50.csv');
const h = readCsvHeader('/tmp/b50.csv', b.length, 1<<20);
// cut at last newline outside quotes
let q=0, last=0; for (let i=h.dataStart;i<b.length;i++){ if(b[i]===34)q^=1; else if(b[i]===10&&!q) last=i+1; }
const data = b.subarray(h.dataStart, last);
for (let r=0;r<3;r++){ const t=performance.now(); let off=0; const CH=1<<20;
  // map per ~1MB record-aligned pieces
  let start=0; let q2=0; let cut=0;
  const cuts=[0]; for (let i=0;i<data.length;i++){ if(data[i]===34)q2^=1; else if(data[i]===10&&!q2&&i+1-cuts.at(-1)>=CH) cuts.push(i+1);} cuts.push(data.length);
  const t2=performance.now();
  for (let k=0;k+1<cuts.length;k++) map(data.subarray(cuts[k],cuts[k+1]), {start:0,end:0,options:{width:h.names.length}});
  const t3=performance.now();
  console.log('cut', (t2-t).toFixed(0),'ms', 'map', (t3-t2).toFixed(0), 'ms', (data.length/1e6/((t3-t2)/1000)).toFixed(1),'MB/s');
}
