#!/usr/bin/env bash
# Every test: domain, server on PGlite (and PostgreSQL when TEST_DATABASE_URL is set), web components,
# and the production build in Chromium beside them. Lint, format and type checks run beside them (their caches
# live in node_modules/.cache). Exits non-zero on any failure; the last line totals both runners.
set -uo pipefail
cd "$(dirname "$0")/.."
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
cache=node_modules/.cache/portal
mkdir -p "$cache"
failed_steps=()
# a stage's wall time, for docs/benchmarks.md
stage() { echo "== $1 (at ${SECONDS} s)"; }

echo "== Node.js $(node --version) ($(command -v node))"
bash scripts/ensure-chromium.sh || exit 1

# the static checks, one after another on one core while the tests use the other; read at the end
static_checks() {
  stage lint && npx eslint --cache --cache-location "$cache/eslint" . &&
    stage format && { npx prettier --check --cache --cache-location "$cache/prettier" . > /dev/null || {
      npx prettier --list-different .
      echo "prettier: run npm run format"
      false
    }; } &&
    stage typecheck && npm run -s typecheck && stage "static checks done"
}
static_checks > "$logs/static.log" 2>&1 &
static_pid=$!

# the production build first: the browser tests need it, and then both runners go side by side (each
# leaves a core idle while it starts, waits on a server or a browser)
stage build
if npm run -s build > "$logs/build.log" 2>&1; then
  # the first-load goals are reported, not enforced: stock tooling lands above them, and we do not
  # fight the libraries to meet them (docs/adr/stock-vite-and-documented-libraries.md)
  stage "bundle sizes"
  npm run -s size || failed_steps+=("bundle sizes")
  stage "browser tests (Chromium), beside the unit, server and component tests"
  npx playwright test -c e2e/playwright.config.ts > "$logs/playwright.log" 2>&1 &
  playwright_pid=$!
else
  cat "$logs/build.log"
  failed_steps+=("build")
  playwright_pid=""
fi

stage "unit, server and component tests"
npx vitest run 2>&1 | tee "$logs/vitest.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || failed_steps+=("vitest")

if [ -n "$playwright_pid" ]; then
  stage "waiting for the browser tests"
  wait "$playwright_pid" || failed_steps+=("playwright")
  cat "$logs/playwright.log"
fi

stage "waiting for the static checks"
wait "$static_pid" || failed_steps+=("lint, format or typecheck")
cat "$logs/static.log"

# one closing line for whoever reads the log: totals of both runners
strip() { sed -r 's/\x1b\[[0-9;]*m//g' "$@" 2> /dev/null; }
count() { grep -oE "[0-9]+ $1" | grep -oE '^[0-9]+' | awk '{s+=$1} END {print s+0}'; }
vitest_passed=$(strip "$logs/vitest.log" | grep -E '^\s*Tests\s' | count passed)
vitest_failed=$(strip "$logs/vitest.log" | grep -E '^\s*Tests\s' | count failed)
pw_passed=$(strip "$logs/playwright.log" | grep -E '^\s*[0-9]+ passed' | count passed)
pw_failed=$(strip "$logs/playwright.log" | grep -E '^\s*[0-9]+ (failed|flaky|interrupted)' | count '(failed|flaky|interrupted)')
stage done
if [ ${#failed_steps[@]} -gt 0 ]; then echo "failed: ${failed_steps[*]}"; fi
echo "$((vitest_passed + pw_passed)) passed, $((vitest_failed + pw_failed)) failed"
[ ${#failed_steps[@]} -eq 0 ]
