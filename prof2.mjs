import { readFileSync } from 'node:fs';
import { map } from './build/src/commands/import/import-map.js';
import { readCsvHeader } from './build/src/engine/csv-header.js';
const b = readFileSync('/tmp/b50.csv');
const h = readCsvHeader('/tmp/b50.csv', b.length, 1<<20);
let q=0, last=0; for (let i=h.dataStart;i<b.length;i++){ if(b[i]===34)q^=1; else if(b[i]===10&&!q) last=i+1; }
const data = b.subarray(h.dataStart, last);
const cuts=[0]; let q2=0; for (let i=0;i<data.length;i++){ if(data[i]===34)q2^=1; else if(data[i]===10&&!q2&&i+1-cuts.at(-1)>=1<<20) cuts.push(i+1);} cuts.push(data.length);
for (let r=0;r<3;r++){ const t=performance.now(); let rows=0;
  for (let k=0;k+1<cuts.length;k++) rows += map(data.subarray(cuts[k],cuts[k+1]), {start:0,end:0,options:{width:h.names.length}}).rows;
  const ms=performance.now()-t; console.log('map', ms.toFixed(0),'ms', (data.length/1e6/(ms/1000)).toFixed(1),'MB/s', Math.round(rows/(ms/1000)),'rows/s');
}
