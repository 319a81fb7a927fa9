import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";

type PeriodFilterFieldsProps = {
  fromLabel: string;
  toLabel: string;
  /** Days as `YYYY-MM-DD`; absent when the list has no period set. */
  from?: string;
  to?: string;
  /** Whether the "from" picker stops at the "to" day. */
  isFromBoundedByTo?: boolean;
};

/** The "from" and "to" day inputs of a list's filter form. */
export function PeriodFilterFields({
  fromLabel,
  toLabel,
  from,
  to,
  isFromBoundedByTo = false,
}: PeriodFilterFieldsProps) {
  return (
    <>
      <Field label={fromLabel}>
        <Input name="from" type="date" defaultValue={from ?? ""} max={isFromBoundedByTo ? to : undefined} />
      </Field>
      <Field label={toLabel}>
        <Input name="to" type="date" defaultValue={to ?? ""} />
      </Field>
    </>
  );
}
