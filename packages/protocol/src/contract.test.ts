import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ANY_ENDPOINT_ERRORS, type Endpoint } from './contract.js';
import { ENDPOINT_GROUPS } from './endpoints/index.js';
import { ERRORS } from './errors.js';
import { LIMIT_CLASSES } from './limit-classes.js';

/** Every endpoint of the contract, named by its group and its name there. */
const ENDPOINTS = Object.entries(ENDPOINT_GROUPS).flatMap(([group, endpoints]) =>
  Object.entries<Endpoint>(endpoints).map(([name, endpoint]) => ({
    name: `${group}.${name}`,
    endpoint,
  })),
);

describe('the endpoint contract', () => {
  it('has endpoints', () => {
    expect(ENDPOINTS.length).toBeGreaterThan(50);
  });

  it('names only rate-limit classes that exist', () => {
    const classes: readonly string[] = LIMIT_CLASSES;
    const unknown = ENDPOINTS.flatMap(({ name, endpoint }) =>
      endpoint.limits
        .filter((limit) => !classes.includes(limit))
        .map((limit) => `${name}: ${limit}`),
    );
    expect(unknown).toEqual([]);
  });

  it('declares each method and path once', () => {
    // The router tells parameters by place, not by name: `/a/:id` and `/a/:key` are one route.
    const routes = ENDPOINTS.map(
      ({ endpoint }) => `${endpoint.method} ${endpoint.path.replace(/:\w+/g, ':')}`,
    );
    expect(routes.filter((route, index) => routes.indexOf(route) !== index)).toEqual([]);
  });

  it('lists errors that exist, each once, and none that any endpoint may answer', () => {
    const generic: readonly string[] = ANY_ENDPOINT_ERRORS;
    const wrong = ENDPOINTS.flatMap(({ name, endpoint }) =>
      endpoint.errors
        .filter(
          (code, index) =>
            !Object.hasOwn(ERRORS, code) ||
            generic.includes(code) ||
            endpoint.errors.indexOf(code) !== index,
        )
        .map((code) => `${name}: ${code}`),
    );
    expect(wrong).toEqual([]);
  });

  it('gives the path parameters a schema of their own, with no other field', () => {
    const fieldsOf = (params: z.ZodType | undefined) =>
      params === undefined
        ? []
        : params instanceof z.ZodObject
          ? Object.keys(params.shape).sort()
          : null;
    const mismatched = ENDPOINTS.filter(({ endpoint }) => {
      const inPath = [...endpoint.path.matchAll(/:(\w+)/g)].map((match) => match[1]).sort();
      return JSON.stringify(fieldsOf(endpoint.params)) !== JSON.stringify(inPath);
    }).map(({ name, endpoint }) => `${name}: ${endpoint.path}`);
    expect(mismatched).toEqual([]);
  });
});
