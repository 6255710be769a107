import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/** CI's dependency audit (scripts/audit.sh), run against a stand-in `npm` that answers as told. */
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const SCRIPT = join(REPO, 'scripts', 'audit.sh');

const fakeBin = mkdtempSync(join(tmpdir(), 'teltlk-audit-'));
writeFileSync(
  join(fakeBin, 'npm'),
  '#!/bin/sh\nprintf "%s" "$*" > "$FAKE_NPM_ARGS"\ncat "$FAKE_NPM_ANSWER"\nexit "$FAKE_NPM_STATUS"\n',
);
chmodSync(join(fakeBin, 'npm'), 0o755);

function audit(answer: unknown, npmStatus: number) {
  const answerFile = join(fakeBin, 'answer.json');
  const argsFile = join(fakeBin, 'args.txt');
  writeFileSync(answerFile, typeof answer === 'string' ? answer : JSON.stringify(answer, null, 2));
  const run = spawnSync('bash', [SCRIPT], {
    encoding: 'utf8',
    env: {
      ...process.env,
      PATH: `${fakeBin}:${process.env.PATH ?? ''}`,
      FAKE_NPM_ANSWER: answerFile,
      FAKE_NPM_ARGS: argsFile,
      FAKE_NPM_STATUS: String(npmStatus),
    },
  });
  return { status: run.status, output: run.stdout, args: readFileSync(argsFile, 'utf8') };
}

function report(vulnerabilities: Record<string, 'low' | 'moderate' | 'high' | 'critical'>) {
  const counts = { info: 0, low: 0, moderate: 0, high: 0, critical: 0, total: 0 };
  for (const severity of Object.values(vulnerabilities)) {
    counts[severity] += 1;
    counts.total += 1;
  }
  return {
    auditReportVersion: 2,
    vulnerabilities: Object.fromEntries(
      Object.entries(vulnerabilities).map(([name, severity]) => [
        name,
        { name, severity, isDirect: true, via: [], effects: [], range: '*', fixAvailable: true },
      ]),
    ),
    metadata: {
      vulnerabilities: counts,
      dependencies: { prod: 300, dev: 0, optional: 10, peer: 0, peerOptional: 0, total: 300 },
    },
  };
}

/** What npm 11 prints when the registry refuses the bulk advisory request: 405, empty details. */
const METHOD_NOT_ALLOWED = {
  message:
    '405 Method Not Allowed - POST https://registry.example.org/-/npm/v1/security/advisories/bulk',
  method: 'POST',
  uri: 'https://registry.example.org/-/npm/v1/security/advisories/bulk',
  headers: { allow: ['GET,HEAD'], 'content-length': ['0'] },
  statusCode: 405,
  body: '',
  error: { summary: '', detail: '' },
};

const UNREACHABLE = {
  error: {
    code: 'ENOTFOUND',
    summary:
      'request to https://registry.example.org/-/npm/v1/security/advisories/bulk failed, reason: getaddrinfo ENOTFOUND registry.example.org',
    detail: '',
  },
};

describe('CI dependency audit', () => {
  afterAll(() => rmSync(fakeBin, { recursive: true, force: true }));

  it('audits production dependencies at the high level, as JSON', () => {
    expect(audit(report({}), 0).args).toBe('audit --omit=dev --audit-level=high --json');
  });

  it('passes with no findings, or only low and moderate ones', () => {
    const clean = audit(report({}), 0);
    expect(clean.status).toBe(0);
    expect(clean.output).toContain('no high or critical advisories');
    expect(audit(report({ 'some-lib': 'moderate', other: 'low' }), 0).status).toBe(0);
  });

  it('fails on a high or critical finding and names the packages', () => {
    const high = audit(report({ '@fastify/static': 'high', 'some-lib': 'moderate' }), 1);
    expect(high.status).toBe(1);
    expect(high.output).toContain('FAILED');
    expect(high.output).toContain('@fastify/static (high)');
    expect(high.output).not.toContain('some-lib');
    const critical = audit(report({ 'deep-dep': 'critical' }), 1);
    expect(critical.status).toBe(1);
    expect(critical.output).toContain('deep-dep (critical)');
  });

  it("judges by the counts, not by npm's exit code", () => {
    expect(audit(report({ '@fastify/static': 'high' }), 0).status).toBe(1);
  });

  it('says so and goes on when the audit service errs or cannot be reached', () => {
    const refused = audit(METHOD_NOT_ALLOWED, 1);
    expect(refused.status).toBe(0);
    expect(refused.output).toContain('SKIPPED');
    expect(refused.output).toContain('405 Method Not Allowed');
    const offline = audit(UNREACHABLE, 1);
    expect(offline.status).toBe(0);
    expect(offline.output).toContain('ENOTFOUND');
  });

  it('fails on an answer it cannot read rather than passing it', () => {
    for (const answer of ['', 'npm ERR! something broke', '{"auditReportVersion": 2}']) {
      const run = audit(answer, 1);
      expect(run.status, answer).toBe(2);
      expect(run.output).toContain('could not be read');
    }
  });

  it('runs in CI right after the install', () => {
    const steps = readFileSync(join(REPO, '.ci', 'run'), 'utf8').split('\n');
    const install = steps.findIndex((line) => line.startsWith('npm ci'));
    const audited = steps.findIndex((line) => line.trim() === 'scripts/audit.sh');
    const lint = steps.findIndex((line) => line.startsWith('npm run lint'));
    expect(install).toBeGreaterThan(0);
    expect(audited).toBeGreaterThan(install);
    expect(audited).toBeLessThan(lint);
  });
});
