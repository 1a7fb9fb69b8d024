/** Entry point of the `a2a-temporal` command (bin/a2a-temporal.js runs the compiled copy). */
import { runCli } from './main.js';

process.exitCode = await runCli(process.argv.slice(2));
