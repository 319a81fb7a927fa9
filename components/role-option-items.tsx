// The `<option>`s of a role select, labelled in the viewer's language (users' dialogs, the SSO group mapping).
export function RoleOptionItems({ roles }: { roles: readonly { id: string; label: string }[] }) {
  return roles.map((role) => (
    <option key={role.id} value={role.id}>
      {role.label}
    </option>
  ));
}
