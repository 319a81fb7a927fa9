// Vitest runs server modules outside Next.js, where `server-only` would throw on import.
export {};
