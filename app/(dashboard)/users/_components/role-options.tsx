"use client";

import { createContext, useContext } from "react";

// The roles the viewer may give out, in their language: read by the new-user form and each row's role dialog.
export type TRoleOption = { id: string; label: string };

const RoleOptionsContext = createContext<TRoleOption[]>([]);

export const RoleOptionsProvider = RoleOptionsContext.Provider;

export function useRoleOptions(): TRoleOption[] {
  return useContext(RoleOptionsContext);
}
