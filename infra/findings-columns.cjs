// The Glue table's columns, from the one definition the writer uses
// (lib/history/findings-rows.ts), loaded through tsx at package time, so the template and
// the files it describes cannot drift.
const path = require('path');
const { require: tsxRequire } = require('tsx/cjs/api');

const rows = tsxRequire(
  path.join(__dirname, '..', 'lib', 'history', 'findings-rows.ts'),
  path.join(__dirname, 'findings-columns.cjs'),
);

module.exports = {
  columns: rows.glueColumns(rows.FINDINGS_COLUMNS),
  partitionKeys: rows.glueColumns(rows.FINDINGS_PARTITION_COLUMNS),
};
