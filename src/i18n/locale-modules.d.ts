// One part of a language's strings (scripts/vite-locale-parts.ts).
declare module 'virtual:loom-locale/*' {
  import type { ResourceLanguage } from 'i18next';
  const strings: ResourceLanguage;
  export default strings;
}
