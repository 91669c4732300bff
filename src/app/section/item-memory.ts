/**
 * part 1 §2 "Nav links append the last selected item id when one exists": the shell remembers the
 * item each section last showed. An item page that finds its item gone (not found) or deletes it
 * tells the shell through this context, so the section's link no longer leads to a missing item.
 * Without a shell around (a page tested alone) telling it does nothing.
 */
import { createContext, useContext } from 'react';

export interface ItemMemory {
  /** The item of the page now shown is gone: its section's link forgets it. */
  forgetShownItem(): void;
}

export const ItemMemoryContext = createContext<ItemMemory>({ forgetShownItem: () => undefined });

export const useItemMemory = (): ItemMemory => useContext(ItemMemoryContext);
