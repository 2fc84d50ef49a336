// ESLint for the browser's ES modules and their Node tests (make test runs it; nothing is built).
// Correctness only: the recommended rules and a few that catch real mistakes, no style rules.
import js from "@eslint/js";
import globals from "globals";

const rules = {
  "prefer-const": "error",
  "no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_" }],
  eqeqeq: ["error", "smart"],
};

export default [
  {
    ignores: [
      "node_modules/", ".venv/", ".venv-prod/", "staticfiles/", "htmlcov/", "test-artifacts/",
      // A Django template that renders to the service worker, not a JavaScript file as it stands.
      "frontend/templates/",
    ],
  },
  { linterOptions: { reportUnusedDisableDirectives: "error" } },
  js.configs.recommended,
  {
    files: ["frontend/static/**/*.js"],
    languageOptions: {
      ecmaVersion: "latest",
      sourceType: "module",
      globals: globals.browser,
    },
    rules,
  },
  {
    files: ["tests/frontend/**/*.mjs", "eslint.config.js"],
    languageOptions: { ecmaVersion: "latest", sourceType: "module", globals: globals.node },
    rules,
  },
];
