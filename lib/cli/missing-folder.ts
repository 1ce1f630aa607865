// A path that vanished under the command (most often a TMPDIR naming a folder that does
// not exist) is the user's to fix, not a bug: the message names the folder instead of
// Node's "ENOENT: no such file or directory, mkdtemp '…/koperator-audit-spool-XXXXXX'".
import { tmpdir } from 'os';
import * as path from 'path';

/** One line for an ENOENT that names a path; null for any other error. */
export function missingFolder(
  err: Error & { code?: string; path?: string },
  tempDir: string = tmpdir(),
): string | null {
  if (err.code !== 'ENOENT' || typeof err.path !== 'string') return null;
  const folder = path.dirname(err.path);
  if (err.path === tempDir || folder === tempDir || err.path.startsWith(tempDir + path.sep))
    return `the temporary folder ${tempDir} does not exist (set TMPDIR to a folder that exists, or create it)`;
  return `the folder ${folder} does not exist (needed for ${err.path})`;
}
