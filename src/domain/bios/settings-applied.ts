// When a BIOS settings resource last took its pending changes in, at POST: what its
// @Redfish.Settings annotation reports as Time (with a Success message). Persisted.
import type { BootInfo } from '../../platform/lifecycle.js';
import type { DocumentStore } from '../../store/documents.js';

export interface SettingsApplied {
  /** The pending changes were taken in during this boot's POST. */
  mark(boot: BootInfo): void;
  /** When (controller ms, the POST's start), or null before the first time. */
  at(): number | null;
}

export function settingsApplied(store: DocumentStore, key: string): SettingsApplied {
  const saved = store.setting<number | null>(`${key}.appliedAt`, null);
  return { mark: (boot) => saved.set(boot.startedAt), at: () => saved.peek() };
}
