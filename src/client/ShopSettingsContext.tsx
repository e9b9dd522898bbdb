import { createContext, useContext } from 'react';
import type { PageSettings } from '../shared/settings/settingsSchema';

/** The page's settings (#shop-settings), available to every component on the server and in every island. */
export const ShopSettingsContext = createContext<PageSettings | null>(null);

export function useShopSettings(): PageSettings {
  const settings = useContext(ShopSettingsContext);
  if (!settings) throw new Error('useShopSettings needs a ShopSettingsContext provider');
  return settings;
}
