// Renders the sign-in screen's brand side (src/features/auth/components/login-brand.tsx) to static
// HTML in each language, for index.html (scripts/vite-sign-in-brand.ts runs this in a child process
// under tsx, which compiles the component's JSX). Prints a JSON object: language -> markup.
// Type-checked with the tests (tsconfig.test.json): it imports a component of the PWA.
import { readFileSync } from 'node:fs';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { createInstance } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { SUPPORTED_LANGUAGES } from '../src/i18n/languages.js';
import { LoginBrand } from '../src/features/auth/components/login-brand.js';

const markup: Record<string, string> = {};
for (const language of SUPPORTED_LANGUAGES) {
  const strings = JSON.parse(
    readFileSync(new URL(`../src/i18n/locales/${language}.json`, import.meta.url), 'utf8'),
  ) as Record<string, unknown>;
  const i18n = createInstance({
    lng: language,
    resources: { [language]: { translation: strings } },
    interpolation: { escapeValue: false },
  });
  await i18n.use(initReactI18next).init();
  markup[language] = renderToStaticMarkup(
    createElement(I18nextProvider, { i18n }, createElement(LoginBrand)),
  );
}
process.stdout.write(JSON.stringify(markup));
