// Files in DATA_DIR hold password hashes, tokens' secret and codes: readable by the server's user
// only (0600), whatever the umask, and tightened again when an older copy is looser.
import { chmodSync, closeSync, existsSync, openSync, statSync } from 'node:fs';

/** Creates `file` empty with mode 0600 if it is missing; otherwise tightens its mode to 0600. */
export function ensurePrivateFile(file: string): void {
  closeSync(openSync(file, 'a', 0o600));
  tightenFile(file);
}

/** Takes group and other permissions off an existing file; a file that is not there is left so. */
export function tightenFile(file: string): void {
  if (!existsSync(file)) return;
  if ((statSync(file).mode & 0o077) === 0) return;
  try {
    chmodSync(file, 0o600);
  } catch {
    // Not ours to change (another owner, a read-only mount): it still works as it is.
  }
}
