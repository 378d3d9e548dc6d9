// Stands in for axios's fetch adapter in the PWA build (vite.config.ts, axiosXhrOnly): axios picks
// the first adapter the environment supports, in the order xhr, http, fetch, and every page of the
// PWA has XMLHttpRequest, so the fetch adapter (about 5 KB gzipped on every route, the sign-in route
// included) was never chosen. "false" is axios's own "not supported by the environment".
export const getFetch = (): false => false;
export default false;
