// eslint.config.mjs: the lint of the human page's script (tests/page.sh
// runs the pinned ESLint of package.json with this file).  The script is
// one classic script for browsers of 2020 on, run in node too (its core).
import js from '@eslint/js';

export default [
  js.configs.recommended,
  {
    files: ['**/page.js'],
    languageOptions: {
      ecmaVersion: 2020,
      sourceType: 'script',
      globals: {document: 'readonly', location: 'readonly', fetch: 'readonly', DOMParser: 'readonly', BigInt: 'readonly'},
    },
    rules: {
      'eqeqeq': 'error',
      'no-implicit-globals': 'error',
      'no-shadow': 'error',
      'no-unused-vars': ['error', {args: 'after-used', caughtErrors: 'none'}],
      'no-use-before-define': ['error', {functions: false, variables: true}],
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
      'strict': ['error', 'function'],
    },
  },
];
