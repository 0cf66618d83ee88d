import { existsSync, readdirSync } from 'node:fs'
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import { importX } from 'eslint-plugin-import-x'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'
import { moduleGraphPlugin } from './scripts/module-graph.js'

/** Feature folders of the web app may not import each other: shared code lives in app/, lib/, config/ or the domain. */
const featuresDir = './apps/web/src/features'
const features = existsSync(featuresDir)
  ? readdirSync(featuresDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
  : []

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**', 'e2e/screenshots/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    // Without the extensions and parser settings import-x skips every .ts file it resolves, so
    // no-cycle (which follows imports through those files) found nothing.
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/external-module-folders': ['node_modules', 'node_modules/@types'],
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ noWarnOnMultipleProjects: true, project: ['apps/*/tsconfig.json', 'packages/*/tsconfig.json', 'e2e/tsconfig.json'] }),
      ],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './packages/domain', from: './apps', message: 'packages/domain does no I/O and imports nothing from apps/' },
            { target: './apps/server', from: './apps/web' },
            { target: './apps/web', from: './apps/server' },
            ...features.map((f) => ({
              target: `./apps/web/src/features/${f}`,
              from: './apps/web/src/features',
              except: [`./${f}`],
              message: 'features do not import each other',
            })),
          ],
        },
      ],
    },
  },
  {
    // a server module uses another through its service.ts only, and the module graph has no cycle
    // (scripts/module-graph.js; scripts/layers.test.ts holds the same rule, docs/architecture.md draws the graph)
    files: ['apps/server/src/modules/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { portal: moduleGraphPlugin },
    rules: { 'portal/module-graph': ['error', { modulesDir: 'apps/server/src/modules' }] },
  },
  {
    // services and queries know nothing of HTTP, so a route, a job, a webhook or the CLI can call them
    files: [
      'apps/server/src/modules/*/service.ts',
      'apps/server/src/**/queries.ts',
      'apps/server/src/modules/licenses/fulfilment.ts',
      'apps/server/src/context.ts',
      'apps/server/src/platform/errors.ts',
      'apps/server/src/platform/limited-mail.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['fastify', 'fastify-*', '@fastify/*'],
              message: 'services and queries are independent of Fastify: the route reads the request and sets the reply',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { Buffer: 'readonly', process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-syntax': [
        'error',
        {
          // Mantine's Loader is a plain span: a screen reader skips its aria-label unless it has a
          // role, which the one named spinner gives it
          selector: "JSXOpeningElement[name.name='Loader']:has(JSXAttribute[name.name='aria-label'])",
          message: "a spinner with a name is <Spinner label={…} /> (components/Spinner.tsx); a Loader's aria-label alone is never read",
        },
      ],
    },
  },
  {
    // the named spinner itself: the one Loader with a label
    files: ['apps/web/src/components/Spinner.tsx'],
    rules: { 'no-restricted-syntax': 'off' },
  },
)
