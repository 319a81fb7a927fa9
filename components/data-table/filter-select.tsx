import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";

type FilterSelectProps = {
  id: string;
  name: string;
  label: string;
  /** The first option, which sets no filter. */
  anyLabel: string;
  defaultValue: string | number;
  options: readonly { value: string | number; label: string }[];
};

/** A select in a list's filter form, with an "any" option that leaves the filter unset. */
export function FilterSelect({ id, name, label, anyLabel, defaultValue, options }: FilterSelectProps) {
  // Label and id by hand: from a server component, Field would put the id on NativeSelect's wrapper div.
  return (
    <div className="grid content-start gap-2">
      <Label htmlFor={id}>{label}</Label>
      <NativeSelect id={id} name={name} defaultValue={defaultValue}>
        <option value="">{anyLabel}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}
