import { expect, type Locator, type Page } from "@playwright/test";

export class WebhookDeliveriesPage {
  readonly table: Locator;

  constructor(private readonly page: Page) {
    this.table = page.getByRole("table", { name: "Entregas recebidas" });
  }

  async goto(filters: Record<string, string> = {}) {
    const query = new URLSearchParams(filters).toString();
    return this.page.goto(query ? `/webhooks/deliveries?${query}` : "/webhooks/deliveries");
  }

  /** Rows of the history (header row excluded). */
  rows(): Locator {
    return this.table.getByRole("row").filter({ has: this.page.getByRole("cell") });
  }

  rowsWithOutcome(outcome: string): Locator {
    return this.rows().filter({ hasText: outcome });
  }

  /** Waits for the live history to show these counts; the gateway posts within seconds. */
  async expectOutcomes(expected: Record<string, number>) {
    for (const [outcome, count] of Object.entries(expected)) {
      await expect(this.rowsWithOutcome(outcome)).toHaveCount(count, { timeout: 30_000 });
    }
  }
}
