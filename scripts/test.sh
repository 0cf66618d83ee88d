#!/usr/bin/env bash
# Every test: lint, types, domain, server on PGlite (and PostgreSQL when TEST_DATABASE_URL is set),
# web components, then the production build in Chromium. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT

echo "== Node.js $(node --version) ($(command -v node))"
bash scripts/ensure-chromium.sh
echo "== lint";      npx eslint .
echo "== format";    npx prettier --check . > /dev/null || { npx prettier --list-different .; echo "prettier: run npm run format"; exit 1; }
echo "== typecheck"; npm run -s typecheck
echo "== unit, server and component tests"
npx vitest run 2>&1 | tee -a "$log"
echo "== build";     npm run -s build
echo "== bundle budgets"; npm run -s size -- --check
echo "== browser tests (Chromium)"
npx playwright test -c e2e/playwright.config.ts 2>&1 | tee -a "$log"

# one closing line for whoever reads the log: totals of both runners
set +o pipefail
strip() { sed -r 's/\x1b\[[0-9;]*m//g' "$log"; }
vitest_passed=$(strip | grep -E '^\s*Tests\s' | grep -oE '[0-9]+ passed' | grep -oE '[0-9]+' | awk '{s+=$1} END {print s+0}')
pw_passed=$(strip | grep -E '^\s*[0-9]+ passed' | grep -oE '^\s*[0-9]+' | awk '{s+=$1} END {print s+0}')
echo "$(( ${vitest_passed:-0} + ${pw_passed:-0} )) passed, 0 failed"
