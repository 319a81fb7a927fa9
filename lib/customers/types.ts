// Pure types, safe for client components. Money is integer cents; dates are ISO 8601 strings.

// A payer, told by CPF/CNPJ digits, over paid Pix charges and paid payment links.
export type TCustomerRow = {
  document: string;
  // The name seen on the latest payment.
  name: string | null;
  paymentCount: number;
  totalPaidCents: number;
  lastPaidAt: string;
};

// A Pix charge (a link paid by Pix shows here as its charge, with the link beside it) or a link paid otherwise.
export type TCustomerPayment = {
  kind: "pix" | "link";
  id: string;
  amountCents: number;
  status: string;
  name: string | null;
  paidAt: string;
  linkPaymentUuid: string | null;
};

export type TCustomerDetail = { customer: TCustomerRow; payments: TCustomerPayment[]; isTruncated: boolean };

// A customer as the viewer may see them (lib/customers/viewer.ts): `document` masked for STAFF, and the detail page's
// path, which carries a sealed reference instead of the document for them.
export type TCustomerViewRow = TCustomerRow & { href: string };
