import { describe, expect, it } from "vitest";
import { acceptsRefundStatus, statusMove } from "./status";

describe("statusMove", () => {
  it("moves forward through CREATED < ACTIVE < a final status, never back", () => {
    expect(statusMove("CREATED", "ACTIVE", false)).toBe("accept");
    expect(statusMove("ACTIVE", "PAID", false)).toBe("accept");
    expect(statusMove("ACTIVE", "CREATED", true)).toBe("refuse");
    expect(statusMove("EXPIRED", "PAID", true)).toBe("refuse");
    expect(statusMove("Cancelada", "ACTIVE", true)).toBe("refuse");
    expect(statusMove("PAID", "ACTIVE", true)).toBe("refuse");
  });

  it("moves back within the paid family only from a full read that lists every refund", () => {
    expect(statusMove("PAID", "REFUNDED", false)).toBe("accept");
    expect(statusMove("REFUNDED", "PARTIALLY REFUNDED", true)).toBe("if_refunds_known");
    expect(statusMove("REFUNDED", "PARTIALLY REFUNDED", false)).toBe("refuse");
  });

  it("accepts what it cannot compare: an unknown status on either side", () => {
    expect(statusMove("SOMETHING NEW", "CREATED", false)).toBe("accept");
    expect(statusMove("PAID", "SOMETHING NEW", false)).toBe("accept");
  });
});

describe("acceptsRefundStatus", () => {
  it("moves CREATED < PROCESSING < a final status, which never changes", () => {
    expect(acceptsRefundStatus(1, 2)).toBe(true);
    expect(acceptsRefundStatus(2, 3)).toBe(true);
    expect(acceptsRefundStatus(1, 99)).toBe(true);
    expect(acceptsRefundStatus(2, 1)).toBe(false);
    expect(acceptsRefundStatus(3, 4)).toBe(false);
    expect(acceptsRefundStatus(4, 4)).toBe(true);
  });
});
