#!/usr/bin/env bash
# The project's one test command (README, .ci/run). It installs what the tests need where it is missing, so it
# works on a fresh machine, then runs every test project and prints one closing line: "N passed, N failed, N skipped".
set -euo pipefail
cd "$(dirname "$0")"

log() { printf '\n== %s\n' "$*"; }

# Independent implementations of the wire formats, in another language, for the interop tests.
if [ -f tests/Interop/package.json ]; then
  if ! command -v node >/dev/null 2>&1; then
    log "installing Node.js (Debian) for the interop tests"
    apt-get update -qq && apt-get install -y -qq nodejs npm >/dev/null
  fi
  if [ ! -d tests/Interop/node_modules ] || [ tests/Interop/package-lock.json -nt tests/Interop/node_modules ]; then
    log "npm ci in tests/Interop"
    (cd tests/Interop && npm ci --no-audit --no-fund --loglevel=error)
  fi
fi

# Debian's Chromium and its WebDriver, for the Swagger UI test in a real browser (tests/Browser). That test fails
# rather than skips without them, so an install that fails here still fails the run, with the reason printed.
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  log "installing chromium and chromium-driver (Debian) for the browser tests"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; } ||
    echo "could not install chromium and chromium-driver: the browser tests will fail" >&2
fi

# Debian's HAProxy and Prometheus, for the ScaleOut tests (tests/Integration/ScaleOutTests.cs), which start them with
# the configuration in deploy/. The Docker tests (the image, and deploy/compose.yaml run with docker-compose) install
# and start their engine, and install Compose, themselves (deploy/stand-in-images/build.sh, apt-get where missing).
if ! command -v haproxy >/dev/null 2>&1 || ! command -v prometheus >/dev/null 2>&1; then
  log "installing haproxy and prometheus (Debian) for the scale-out tests"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy prometheus >/dev/null; } ||
    echo "could not install haproxy and prometheus: the scale-out tests will fail" >&2
fi

log "build (Release)"
dotnet build WebSerialization.sln -c Release -warnaserror --nologo -v quiet

output=$(mktemp)
trap 'rm -f "$output"' EXIT
status=0
log "test"
dotnet test WebSerialization.sln -c Release --no-build --nologo --filter "Category!=ScaleOut" 2>&1 | tee "$output" || status=$?

# The scale-out tests start three replicas, HAProxy and Prometheus, and hold a stopping replica to a one-second health
# check: they run alone, after the others, so that no other test assembly shares the two cores with them.
log "scale-out tests (tests/Integration, Category=ScaleOut)"
dotnet test tests/Integration -c Release --no-build --nologo --filter "Category=ScaleOut" 2>&1 | tee -a "$output" || status=$?

# The load runner's smoke mode: every scenario against a real server process, failing on any failed request,
# empty body, allocation far above target or a million-member JSON download over its 0.15 MB budget, so neither the
# measuring instrument nor the streaming cost per flush can rot.
smoke=0
log "load test smoke (tests/Load --smoke)"
dotnet run -c Release --no-build --project tests/Load -- --smoke || smoke=$?

# The benchmarks' dry mode: every row once on a small organization, with the rows' own checks (round trip, bounded
# buffering between flushes), so tests/Benchmarks cannot rot either.
dry=0
log "benchmarks dry run (tests/Benchmarks --dry)"
dotnet run -c Release --no-build --project tests/Benchmarks -- --dry || dry=$?

# Sum the per-assembly summaries ("Passed!  - Failed: 0, Passed: 12, Skipped: 0, ...") into one closing line.
read -r passed failed skipped < <(grep -Eo 'Failed: +[0-9]+, Passed: +[0-9]+, Skipped: +[0-9]+' "$output" |
  awk -F'[:,] *' '{ f += $2; p += $4; s += $6 } END { printf "%d %d %d\n", p, f, s }')
echo
echo "tests: ${passed} passed, ${failed} failed, ${skipped} skipped"
# The failed tests by name with their messages, last, where a CI log cut to its tail still shows them.
awk '/^ +Failed [A-Za-z_]/ { show = 1; print "failed:" substr($0, 9); next }
     /^ +(Stack Trace|Standard Output Messages):/ { show = 0 }
     show { print "  " $0 }' "$output"
[ "$smoke" -eq 0 ] || echo "load test smoke FAILED (exit $smoke)"
[ "$dry" -eq 0 ] || echo "benchmarks dry run FAILED (exit $dry)"
if [ "$status" -ne 0 ] || [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ] || [ "$smoke" -ne 0 ] || [ "$dry" -ne 0 ]; then
  exit 1
fi
