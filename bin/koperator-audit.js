#!/usr/bin/env node
'use strict';
// The installed command: runs the bundle built by `npm run build:cli` (done by
// `npm ci` through the prepare script, and before every `npm run analyze`).
require('../dist/cli.js');
