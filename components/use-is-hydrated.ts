import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False in the server's HTML and until React has hydrated the component, true after. A button whose whole work is
 * an onClick does nothing when clicked before that: disable it meanwhile, so the click is not silently lost.
 */
export function useIsHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
