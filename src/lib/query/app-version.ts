// The app's version, set by vite.config.ts from package.json; part of the query-cache buster so a
// release that changes cached shapes starts clean.
declare const __APP_VERSION__: string | undefined;

export const APP_VERSION: string = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : '0.0.0-dev';
