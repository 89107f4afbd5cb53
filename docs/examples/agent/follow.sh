#!/bin/sh
# An agent's loop in shell: `follow.sh <file.csv>` analyzes the file to the end, in calls of its budget.
answer=$(stint follow --deadline 10m -- stint analyze "$1")
code=$?
# One field of the answer, `r` (node is there wherever stint is; jq does as well).
field() { node -p "(r => $1)(JSON.parse(process.argv[1]))" "$answer"; }
case $code in
  0) field 'JSON.stringify({ rows: r.data.established[0].a.rows, columns: r.data.established[0].a.columns.length })' ;;
  14) printf 'not finished by the deadline; go on with: %s\n' "$(field r.data.continue_command)" >&2 ;;
  10) printf 'gave up: %s\n' "$(field '[r.error.code, r.data.limit].join(" ")')" >&2 ;;
  3) printf 'only partly done; not done: %s\n' "$(field 'JSON.stringify(r.data.unresolved)')" >&2 ;;
  *) printf 'failed (%s): %s\n' "$code" "$(field r.error.message)" >&2 ;;
esac
exit $code
