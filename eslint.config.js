// ESLint flat config: TypeScript strict-ish rules everywhere, React hooks rules for the PWA, and
// the walls between folders (import-walls below).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const ROOT = path.dirname(fileURLToPath(import.meta.url));

// Which folders never import which (DESIGN.md, "Rules that matter"). A `*` is one folder name: the
// wall stands between two different ones (a feature may import itself, not another feature).
const SERVER_LAYERS = ['http', 'storage', 'jobs', 'db', 'providers', 'upscale', 'i18n'];
const WALLS = [
  {
    from: 'src/features/*',
    to: 'src/features/*',
    why: 'features never import each other; what two features share goes to src/lib, src/components or shared/',
  },
  {
    from: 'src/workers',
    to: 'src/features',
    why: 'a worker imports no feature; what a worker and a page both need lives in src/lib or shared/',
  },
  { from: 'src/lib', to: 'src/sw', why: 'src/lib never imports the service worker (the service worker imports src/lib)' },
  ...SERVER_LAYERS.map((layer) => ({
    from: `server/${layer}`,
    to: 'server/modules',
    why: `server modules import ${layer}/, never the other way; pass what it needs of a module in as an interface of its own`,
  })),
];

/** The folder of `file` that `pattern` names ('' when none); for a `*`, with the folder it matched. */
function folderOf(file, pattern) {
  const parts = pattern.split('/');
  const segments = file.split('/');
  if (segments.length < parts.length) return null;
  for (let i = 0; i < parts.length; i += 1) {
    if (parts[i] !== '*' && parts[i] !== segments[i]) return null;
  }
  return segments.slice(0, parts.length).join('/');
}

const importWalls = {
  meta: {
    type: 'problem',
    docs: { description: 'Keeps the import walls between folders' },
    schema: [],
    messages: { wall: '{{file}} may not import {{target}}: {{why}}.' },
  },
  create(context) {
    const file = path.relative(ROOT, context.filename).split(path.sep).join('/');
    const walls = WALLS.filter((wall) => folderOf(file, wall.from) !== null);
    if (walls.length === 0) return {};
    const check = (node, source) => {
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const spec = source.value.split('?')[0];
      if (!spec.startsWith('.')) return;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      for (const wall of walls) {
        const into = folderOf(target, wall.to);
        if (into === null || into === folderOf(file, wall.from)) continue;
        context.report({ node, messageId: 'wall', data: { file, target, why: wall.why } });
      }
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
      TSImportType: (node) => check(node, node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument),
    };
  },
};

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', '.cache/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'server/**/*.ts'],
    plugins: { local: { rules: { 'import-walls': importWalls } } },
    rules: { 'local/import-walls': 'error' },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    // A plain script index.html runs inline before the bundle (scripts/vite-boot-script.ts).
    files: ['src/boot/**/*.js'],
    languageOptions: { globals: { ...globals.browser }, sourceType: 'script' },
  },
  {
    files: ['src/sw/**/*.ts', 'src/workers/**/*.ts'],
    languageOptions: { globals: { ...globals.worker, ...globals.serviceworker } },
  },
  {
    // Code both runtimes run: ECMAScript only, no Node or DOM globals and no imports from either side.
    files: ['shared/**/*.ts'],
    languageOptions: { globals: { ...globals.es2021 } },
    rules: {
      'no-restricted-imports': ['error', { patterns: ['node:*', '../src/*', '../../src/*', '../server/*', '../../server/*'] }],
    },
  },
  {
    files: ['server/**/*.ts', 'scripts/**/*.{ts,mjs,js}', 'tests/**/*.{ts,tsx}', '*.config.{ts,js}'],
    languageOptions: { globals: { ...globals.node } },
  },
);
