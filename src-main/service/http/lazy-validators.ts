import AjvCompiler, { type BuildCompilerFromPool } from '@fastify/ajv-compiler';

/** A compiled validator as Fastify calls it: it reads `.errors` after a `false`. */
interface Validator {
  (data: unknown): unknown;
  errors?: unknown;
}

/**
 * What Fastify's `schemaController.compilersFactory.buildValidator` is at run time: given the
 * shared schemas and the `ajv` options, a compiler of one route part's schema (`{schema, method,
 * url, httpPart}`; the package's typings name it loosely).
 */
type BuildValidator = (externalSchemas: unknown, options: unknown) => (routeSchema: unknown) => Validator;

export interface LazyValidators {
  /** For `Fastify({schemaController: {compilersFactory: {buildValidator}}})`. */
  buildValidator: BuildCompilerFromPool;
  /** Compiles every validator not compiled yet; answers how many validators there are. */
  compileAll(): number;
}

/**
 * Fastify's own Ajv validators, each route's compiled on the route's first request instead of
 * while the server starts.
 *
 * Why: compiling the routes' schemas with Ajv was about a sixth of `serve`'s CPU before its first
 * answer (docs/SPEED.md#ten-million-npm-run-benchscale), and a desktop app that opens slowly loses
 * its users; most routes are never called in a session. The validators are the same functions
 * with the same options (`ajv.customOptions` in `server.ts`); only the moment they are built
 * moves. A schema Ajv cannot compile would fail on its route's first request instead of at
 * start-up, so a test compiles them all with `compileAll` (`lazy-validators.test.ts`).
 */
export function lazyValidators(): LazyValidators {
  const eager = AjvCompiler() as unknown as BuildValidator;
  const compilers: (() => Validator)[] = [];
  const buildValidator: BuildValidator = (externalSchemas, options) => {
    const compile = eager(externalSchemas, options);
    return (routeSchema) => {
      let validate: Validator | undefined;
      const compiled = (): Validator => (validate ??= compile(routeSchema));
      compilers.push(compiled);
      const lazy: Validator = (data) => {
        const v = compiled();
        const result = v(data);
        lazy.errors = v.errors;
        return result;
      };
      return lazy;
    };
  };
  return {
    buildValidator: buildValidator as unknown as BuildCompilerFromPool,
    compileAll: () => {
      for (const compiled of compilers) compiled();
      return compilers.length;
    },
  };
}
