import { generateCsv } from './build/test/helpers/csv-generator.js';
import { writeFileSync } from 'node:fs';
const t=Date.now();
const b = generateCsv(7, { rows: 200000, columns: 8, crlf: false, newlines: 0.05 });
writeFileSync('/tmp/k.csv', b); console.log('size', b.length, Date.now()-t, 'ms');
