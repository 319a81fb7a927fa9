import { describe, expect, it } from "vitest";
import { permissionsOfRole } from "@/lib/auth/roles";
import { customerDocumentOf, customerForViewer } from "./viewer";

// The customers pages' least-data rule (docs/search-and-customers.md).

const administrator = { permissions: permissionsOfRole("administrator", null) };
const operations = { permissions: permissionsOfRole("operations", null) };

const row = { document: "52998224725", name: "Ana", paymentCount: 2, totalPaidCents: 1000, lastPaidAt: "2026-11-20" };

describe("customerForViewer", () => {
  it("gives a role holding customers.viewDocuments the whole document and a link by its digits", () => {
    expect(customerForViewer(administrator, row)).toEqual({ ...row, href: "/customers/52998224725" });
  });

  it("gives Operations a masked document and a link that holds no document but opens the same customer", () => {
    const view = customerForViewer(operations, row);
    expect(view.document).toBe("***.982.247-**");
    expect(view.href).not.toContain("52998224725");
    expect(customerDocumentOf(decodeURIComponent(view.href.slice("/customers/".length)))).toBe("52998224725");
  });
});

describe("customerDocumentOf", () => {
  it("reads digits as they are and refuses a reference that was altered or is not one", () => {
    expect(customerDocumentOf("11222333000181")).toBe("11222333000181");
    const segment = customerForViewer(operations, row).href.slice("/customers/".length);
    expect(customerDocumentOf(`${segment.slice(0, -2)}AA`)).toBeNull();
    expect(customerDocumentOf("not-a-customer")).toBeNull();
    expect(customerDocumentOf("123")).toBeNull();
  });
});
