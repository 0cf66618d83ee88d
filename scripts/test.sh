#!/usr/bin/env bash
# Every test: domain, server on PGlite (and PostgreSQL when TEST_DATABASE_URL is set) and web
# components, then the production build in Chromium. Lint, format and type checks run beside them at a
# lower priority (their caches live in node_modules/.cache). Exits non-zero on any failure; the last line totals both runners.
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

# the static checks, one after another on one core beside the tests, at a lower priority; read at the
# end. TypeScript 7 checks each project with one checker: each of its default four resolves again the
# types their files share, CPU that here the tests would otherwise have (docs/adr/ci-test-selection.md).
static_checks() {
  stage lint && nice -n 10 npx eslint --cache --cache-location "$cache/eslint" . &&
    stage format && { nice -n 10 npx prettier --check --cache --cache-location "$cache/prettier" . > /dev/null || {
      npx prettier --list-different .
      echo "prettier: run npm run format"
      false
    }; } &&
    stage typecheck && nice -n 10 npm run -s typecheck -- --checkers 1 && stage "static checks done"
}
static_checks > "$logs/static.log" 2>&1 &
static_pid=$!

# the production build first, then the unit, server and component tests, then the browser tests on
# their own: side by side they fought for the two cores, and every stage took several times longer
# than alone (docs/adr/ci-test-selection.md)
stage build
npm run -s build > "$logs/build.log" 2>&1
build_status=$?

stage "unit, server and component tests"
npx vitest run 2>&1 | tee "$logs/vitest.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || failed_steps+=("vitest")

if [ "$build_status" -eq 0 ]; then
  # the first-load goals are reported, not enforced: stock tooling lands above them, and we do not
  # fight the libraries to meet them (docs/adr/stock-vite-and-documented-libraries.md)
  stage "bundle sizes"
  npm run -s size || failed_steps+=("bundle sizes")
  stage "browser tests (Chromium)"
  npx playwright test -c e2e/playwright.config.ts 2>&1 | tee "$logs/playwright.log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || failed_steps+=("playwright")
else
  cat "$logs/build.log"
  failed_steps+=("build")
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
