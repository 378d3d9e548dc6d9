// The app's version and build, set by vite.config.ts. The build names one deploy (CI sets the
// commit; otherwise version + build time), so it is the query-cache buster: a deploy that changes
// cached shapes never restores the previous build's data.
declare const __APP_VERSION__: string | undefined;
declare const __APP_BUILD__: string | undefined;

export const APP_VERSION: string = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : '0.0.0-dev';
export const APP_BUILD: string = typeof __APP_BUILD__ === 'string' ? __APP_BUILD__ : APP_VERSION;
