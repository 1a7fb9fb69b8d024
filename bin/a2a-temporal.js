#!/usr/bin/env node
// The compiled CLI (built by `npm install` through the `prepare` script).
import '../dist/client/cli.js';
