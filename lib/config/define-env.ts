import { z } from "zod";

// Each variable's `.describe()` says what it is for and how to set it, so a failed check tells the operator the fix.
export type TEnvConcern<Shape extends z.ZodRawShape> = {
  name: string;
  schema: z.ZodObject<Shape>;
};

export type TEnvProblem = { variable: string; problem: string; fix: string };

export class EnvValidationError extends Error {
  readonly problems: TEnvProblem[];

  constructor(problems: TEnvProblem[]) {
    super(formatEnvProblems(problems));
    this.name = "EnvValidationError";
    this.problems = problems;
  }
}

export function defineEnvConcern<Shape extends z.ZodRawShape>(name: string, shape: Shape): TEnvConcern<Shape> {
  return { name, schema: z.object(shape) };
}

type Env = Record<string, string | undefined>;

// An empty value (`AUTH_SECRET=` in a .env file) means "not set", so defaults apply. Only the concern's own variables
// are read: enumerating process.env crosses into C++ per variable, and hot paths read their concern per request.
function presentValues(variables: string[], env: Env): Env {
  const present: Env = {};
  for (const variable of variables) {
    const value = env[variable];
    if (value !== undefined && value.trim() !== "") present[variable] = value;
  }
  return present;
}

function describeIssues<Shape extends z.ZodRawShape>(
  concern: TEnvConcern<Shape>,
  error: z.ZodError,
  env: Env,
): TEnvProblem[] {
  return error.issues.map((issue) => {
    const variable = String(issue.path[0] ?? "(unknown)");
    const field = concern.schema.shape[variable] as z.ZodType | undefined;
    const isMissing = env[variable] === undefined;
    return {
      variable,
      problem: isMissing ? "is not set" : `is invalid: ${issue.message}`,
      fix: field?.description ?? "See .env.example.",
    };
  });
}

// The last parse per concern, by its variables' values: the same values parse to the same (frozen) result.
const lastParses = new WeakMap<object, { values: string; data: unknown }>();

export function parseEnvConcern<Shape extends z.ZodRawShape>(
  concern: TEnvConcern<Shape>,
  env: Env = process.env,
): Readonly<z.infer<z.ZodObject<Shape>>> {
  const present = presentValues(Object.keys(concern.schema.shape), env);
  const values = JSON.stringify(present);
  const last = lastParses.get(concern);
  if (last?.values === values) return last.data as Readonly<z.infer<z.ZodObject<Shape>>>;
  const result = concern.schema.safeParse(present);
  if (!result.success) throw new EnvValidationError(describeIssues(concern, result.error, present));
  const data = Object.freeze(result.data);
  lastParses.set(concern, { values, data });
  return data;
}

export function collectEnvProblems(concerns: TEnvConcern<z.ZodRawShape>[], env: Env = process.env): TEnvProblem[] {
  return concerns.flatMap((concern) => {
    try {
      parseEnvConcern(concern, env);
      return [];
    } catch (error) {
      if (error instanceof EnvValidationError) return error.problems;
      throw error;
    }
  });
}

function formatEnvProblems(problems: TEnvProblem[]): string {
  const lines = problems.map(({ variable, problem, fix }) => `  - ${variable} ${problem}. ${fix}`);
  return [
    "Invalid environment configuration:",
    ...lines,
    "Set the variables in the environment or in a .env file (see .env.example), then start again.",
  ].join("\n");
}
