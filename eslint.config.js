import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

const ROUTE_READS =
  'Only routes and app/services/http/ read the request; pass the service the values it needs.'
const ROUTE_ANSWERS =
  'Only routes and app/services/http/ build answers; return a result or throw an AppError.'
const HTTP_IN_SERVICES = [
  ['TSTypeReference[typeName.name=/^(Request|Response)$/]', ROUTE_READS],
  ['NewExpression[callee.name=/^(Request|Response)$/]', ROUTE_ANSWERS],
  ['CallExpression[callee.name=/^(redirect|redirectDocument|replace|data|json)$/]', ROUTE_ANSWERS],
  ['MemberExpression[object.name=/^(Response|Request)$/]', ROUTE_ANSWERS],
  ['ImportDeclaration[source.value=/^@remix-run\\u002F/]', 'Remix belongs to routes and app/services/http/.'],
  [
    'Literal[raw=/^4\\d\\d$/]',
    'An HTTP status belongs to app/services/http/: throw an AppError of the kind of refusal it is.',
  ],
]

export default tseslint.config(
  {
    ignores: [
      'build/**',
      'data/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      'tests/.tmp/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['app/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error', 'info'] }],
    },
  },
  {
    // docs/decisions/040-services-without-http.md: a route reads the request and answers; services and models take
    // plain values, return plain results or throw an AppError, whose kind app/services/http/ turns into a status.
    files: ['app/services/**/*.ts', 'app/models/**/*.ts'],
    ignores: ['app/services/http/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...HTTP_IN_SERVICES.map(([selector, message]) => ({ selector, message })),
      ],
    },
  },
  {
    files: ['app/**/*.ts', 'app/**/*.tsx'],
    rules: {
      'no-console': ['error', { allow: ['warn', 'info'] }],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { globals: { module: 'writable', require: 'readonly' } },
  },
  {
    files: ['server.js'],
    languageOptions: {
      globals: { URL: 'readonly', Headers: 'readonly', Request: 'readonly', AbortController: 'readonly' },
    },
  },
)
