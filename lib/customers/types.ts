export type TCustomerRow = {
  document: string;
  name: string | null;
  paymentCount: number;
  totalPaidCents: number;
  lastPaidAt: string;
};

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

export type TCustomerViewRow = TCustomerRow & { href: string };
