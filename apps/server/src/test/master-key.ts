/**
 * The PORTAL_MASTER_KEY of every test app and test child process: the worker's database keeps the
 * shared secrets sealed with it from one test file to the next, so every app on it must hold the
 * same key (a test of another key opens a database of its own).
 */
export const TEST_MASTER_KEY = Buffer.alloc(32, 0x5e).toString('base64')
