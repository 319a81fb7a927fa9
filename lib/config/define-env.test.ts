import { describe, expect, it } from "vitest";
import { databaseEnvConcern } from "./database-env";
import { EnvValidationError, parseEnvConcern } from "./define-env";
import { assertValidServerEnv } from "./validate-env";

const validEnv = { AUTH_SECRET: "x".repeat(32), WEBHOOK_SECRET_KEY: "a".repeat(64) };

describe("environment validation", () => {
  it("applies defaults and treats empty values as unset", () => {
    expect(parseEnvConcern(databaseEnvConcern, { DATABASE_URL: "", PGLITE_DATA_DIR: "" })).toEqual({
      DATABASE_POOL_MODE: "session",
      PGLITE_DATA_DIR: ".data/pglite",
    });
  });

  it("reads only the concern's variables, and parses again only when one of them changes", () => {
    const read: string[] = [];
    const env = new Proxy<Record<string, string | undefined>>(
      { DATABASE_URL: "postgresql://u:p@127.0.0.1:5432/db", UNRELATED: "x" },
      {
        get: (target, key) => {
          read.push(String(key));
          return target[String(key)];
        },
        ownKeys: () => {
          throw new Error("the whole environment was enumerated");
        },
      },
    );
    const first = parseEnvConcern(databaseEnvConcern, env);
    expect(first.DATABASE_URL).toBe("postgresql://u:p@127.0.0.1:5432/db");
    expect(read).not.toContain("UNRELATED");
    expect(parseEnvConcern(databaseEnvConcern, env)).toBe(first);
    env.DATABASE_POOL_MODE = "transaction";
    const second = parseEnvConcern(databaseEnvConcern, env);
    expect(second).not.toBe(first);
    expect(second.DATABASE_POOL_MODE).toBe("transaction");
    expect(Object.isFrozen(second)).toBe(true);
  });

  it("accepts a complete environment", () => {
    expect(() =>
      assertValidServerEnv({ ...validEnv, DATABASE_URL: "postgresql://u:p@127.0.0.1:5432/db", PORT: "8080" }),
    ).not.toThrow();
  });

  it("names every missing or malformed variable and says how to fix it", () => {
    let error: unknown;
    try {
      assertValidServerEnv({ DATABASE_URL: "mysql://localhost/db", PORT: "http", LOG_LEVEL: "loud" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(EnvValidationError);
    const { problems, message } = error as EnvValidationError;
    expect(problems.map((problem) => problem.variable)).toEqual([
      "DATABASE_URL",
      "AUTH_SECRET",
      "PORT",
      "LOG_LEVEL",
      "WEBHOOK_SECRET_KEY",
    ]);
    expect(message).toContain(
      "AUTH_SECRET is not set. It signs and encrypts session tokens: generate one with `openssl rand -base64 32`",
    );
    expect(message).toContain("DATABASE_URL is invalid: must be a postgresql:// URL.");
    expect(message).toContain("see .env.example");
  });

  it("rejects a short AUTH_SECRET", () => {
    expect(() => assertValidServerEnv({ AUTH_SECRET: "short" })).toThrow(
      /AUTH_SECRET is invalid: must be at least 32 characters/,
    );
  });
});
