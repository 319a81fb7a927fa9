import { describe, expect, it } from "vitest";

import { resolveTheme, themeClassName } from "./config";

describe("theme", () => {
  it("accepts the three choices and falls back to the device's setting", () => {
    expect(resolveTheme("dark")).toBe("dark");
    expect(resolveTheme("light")).toBe("light");
    expect(resolveTheme("system")).toBe("system");
    expect(resolveTheme(undefined)).toBe("system");
    expect(resolveTheme("purple")).toBe("system");
  });

  it("puts the palette's class on <html>", () => {
    expect(themeClassName("dark")).toBe("dark");
    expect(themeClassName("system")).toBe("theme-system");
    expect(themeClassName("light")).toBeUndefined();
  });
});
