#!/usr/bin/env bash
# CI's dependency audit: fails on a high or critical advisory in what a production install
# holds. When the audit service cannot be reached or answers with an error, it says so and
# goes on: an outage elsewhere should not stop every build, and the next run audits again.
# npm exits non-zero both on findings and on errors, so the verdict comes from its JSON
# answer instead: vulnerability counts under `metadata`, or an `error` object.
set -u

# Reads `npm audit --json` on stdin, prints one line; exits 0 (nothing high or critical, or
# no audit to be had), 1 (high or critical findings) or 2 (an answer it cannot read).
audit_verdict() {
  node -e "$(
    cat <<'JS'
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', () => {
  let report = null;
  try {
    report = JSON.parse(input);
  } catch {}
  const counts = report?.metadata?.vulnerabilities;
  if (counts && typeof counts === 'object') {
    const high = Number(counts.high ?? 0);
    const critical = Number(counts.critical ?? 0);
    if (high + critical > 0) {
      const names = Object.entries(report.vulnerabilities ?? {})
        .filter(([, v]) => v?.severity === 'high' || v?.severity === 'critical')
        .map(([name, v]) => `${name} (${v.severity})`);
      console.log(
        `npm audit: FAILED, ${critical} critical and ${high} high severity advisories in production dependencies` +
          (names.length ? `: ${names.join(', ')}` : ''),
      );
      process.exit(1);
    }
    const lower = Number(counts.total ?? 0);
    console.log(
      `npm audit: no high or critical advisories in production dependencies (${lower} of lower severity)`,
    );
    process.exit(0);
  }
  if (report?.error) {
    const { code, summary, detail } = report.error;
    const why = [code, summary || report.message, detail].filter(Boolean).join(': ');
    console.log(
      `npm audit: SKIPPED, the audit service could not be reached or answered with an error (${why || 'no details'}); dependencies were not audited`,
    );
    process.exit(0);
  }
  console.log('npm audit: FAILED, its answer could not be read');
  process.exit(2);
});
JS
  )"
}

cd "$(dirname "$0")/.."
# npm's exit code is left aside (see above); its warnings go to stderr and stay visible.
report=$(npm audit --omit=dev --audit-level=high --json)
printf '%s' "$report" | audit_verdict
